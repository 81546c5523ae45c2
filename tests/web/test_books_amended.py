"""Issue 38, items 14-15: the settlement after a reopen and an amendment keeps the payments tied to the
evening, asks nothing already paid and says what is owed back, with a link to record the refund; a
write-off is said as one, and an overpayment is shown as paid, not capped."""

from __future__ import annotations

import csv
import io
import re
from html import unescape
from typing import Any

import pytest

from ledger.models import Player, Session
from tests.ledger_fixtures import AMERICAN_HANDS, record_all
from tests.money.helpers import close, run_followup
from tests.money.test_evening_payments import amended
from tests.money.test_ledger import pay
from tests.web.test_books import closed_with_money, record_link_queries

pytestmark = pytest.mark.django_db


def text_of(html: str, element_id: str) -> str:
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</(?:ul|p|ol|details)>', html, re.S)
    assert found, element_id
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def test_the_settlement_after_an_amendment_shows_the_tied_payment_and_the_refund_to_record(
    client_for: Any, admin: Any, treasurer: Any, club: Any, players: list[Player], session: Session
) -> None:
    ann, ben, cleo, dan = players
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))
    paid = pay(treasurer, club, ben.pk, cleo.pk, 60, session_id=session.pk)
    session = amended(admin, session)
    client = client_for(treasurer)
    html = client.get(f"/sessions/{session.pk}/settlement/").content.decode()
    assert f'data-transaction="{paid.pk}"' in html  # the payment stays tied to its evening, and shows
    assert "Ben → Cleo $0.60" in text_of(html, "evening-payments")
    assert "Ben owes" not in html
    assert text_of(html, "owed-back") == (
        "Cleo owes Ben $0.30 back record the refund Cleo passes $0.25 on to Dan record"
    )
    queries = record_link_queries(html)
    # Ann's transfer to Dan is left; nothing is asked of Ben, who has paid more than he lost
    assert [q.split("&cents")[0] for q in queries] == [
        f"from={ann.pk}&to={dan.pk}",
        f"from={cleo.pk}&to={ben.pk}",
        f"from={cleo.pk}&to={dan.pk}",
    ]
    assert f"cents=30&currency=USD&session={session.pk}" in queries[1]
    refund = client.get(f"/clubs/{club.pk}/books/?{queries[1]}").content.decode()
    fields = dict(re.findall(r'<input type="hidden" name="(key|session)" value="([^"]*)"', refund))
    done = client.post(
        f"/clubs/{club.pk}/books/",
        {"action": "pay", "from": cleo.pk, "to": ben.pk, "currency": "USD", "status": "paid", "amount": "0.30"}
        | fields,
    )
    assert done.status_code == 302, unescape(done.content.decode())
    html = client.get(f"/sessions/{session.pk}/settlement/").content.decode()
    assert text_of(html, "owed-back") == "Cleo passes $0.25 on to Dan record"


def test_a_write_off_is_said_and_an_overpayment_shown_whole(
    client_for: Any, admin: Any, treasurer: Any, club: Any, players: list[Player]
) -> None:
    ann, ben, cleo, dan = players
    session = closed_with_money(admin, club, players)  # Ann -> Cleo 30, Ben -> Cleo 60, Ben -> Dan 55
    pay(treasurer, club, ben.pk, cleo.pk, 60, "written_off", session_id=session.pk)
    pay(treasurer, club, ann.pk, cleo.pk, 50, session_id=session.pk, overpay=True)
    pay(treasurer, club, ben.pk, dan.pk, 20, session_id=session.pk)
    pay(treasurer, club, ben.pk, dan.pk, 10, "written_off", session_id=session.pk)
    html = client_for(treasurer).get(f"/sessions/{session.pk}/settlement/").content.decode()
    marks = [unescape(m) for m in re.findall(r'class="paid-mark">([^<]*)<', html)]
    assert marks == ["$0.50 paid", "written off", "$0.20 paid, $0.10 written off"]
    said = text_of(html, "evening-paid")
    # a write-off settles but is no payment: Ben handed over $0.20 and $0.70 was written off for him
    assert "Ben: $0.20 of $1.15 paid, $0.70 written off" in said
    assert "Ann: $0.50 of $0.30" in said
    # settled: Ann 30 of 30, Ben 60 of 60 and 30 of 55 to Dan, so 120 of 145 (82 %)
    assert said.startswith("$0.70 of $1.45 paid and $0.70 written off (82% settled).")
    assert text_of(html, "owed-back").startswith("Cleo owes Ann $0.20 back")


# --- item 16: the statement's API CSV in the language asked, the books' CSV, links to the CSVs -------


