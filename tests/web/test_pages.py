"""The web pages through Django's test client: status, login, scoping by club, roles, and that what a page
shows is what the ledger and the engine hold (the scripts' part is in tests/browser)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.test import Client

from api.sessions import next_legal
from ledger import selectors
from ledger.engine import settle
from ledger.engine.variants import american, fontainebleau, french, get_variant, russian, variant_names
from ledger.models import Hand, Player, Session
from ledger.services.sessions import session_close
from ledger.web import catalog
from ledger.web.legal import bids_allowed
from tests.ledger_fixtures import AMERICAN_HANDS, PASSWORD, fresh, open_session, record_all

from .html import as_int, data_n, json_script, table_rows

pytestmark = pytest.mark.django_db


def close(actor: Any, session: Session, pools: str = "divide") -> dict[str, Any]:
    _, settlement = session_close(
        actor=actor, session_id=session.pk, pools=pools, expected_version=fresh(session).version
    )
    return settlement


def page_urls(session: Session, player: Player) -> list[str]:
    s, c = session.pk, session.club_id
    return [
        "/",
        f"/clubs/{c}/",
        f"/clubs/{c}/sessions/new/",
        f"/sessions/{s}/",
        f"/sessions/{s}/score/",
        f"/sessions/{s}/sheet/",
        f"/sessions/{s}/sheet/rows/",
        f"/sessions/{s}/settlement/",
        f"/players/{player.pk}/",
    ]


def test_every_page_needs_a_login(session: Session, players: list[Player]) -> None:
    client = Client()
    for url in page_urls(session, players[0]):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == f"/login/?next={url}", url


def test_every_page_answers_a_member(client_for: Any, scorer: Any, session: Session, players: list[Player]) -> None:
    record_all(scorer, session, AMERICAN_HANDS[:2])
    client = client_for(scorer)
    for url in page_urls(session, players[0]):
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("text/html"), url


def test_another_clubs_objects_are_404(
    client_for: Any, other_admin: Any, other_club: Any, session: Session, players: list[Player], club: Any
) -> None:
    """A superuser who is not a member of the club sees nothing of it: 404, never 403."""
    client = client_for(other_admin)
    for url in page_urls(session, players[0])[1:]:
        response = client.get(url)
        assert response.status_code == 404, url
        assert b"Not found" in response.content or response.status_code == 404
    assert client.post(f"/sessions/{session.pk}/settlement/", {"action": "close", "version": 1}).status_code == 404
    assert client.post(f"/clubs/{club.pk}/players/new/", {"name": "Spy"}).status_code == 404
    assert not Player.objects.filter(name="Spy").exists()
    home = client.get("/", follow=True)  # a member of one club lands on it
    assert home.redirect_chain[-1][0] == f"/clubs/{other_club.pk}/"
    assert b"Bars Club" not in home.content and b"Other Club" in home.content


def test_login_page_logs_in_and_out(scorer: Any, club: Any) -> None:
    client = Client()
    page = client.get("/login/")
    assert page.status_code == 200 and b'name="csrfmiddlewaretoken"' in page.content
    wrong = client.post("/login/", {"username": "scorer", "password": "nope"})
    assert wrong.status_code == 200 and b"error" in wrong.content
    response = client.post("/login/", {"username": "scorer", "password": PASSWORD, "next": f"/clubs/{club.pk}/"})
    assert response.status_code == 302 and response["Location"] == f"/clubs/{club.pk}/"
    landed = client.get("/")  # a scorer of one club lands on that club
    assert landed.status_code == 302 and landed["Location"] == f"/clubs/{club.pk}/"
    assert client.post("/logout/").status_code == 302
    assert client.get("/").status_code == 302


def test_login_enforces_csrf(scorer: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/login/", {"username": "scorer", "password": PASSWORD})
    assert response.status_code == 403


def test_club_page_lists_open_and_recent_sessions(
    client_for: Any, scorer: Any, admin: Any, club: Any, players: list[Player]
) -> None:
    open_one = open_session(admin, club, players)
    closed = open_session(admin, club, players)
    record_all(admin, closed, AMERICAN_HANDS)
    close(admin, closed)
    html = client_for(scorer).get(f"/clubs/{club.pk}/").content.decode()
    open_part, recent_part = html.split('id="past-h"')
    assert f"/sessions/{open_one.pk}/" in open_part.split('id="open-h"')[1]
    assert f"/sessions/{closed.pk}/settlement/" in recent_part
    assert f"/sessions/{closed.pk}/" not in open_part.split('id="open-h"')[1]
    assert f"/api/v1/clubs/{club.pk}/leaderboard/" in html
    for p in players:
        assert f"/players/{p.pk}/" in html


def test_adding_a_player_needs_a_scorer(client_for: Any, scorer: Any, player_user: Any, club: Any) -> None:
    assert client_for(player_user).post(f"/clubs/{club.pk}/players/new/", {"name": "Zoe"}).status_code == 403
    response = client_for(scorer).post(f"/clubs/{club.pk}/players/new/", {"name": "Zoe"})
    assert response.status_code == 302
    assert Player.objects.filter(club=club, name="Zoe").exists()
    again = client_for(scorer).post(f"/clubs/{club.pk}/players/new/", {"name": "Zoe"}, follow=True)
    assert Player.objects.filter(club=club, name="Zoe").count() == 1
    assert b"message error" in again.content


# --- opening a session -----------------------------------------------------------------------------


def test_new_session_form_shows_every_house_rule_with_the_engines_default(
    client_for: Any, scorer: Any, club: Any
) -> None:
    html = client_for(scorer).get(f"/clubs/{club.pk}/sessions/new/").content.decode()
    for name in variant_names():
        options = type(get_variant(name).parse_options({}))
        for f in dataclasses.fields(options):
            assert f'id="house-rule-{name}-{f.name}"' in html, (name, f.name)  # its input's id is rule-…
    # scalar defaults are the inputs' initial values
    assert 'name="rule-american-ante" type="number" inputmode="numeric" value="5"' in html
    assert american.Options().ante == 5
    assert 'name="rule-american-pool_limit" type="number" inputmode="numeric" value="100"' in html
    assert '<option value="decimal" selected>' in html
    assert 'name="rule-russian-basket" type="number" inputmode="numeric" value="10"' in html
    assert '<option value="1" selected>1</option>' in html  # fontainebleau slam_table
    assert f"default: {catalog.value_text(fontainebleau.Options().honours)}" in html


def test_player_role_may_not_open_a_session(client_for: Any, player_user: Any, club: Any) -> None:
    assert client_for(player_user).get(f"/clubs/{club.pk}/sessions/new/").status_code == 403


def post_new(client: Client, club: Any, players: list[Player], **fields: Any) -> Any:
    data = {
        "variant": "american",
        "first_dealer": "2",
        "rule-american-table": "decimal",
        "rule-american-ante": "5",
        "rule-american-pool_limit": "100",
        "rule-american-misdeal_penalty": "10",  # table law (rules.md §0.11), as the form fills them in
        "rule-american-pay_instead_short": "1",
    }
    data.update({f"seat-{i}": str(p.pk) for i, p in enumerate(players)})
    data.update(fields)
    return client.post(f"/clubs/{club.pk}/sessions/new/", data)


def test_opening_a_session_through_the_form(client_for: Any, scorer: Any, club: Any, players: list[Player]) -> None:
    response = post_new(
        client_for(scorer),
        club,
        players,
        **{"rule-american-ante": "10", "stake_currency": "eur", "stake_per_counter": "0.05"},
    )
    assert response.status_code == 302
    session = Session.objects.get()
    assert response["Location"] == f"/sessions/{session.pk}/score/"
    assert session.rules == {
        "table": "decimal",
        "ante": 10,
        "pool_limit": 100,
        "last_trick_hand": False,
        "misdeal_penalty": 10,
        "pay_instead_short": 1,
    }
    assert session.first_dealer == 2
    assert session.stake == {"currency": "EUR", "per_counter": "0.05"}
    assert [p.pk for p in selectors.session_players(session=session)] == [p.pk for p in players]


@pytest.mark.parametrize(("typed", "stored"), [("0,05", "0.05"), ("1,5", "1.5"), ("0.25", "0.25")])
def test_the_stake_takes_a_decimal_comma(
    client_for: Any, scorer: Any, club: Any, players: list[Player], typed: str, stored: str
) -> None:
    """The form's example says 0,01 in French and Russian: what it shows, it takes."""
    fields = {"stake_currency": "EUR", "stake_per_counter": typed}
    response = post_new(client_for(scorer), club, players, **fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Session.objects.get().stake == {"currency": "EUR", "per_counter": stored}


def test_no_limit_and_nested_rules_reach_the_engine(
    client_for: Any, scorer: Any, club: Any, players: list[Player]
) -> None:
    client = client_for(scorer)
    assert post_new(client, club, players, **{"rule-american-pool_limit": ""}).status_code == 302
    assert Session.objects.get().rules["pool_limit"] is None
    data = {
        "variant": "russian",
        "rule-russian-basket": "10",
        "rule-russian-third_suit_rate": "starshaya",
        "rule-russian-nine.base": "6",
        "rule-russian-nine.extra": "2",
        "rule-russian-misere": "",
        # table law (rules.md §0.11), as the form fills them in: the labet and the solo checked
        "rule-russian-misdeal_penalty": "0",
        "rule-russian-remiz": "0",
        "rule-russian-labet": "on",
        "rule-russian-solo": "on",
    }
    assert post_new(client, club, players, **data).status_code == 302
    rules = Session.objects.filter(variant="russian").get().rules
    assert {k: rules[k] for k in ("basket", "third_suit_rate", "nine")} == {
        "basket": 10,
        "third_suit_rate": "starshaya",
        "nine": {"base": 6, "extra": 2},
    }
    assert "misere" not in rules and "souverain" not in rules
    assert (rules["labet"], rules["solo"], rules["remiz"]) == (True, True, 0)


def test_the_engines_refusal_is_shown_next_to_its_rule(
    client_for: Any, scorer: Any, club: Any, players: list[Player]
) -> None:
    response = post_new(client_for(scorer), club, players, **{"rule-american-ante": "-1"})
    assert response.status_code == 400
    html = response.content.decode()
    rule_block = html[html.index('id="house-rule-american-ante"') : html.index('id="house-rule-american-pool_limit"')]
    assert "Ante: enter a whole number, 0 or more" in rule_block
    assert not Session.objects.exists()
    half_nine = post_new(
        client_for(scorer),
        club,
        players,
        variant="russian",
        **{"rule-russian-basket": "10", "rule-russian-third_suit_rate": "mladshaya", "rule-russian-nine.base": "6"},
    )
    text = half_nine.content.decode()
    nine_block = text[text.index('id="house-rule-russian-nine"') : text.index('id="house-rule-russian-misere"')]
    assert "give every amount of this rule, or none of them" in nine_block


def test_seats_and_stake_errors_are_named(client_for: Any, scorer: Any, club: Any, players: list[Player]) -> None:
    same = players[:3] + players[:1]
    response = post_new(client_for(scorer), club, same)
    assert response.status_code == 400
    assert "four different players, in seat order" in response.content.decode()
    half_stake = post_new(client_for(scorer), club, players, stake_currency="USD")
    assert "give both the currency and the value of one counter, or neither" in half_stake.content.decode()
    bad_stake = post_new(client_for(scorer), club, players, stake_currency="USD", stake_per_counter="1e3")
    assert "write the amount in plain digits, not as a power of ten (1e3)" in bad_stake.content.decode()


def test_carried_pools_can_be_claimed_once(
    client_for: Any, treasurer: Any, admin: Any, club: Any, players: list[Player]
) -> None:
    source = open_session(admin, club, players)
    record_all(admin, source, AMERICAN_HANDS[:1])  # a failed seven: the pool holds what the bidder paid in
    settlement = close(admin, source, "carry")
    carried = settlement["close"]["carried"]
    assert sum(carried) > 0
    client = client_for(treasurer)
    form = client.get(f"/clubs/{club.pk}/sessions/new/").content.decode()
    option = f"#{source.pk} American Boston, closed"
    assert option in form and ", ".join(map(str, carried)) in form
    assert post_new(client, club, players, carry_pools_from=str(source.pk)).status_code == 302
    claimed = Session.objects.get(carry_pools_from=source)
    assert claimed.pools_in == carried
    again = client.get(f"/clubs/{club.pk}/sessions/new/").content.decode()
    assert option not in again
    refused = post_new(client, club, players, carry_pools_from=str(source.pk))
    assert refused.status_code == 400
    assert "already claimed" in refused.content.decode()


# --- the scorer page -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", variant_names())
def test_scorer_page_carries_the_variants_own_tables(
    client_for: Any, scorer: Any, admin: Any, club: Any, players: list[Player], variant: str
) -> None:
    session = open_session(admin, club, players, variant=variant, first_dealer=1)
    config = json_script(client_for(scorer).get(f"/sessions/{session.pk}/score/").content.decode(), "scorer-config")
    engine = get_variant(variant)
    assert [b["code"] for b in config["variant"]["bids"]] == list(engine.bids)
    assert config["variant"]["fields"] == {bid: dict(t) for bid, t in engine.fields.items()}
    assert config["variant"]["no_trump"] == engine.no_trump
    assert config["players"] == ["Ann", "Ben", "Cleo", "Dan"]
    options = engine.parse_options({})
    for deal in config["deals"]:
        assert deal["dealer"] == engine.dealer(1, deal["number"])
        assert deal["double"] == engine.is_double(deal["number"])
        assert engine.next_deal_allowed(deal["number"], options)
        assert deal["bids"] == bids_allowed(variant, fresh(session).rules, deal["number"])
    first = {k: v for k, v in config["deals"][0].items() if k not in ("bids", "legal", "belle")}
    assert first == {"number": 1, **{k: v for k, v in fresh(session).next_deal.items() if k != "number"}}
    said = next_legal(fresh(session))  # the session API's, for deal 1
    assert (config["deals"][0]["legal"], config["deals"][0]["belle"]) == (said["bids"], said["belle"])
    assert config["legal"]["seat_fields"] == ["bidder", "partner", "jack", "revoke", "last_trick"]
    assert config["api"]["hands"] == f"/api/v1/sessions/{session.pk}/hands/"


def test_scorer_page_for_a_player_has_no_form(client_for: Any, player_user: Any, session: Session) -> None:
    html = client_for(player_user).get(f"/sessions/{session.pk}/score/").content.decode()
    assert 'id="hand-form"' not in html
    assert "you can follow the session, not record deals" in html
    assert json_script(html, "scorer-config")["can_score"] is False


def test_session_link_goes_where_the_role_and_status_lead(
    client_for: Any, scorer: Any, player_user: Any, session: Session, admin: Any
) -> None:
    assert client_for(scorer).get(f"/sessions/{session.pk}/")["Location"] == f"/sessions/{session.pk}/score/"
    assert client_for(player_user).get(f"/sessions/{session.pk}/")["Location"] == f"/sessions/{session.pk}/sheet/"
    close(admin, session)
    assert client_for(scorer).get(f"/sessions/{session.pk}/")["Location"] == f"/sessions/{session.pk}/settlement/"


# --- the score sheet ---------------------------------------------------------------------------------


def test_sheet_shows_every_deal_as_the_engine_settled_it(client_for: Any, scorer: Any, session: Session) -> None:
    record_all(scorer, session, AMERICAN_HANDS)
    settlement = settle(selectors.session_sheet(session=fresh(session)))
    for url in (f"/sessions/{session.pk}/sheet/", f"/sessions/{session.pk}/sheet/rows/"):
        html = client_for(scorer).get(url).content.decode()
        rows = html.split('data-deal="')[1:]
        assert len(rows) == len(AMERICAN_HANDS)
        for row, settled, raw in zip(rows, settlement["hands"], AMERICAN_HANDS, strict=True):
            numbers = data_n(row.split("</tr>")[0])
            assert numbers[0::2] == settled["deltas"]  # each seat's change
            assert numbers[1::2] == settled["balances"]  # its running total
            if "bidder" in raw:
                assert f"<td>{['Ann', 'Ben', 'Cleo', 'Dan'][raw['bidder']]}" in row
        totals = html[html.index("<tfoot>") :]
        assert data_n(totals) == settlement["balances"]
        assert f'data-version="{fresh(session).version}"' in html


def test_sheet_marks_the_doubles(client_for: Any, scorer: Any, admin: Any, club: Any, players: list[Player]) -> None:
    session = open_session(admin, club, players, variant="french")
    hands = [{"bid": "pass", "turned": "hearts"}] * 34
    record_all(scorer, session, hands)
    html = client_for(scorer).get(f"/sessions/{session.pk}/sheet/").content.decode()
    assert 'class="" data-deal="32"' in html
    assert 'class="double" data-deal="33"' in html
    assert html.count('class="double"') == 2  # deals 33 and 34


# --- the settlement ---------------------------------------------------------------------------------


def test_settlement_of_a_closed_session_shows_the_engines_close(
    client_for: Any, scorer: Any, session: Session, admin: Any
) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    result = close(admin, session)
    ending = result["close"]
    html = client_for(scorer).get(f"/sessions/{session.pk}/settlement/").content.decode()
    rows = table_rows(html, "final-table")
    names = ["Ann", "Ben", "Cleo", "Dan"]
    assert [r[0] for r in rows] == names
    assert [as_int(r[1]) for r in rows] == result["balances"]
    assert [as_int(r[2]) for r in rows] == ending["division"]
    assert [as_int(r[3]) for r in rows] == ending["final"]
    payments = html[html.index('id="payments"') : html.index("</ol>", html.index('id="payments"'))]
    assert payments.count("<li ") == len(ending["payments"]) > 0
    for p in ending["payments"]:
        payer, payee = (names[x] if x != "pool" else "the club's pool" for x in (p["from"], p["to"]))
        assert f"<strong>{payer}</strong> pays <strong>{payee}</strong>" in payments
        assert f'data-cents="{p["cents"]}" data-currency="USD"' in payments
    assert 'id="carried"' in html
    assert "Reopen the session" not in html  # a scorer may not reopen


def test_treasurer_closes_and_reopens_from_the_page(
    client_for: Any, treasurer: Any, scorer: Any, session: Session
) -> None:
    record_all(scorer, session, AMERICAN_HANDS)
    client = client_for(treasurer)
    page = client.get(f"/sessions/{session.pk}/settlement/").content.decode()
    assert "Close and settle" in page and "Not closed yet" in page
    version = fresh(session).version
    unconfirmed = client.post(
        f"/sessions/{session.pk}/settlement/", {"action": "close", "version": version}, follow=True
    )
    assert "Not closed: tick" in unconfirmed.content.decode()  # closing asks first
    assert fresh(session).status == Session.Status.OPEN
    stale = client.post(
        f"/sessions/{session.pk}/settlement/",
        {"action": "close", "version": version - 1, "confirm": "yes"},
        follow=True,
    )
    assert "the session is at version" in stale.content.decode()
    assert fresh(session).status == Session.Status.OPEN
    closed = client.post(
        f"/sessions/{session.pk}/settlement/",
        {"action": "close", "version": version, "pools": "carry", "confirm": "yes"},
    )
    assert closed.status_code == 302
    assert fresh(session).status == Session.Status.CLOSED and fresh(session).close == {"pools": "carry"}
    reopened = client.post(
        f"/sessions/{session.pk}/settlement/", {"action": "reopen", "version": fresh(session).version, "confirm": "yes"}
    )
    assert reopened.status_code == 302 and fresh(session).status == Session.Status.OPEN


def test_a_scorer_may_not_close(client_for: Any, scorer: Any, session: Session) -> None:
    response = client_for(scorer).post(f"/sessions/{session.pk}/settlement/", {"action": "close", "version": 1})
    assert response.status_code == 403
    assert fresh(session).status == Session.Status.OPEN


# --- the player page ---------------------------------------------------------------------------------


def test_player_page_shows_the_sessions_and_their_closing(
    client_for: Any, scorer: Any, admin: Any, club: Any, players: list[Player]
) -> None:
    ann = players[0]
    finals = []
    for seat_order in (players, players[1:] + players[:1]):
        session = open_session(admin, club, seat_order, stake={"currency": "USD", "per_counter": "0.01"})
        record_all(admin, session, AMERICAN_HANDS)
        result = close(admin, session)
        seat = [p.pk for p in seat_order].index(ann.pk)
        finals.append((session.pk, result["close"]["final"][seat], result["close"]["money"][seat]))
    still_open = open_session(admin, club, players)
    record_all(admin, still_open, AMERICAN_HANDS[:2])
    html = client_for(scorer).get(f"/players/{ann.pk}/").content.decode()
    rows = {r[0]: r for r in table_rows(html, "sessions-table")}
    for pk, final, _money in finals:
        assert as_int(rows[f"#{pk}"][5]) == final
    assert "so far" in rows[f"#{still_open.pk}"][5]
    assert as_int(rows[f"#{still_open.pk}"][5]) == fresh(still_open).balances[0]
    totals = html[html.index('id="variant-totals"') :]
    assert data_n(totals)[0] == sum(f for _, f, _ in finals)
    assert f'data-cents="{sum(m for _, _, m in finals)}"' in totals
    config = json_script(html, "player-config")
    assert [p["counters"] for p in config["series"]["american"]] == [f for _, f, _ in finals]
    assert config["stats"] == f"/api/v1/players/{ann.pk}/stats/"


def test_player_of_another_club_is_404(
    client_for: Any, other_admin: Any, other_club: Any, players: list[Player]
) -> None:
    assert client_for(other_admin).get(f"/players/{players[0].pk}/").status_code == 404
    assert client_for(other_admin).get("/players/999999/").status_code == 404


# --- the rules pages ----------------------------------------------------------------------------------


def cells(row: list[str]) -> list[int | None]:
    return [None if c == "–" else int(c.rstrip("†")) for c in row[1:]]


def test_rules_pages_are_public_and_list_every_variant(db: None) -> None:
    client = Client()
    index = client.get("/rules/").content.decode()
    for name in variant_names():
        assert f'href="/rules/{name}/"' in index
        assert client.get(f"/rules/{name}/").status_code == 200
    assert client.get("/rules/whist/").status_code == 404


def test_american_tables_are_the_engines(db: None) -> None:
    html = Client().get("/rules/american/").content.decode()
    bids = list(american.TRICK_BIDS.items())
    assert [int(r[2]) for r in table_rows(html, "a-t2")] == [american.DECIMAL_SUCCESS[n] for _, n in bids]
    for table_id, table in (("a-t4", american.DECIMAL_FAILURE), ("a-t3", american.CLASSIC_FAILURE)):
        rows = table_rows(html, table_id)
        assert [[c for c in cells(r) if c is not None] for r in rows] == [list(table[n]) for _, n in bids]
    classic = table_rows(html, "a-t1")
    assert [[c for c in cells(r) if c is not None] for r in classic] == [
        list(american.CLASSIC_SUCCESS[n].values()) for _, n in bids
    ]
    assert [int(r[1]) for r in table_rows(html, "a-t5")] == list(american.MISERES.values())


def test_what_the_rules_page_says_is_what_the_engine_pays(db: None) -> None:
    """A made seven and a failed nine, settled by the engine, pay exactly the printed cells."""
    html = Client().get("/rules/american/").content.decode()
    success = {r[0]: int(r[2]) for r in table_rows(html, "a-t2")}
    failure = {r[0]: cells(r) for r in table_rows(html, "a-t4")}
    sheet = {
        "format": "clubscore-sheet/1",
        "variant": "american",
        "rules": {"ante": 0},
        "players": ["A", "B", "C", "D"],
        "first_dealer": 0,
        "hands": [
            {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 1, 8, 2]},
            {"bid": "nine", "bidder": 1, "trump": "spades", "tricks": [1, 6, 3, 3]},
        ],
    }
    made, failed = settle(sheet)["hands"]
    contract = [t["counters"] for t in made["transfers"] if t["reason"] == "contract"]
    assert contract == [success["seven"]] * 3
    paid = [t["counters"] for t in failed["transfers"] if t["reason"] == "contract"]
    assert paid == [failure["nine"][9 - 6 - 1]] * 3


