"""Issue 38, items 14-15: the settlement after a reopen and an amendment keeps the payments tied to the
evening, asks nothing already paid and says what is owed back, with a link to record the refund; a
write-off is said as one, and an overpayment is shown as paid, not capped."""

from __future__ import annotations

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
    assert "Ben: $0.90 of $1.15" in text_of(html, "evening-paid")
    assert "Ann: $0.50 of $0.30" in text_of(html, "evening-paid")
    assert text_of(html, "owed-back").startswith("Cleo owes Ann $0.20 back")
