"""Reversing a payment (`money.services.payment_reverse`): its exact opposite beside it, once, by a
treasurer; the debt is open again and the statement shows both lines. And what an evening has paid."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from ledger.display import describe
from ledger.exceptions import InvalidRequest, NotFound, PermissionDenied
from ledger.models import MoneyTransaction, Player, Role, Session
from ledger.money import selectors as money_selectors
from ledger.money import services as money_services
from ledger.money.selectors import evening_paid
from tests.ledger_fixtures import AMERICAN_HANDS, member, record_all
from tests.money.helpers import assert_ledger_balanced, close, party_balances, run_followup
from tests.money.test_ledger import pay

pytestmark = pytest.mark.django_db


def test_a_reversed_payment_opens_the_debt_again_and_stays_in_the_history(
    admin: Any, treasurer: Any, club: Any, players: list[Player], session: Session, other_admin: Any
) -> None:
    ann, _ben, cleo, _dan = players
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))  # [-30, -115, 90, 55]
    before = party_balances(club.pk)
    tx = pay(treasurer, club, ann.pk, cleo.pk, 30)
    assert ("USD", ann.pk) not in party_balances(club.pk)

    scorer = member(club, admin, "scorer-2", Role.SCORER)
    with pytest.raises(PermissionDenied):
        money_services.payment_reverse(actor=scorer, club_id=club.pk, transaction_id=tx.pk)
    with pytest.raises(NotFound):
        money_services.payment_reverse(actor=other_admin, club_id=club.pk, transaction_id=tx.pk)
    close_tx = MoneyTransaction.objects.get(kind="close")
    with pytest.raises(NotFound):  # a close is undone by reopening the session, not here
        money_services.payment_reverse(actor=treasurer, club_id=club.pk, transaction_id=close_tx.pk)

    reversal = money_services.payment_reverse(
        actor=treasurer, club_id=club.pk, transaction_id=tx.pk, note=" recorded twice\n"
    )
    assert (reversal.kind, reversal.reverses_id, reversal.note, reversal.created_by) == (
        "reversal",
        tx.pk,
        "recorded twice",
        treasurer,
    )
    assert (reversal.session_id, reversal.close_version) == (None, None)
    assert party_balances(club.pk) == before
    with pytest.raises(InvalidRequest) as caught:
        money_services.payment_reverse(actor=treasurer, club_id=club.pk, transaction_id=tx.pk)
    assert "transaction" in caught.value.fields
    assert_ledger_balanced()

    lines = [
        (e.transaction.kind, e.amount, e.balance, describe(e))  # type: ignore[attr-defined]
        for e in money_selectors.statement_entries(player=ann)
    ]
    assert lines == [
        ("close", -30, -30, f"session {session.pk} closed (lost)"),
        ("paid", 30, 0, "paid to Cleo"),
        ("reversal", -30, -30, f"payment {tx.pk} reversed"),
    ]
    pay(treasurer, club, ann.pk, cleo.pk, 30)  # the debt can be paid again


def test_the_money_ledger_stays_append_only_after_the_migration(
    admin: Any, treasurer: Any, club: Any, players: list[Player], session: Session
) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))
    with pytest.raises(Exception, match="append-only"), connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_moneytransaction SET note = 'x'")


def test_how_much_of_an_evening_is_paid(
    admin: Any, treasurer: Any, club: Any, players: list[Player], session: Session
) -> None:
    ann, ben, cleo, dan = players
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))  # Ann owes 30, Ben 115: 145 in all
    paid = evening_paid(session=session)
    assert paid is not None
    assert (paid.currency, paid.owed, paid.paid, paid.percent) == ("USD", 145, 0, 0)
    # Tonight's transfers: Ann -> Cleo 30, Ben -> Cleo 60, Ben -> Dan 55. Only payments tied to them count.
    pay(treasurer, club, ben.pk, cleo.pk, 40, "partly_paid", session_id=session.pk)
    tx = pay(treasurer, club, ann.pk, cleo.pk, 30, session_id=session.pk)
    pay(treasurer, club, ben.pk, dan.pk, 55)  # free: squares the books, not tonight's settlement
    paid = evening_paid(session=session)
    assert (paid.owed, paid.paid, paid.percent) == (145, 70, 48)
    assert [(d.name, d.owed, d.paid) for d in paid.debtors] == [("Ann", 30, 30), ("Ben", 115, 40)]
    assert [(t.payer_name, t.payee_name, t.cents, t.paid, t.left) for t in paid.transfers] == [
        ("Ann", "Cleo", 30, 30, 0),
        ("Ben", "Cleo", 60, 40, 20),
        ("Ben", "Dan", 55, 0, 55),
    ]
    money_services.payment_reverse(actor=treasurer, club_id=club.pk, transaction_id=tx.pk)
    assert evening_paid(session=session).paid == 40