def test_fontainebleau_french_russian_tables_are_the_engines(db: None) -> None:
    client = Client()
    html = client.get("/rules/fontainebleau/").content.decode()
    rows = table_rows(html, "table-no-1")
    for row, engine in zip(rows, fontainebleau.TABLE_NO_1.values(), strict=True):
        assert cells(row) == [engine.no_trump, engine.clubs_spades, engine.hearts, engine.diamonds, engine.extra_trick]
    html = client.get("/rules/french/").content.decode()
    rows = table_rows(html, "table-of-payments")
    suits = sorted(french.SUIT_FACTOR, key=french.SUIT_FACTOR.get)
    assert cells(rows[0]) == [french.FIVE_ALONE_OR_PARTNERS_EIGHT.base * french.SUIT_FACTOR[s] for s in suits]
    assert cells(rows[-1]) == [french.SLAM_SEUL * french.SUIT_FACTOR[s] for s in suits]
    html = client.get("/rules/russian/").content.decode()
    for code, table in russian.TARIFF.items():
        rows = table_rows(html, code.lower())
        for row, name in zip(rows, (russian.MLADSHAYA, russian.STARSHAYA), strict=True):
            assert [c for c in cells(row) if c is not None] == [table[name][t] for t in sorted(table[name])]
    assert html.count("†</span>") == len(russian.CORRECTED)