def test_the_statement_csv_of_the_api_is_the_pages_in_the_language_asked(
    client_for: Any, admin: Any, treasurer: Any, club: Any, players: list[Player]
) -> None:
    closed_with_money(admin, club, players)
    ben = players[1]
    api = client_for(treasurer)  # the pages' login: the API answers it too
    french = api.get(f"/api/v1/players/{ben.pk}/statement/?format=csv", HTTP_ACCEPT_LANGUAGE="fr")
    page = client_for(treasurer).get(f"/players/{ben.pk}/statement.csv", HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 200 and french.content == page.content  # one writer, one file
    text = french.content.decode("utf-8")
    assert text.startswith("\ufeffMonnaie;Date;") and ";-1,15;" in text
    data = api.get(f"/api/v1/players/{ben.pk}/statement/?format=csv").content.decode("utf-8")
    assert data.startswith("date,transaction,kind,")  # a script naming no language: the data CSV, unchanged


def test_the_books_have_a_csv_and_the_pages_link_every_csv(
    client_for: Any, admin: Any, treasurer: Any, club: Any, players: list[Player]
) -> None:
    session = closed_with_money(admin, club, players)
    ann, _ben, cleo, _dan = players
    pay(treasurer, club, ann.pk, cleo.pk, 30, session_id=session.pk)
    client = client_for(treasurer)
    books = client.get(f"/clubs/{club.pk}/books/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f'id="books-csv" href="/clubs/{club.pk}/books.csv"' in books
    response = client.get(f"/clubs/{club.pk}/books.csv", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8")[1:]), delimiter=";"))
    assert rows[0][:6] == ["Валюта", "Дата", "Что", "От кого", "Кому", "Сумма"]
    paid = next(r for r in rows if r[3] == "Ann" and r[4] == "Cleo")
    assert (paid[0], paid[5], paid[6]) == ("USD", "0,30", str(session.pk))
    player = client.get(f"/players/{ann.pk}/").content.decode()
    assert f'href="/api/v1/players/{ann.pk}/stats/?format=csv"' in player
    assert f'href="/api/v1/players/{ann.pk}/ratings/?format=csv"' in player
    assert (
        f'href="/api/v1/clubs/{club.pk}/leaderboard/?format=csv"' in client.get(f"/clubs/{club.pk}/").content.decode()
    )


# --- item 19: statement dates after a re-close, tied payments name their evening, tonight's words ----


def test_statement_dates_run_forward_after_a_re_close_and_tied_payments_name_their_evening(
    client_for: Any, admin: Any, treasurer: Any, club: Any
) -> None:
    from ledger import followup
    from ledger.services.sessions import session_import
    from ledger.web import books as books_reads
    from tests.ledger_fixtures import example_sheet, fresh
    from tests.money.helpers import reopen

    played = session_import(
        actor=admin, club_id=club.pk, sheet=example_sheet("american-evening-defaults"), closed_at="2025-11-30T21:00:00Z"
    )
    followup.followup_run(session_id=played.pk)
    seats = [s.player for s in fresh(played).seats.order_by("seat")]
    money = fresh(played).closing["money"]
    debtor, creditor = seats[money.index(min(money))], seats[money.index(max(money))]
    from ledger.money import services as money_services

    money_services.payment_record(
        actor=treasurer,
        club_id=club.pk,
        payer=debtor.pk,
        payee=creditor.pk,
        currency=fresh(played).closing["currency"],
        cents=1,
        status="paid",
        session_id=played.pk,
        overpay=True,
    )
    run_followup(reopen(admin, played))
    run_followup(close(admin, played))
    statement = books_reads.statement(user=treasurer, player_id=debtor.pk)
    lines = statement.tables[0].lines
    kinds = [line.entry.transaction.kind for line in lines]
    assert kinds == ["close", "paid", "reversal", "close"]
    dates = [line.when for line in lines]
    assert dates == sorted(dates), dates  # in the order they were entered, the dates only move forward
    assert lines[-1].played is not None and lines[-1].played.date().isoformat() == "2025-11-30"
    client = client_for(treasurer)
    page = client.get(f"/players/{debtor.pk}/statement/").content.decode()
    assert "played 30 Nov 25" in unescape(page)
    assert f'for <a href="/sessions/{played.pk}/settlement/">session #{played.pk}</a>' in page
    books_page = client.get(f"/clubs/{club.pk}/books/").content.decode()
    assert f'for <a href="/sessions/{played.pk}/settlement/">session #{played.pk}</a>' in books_page


def test_the_overpayment_question_of_a_tied_payment_speaks_of_tonight(
    client_for: Any, admin: Any, treasurer: Any, club: Any, players: list[Player]
) -> None:
    session = closed_with_money(admin, club, players)  # Ann -> Cleo 0.30
    ann, _ben, cleo, _dan = players
    client = client_for(treasurer)
    page = client.get(f"/clubs/{club.pk}/books/?from={ann.pk}&to={cleo.pk}&cents=30&currency=USD&session={session.pk}")
    key = re.search(r'name="key" value="([^"]+)"', page.content.decode()).group(1)
    asked = client.post(
        f"/clubs/{club.pk}/books/",
        {"action": "pay", "from": ann.pk, "to": cleo.pk, "currency": "USD", "status": "paid", "amount": "0.50"}
        | {"session": session.pk, "key": key},
    )
    question = text_of(asked.content.decode(), "pay-confirm")
    assert "$0.30 is left to pay of this evening's transfer Ann → Cleo." in question
    assert "pays $0.20 more than tonight asks: Cleo will owe Ann $0.20 back for this evening" in question
    assert "balance goes from" not in question  # not the balances of every evening