def test_rules_page_lists_each_bids_fields(db: None) -> None:
    html = Client().get("/rules/french/").content.decode()
    rows = table_rows(html, "bids")
    assert [r[1] for r in rows] == list(french.BIDS)
    simple = rows[0][2]
    assert "♦J (required)" in simple and "Partner (optional)" in simple
    house = table_rows(html, "house-rules")
    assert house[0][:3] == ["Neuf amounts", "neuf", "none"]  # the rule's label, then its code


def test_web_pages_do_not_break_the_api_json_404(client_for: Any, scorer: Any) -> None:
    response = client_for(scorer).get("/api/v1/nothing/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    assert client_for(scorer).get("/no-such-page/").status_code == 404


def test_hands_recorded_stay_as_recorded(client_for: Any, scorer: Any, session: Session) -> None:
    """Reading the pages writes nothing."""
    record_all(scorer, session, AMERICAN_HANDS[:2])
    before = (fresh(session).version, Hand.objects.count())
    client = client_for(scorer)
    for url in page_urls(session, Player.objects.first()):
        client.get(url)
    assert (fresh(session).version, Hand.objects.count()) == before


def test_settlement_says_whether_the_background_work_is_done(
    client_for: Any, scorer: Any, session: Session, admin: Any
) -> None:
    from ledger.followup import followup_run

    record_all(admin, session, AMERICAN_HANDS)
    close(admin, session)  # inside the test's transaction nothing commits, so nothing ran the follow-up yet
    html = client_for(scorer).get(f"/sessions/{session.pk}/settlement/").content.decode()
    assert 'data-background="pending"' in html and "Still being posted" in html
    followup_run(session_id=session.pk)  # what the Celery task does
    html = client_for(scorer).get(f"/sessions/{session.pk}/settlement/").content.decode()
    assert 'data-background="done"' in html


def test_a_refused_stake_keeps_what_was_typed_and_takes_its_currency_sign(
    client_for: Any, scorer: Any, club: Any, players: list[Player]
) -> None:
    """Issue 38, item 18: a refused stake blanked both fields, and the placeholders then looked filled in."""
    client = client_for(scorer)
    refused = post_new(client, club, players, stake_currency="eur", stake_per_counter="-3")
    html = refused.content.decode()
    assert refused.status_code == 400 and "write it without the minus sign" in html
    assert 'placeholder="EUR" value="EUR"' in html and 'value="-3"' in html
    assert post_new(client, club, players, stake_currency="EUR", stake_per_counter="12,5 €").status_code == 302
    assert Session.objects.get().stake == {"currency": "EUR", "per_counter": "12.5"}
