"""Issue 26: every evening's transfers can be paid as printed, whatever the balances of other evenings;
a payment beyond what is owed only when confirmed; the settlement's "paid" counts only the payments
tied to that evening; the same payment twice from the books form is caught."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.utils import translation

from ledger.exceptions import InvalidRequest
from ledger.i18n.refusals import ledger_text
from ledger.models import MoneyTransaction, Player, Session
from ledger.money import selectors as money_selectors
from ledger.money import services as money_services
from ledger.money.services import LikelyDuplicate, Overpayment
from ledger.services.hands import hand_amend
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, open_session, record_all
from tests.money.helpers import assert_ledger_balanced, close, party_balances, reopen, run_followup
from tests.money.test_ledger import pay

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_evenings(admin: Any, club: Any, players: list[Player], session: Session) -> tuple[Session, Session]:
    """Evening 1: Ann -30, Ben -115, Cleo +90, Dan +55. Evening 2, the seats turned: Cleo -30, Dan -115,
    Ann +90, Ben +55 (its transfers: Cleo -> Ann 30, Dan -> Ann 60, Dan -> Ben 55)."""
    ann, ben, cleo, dan = players
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))
    second = open_session(admin, club, [cleo, dan, ann, ben], stake={"currency": "USD", "per_counter": "0.01"})
    record_all(admin, second, AMERICAN_HANDS)
    run_followup(close(admin, second))
    return session, second


def test_each_transfer_of_an_evening_is_paid_as_printed_whatever_the_other_evenings(
    treasurer: Any, club: Any, players: list[Player], two_evenings: tuple[Session, Session]
) -> None:
    _ann, _ben, cleo, _dan = players
    first, second = two_evenings
    # Overall Cleo is owed 60 and Ann 60: netting would have Cleo pay nobody, yet tonight she lost 30 to Ann.
    assert party_balances(club.pk)[("USD", cleo.pk)] == 60
    plan = money_selectors.evening_paid(session=second)
    assert plan is not None and (plan.owed, plan.paid) == (145, 0)
    for t in plan.transfers:
        pay(treasurer, club, t.payer, t.payee, t.cents, session_id=second.pk)
    done = money_selectors.evening_paid(session=second)
    assert done is not None and (done.owed, done.paid, done.percent) == (145, 145, 100)
    assert all(t.left == 0 for t in done.transfers)
    first_paid = money_selectors.evening_paid(session=first)
    assert first_paid is not None and first_paid.paid == 0  # another evening's payments never count here
    assert party_balances(club.pk)[("USD", cleo.pk)] == 90  # she paid 30 she owed tonight
    assert_ledger_balanced(club.pk)


def test_partial_and_written_off_square_a_transfer_and_a_reversal_opens_it_again(
    treasurer: Any, club: Any, players: list[Player], two_evenings: tuple[Session, Session]
) -> None:
    _ann, ben, cleo, _dan = players
    first, _ = two_evenings
    pay(treasurer, club, ben.pk, cleo.pk, 20, "partly_paid", session_id=first.pk)
    off = pay(treasurer, club, ben.pk, cleo.pk, 40, "written_off", session_id=first.pk)
    line = next(
        t for t in money_selectors.evening_paid(session=first).transfers if t.payee == cleo.pk and t.payer == ben.pk
    )
    assert (line.cents, line.paid, line.left) == (60, 60, 0)
    money_services.payment_reverse(actor=treasurer, club_id=club.pk, transaction_id=off.pk)
    line = next(
        t for t in money_selectors.evening_paid(session=first).transfers if t.payee == cleo.pk and t.payer == ben.pk
    )
    assert (line.paid, line.left) == (20, 40)
    assert MoneyTransaction.objects.get(pk=off.pk).for_session_id == first.pk


def test_beyond_the_transfer_is_refused_with_both_balances_until_confirmed(
    treasurer: Any, club: Any, players: list[Player], two_evenings: tuple[Session, Session]
) -> None:
    ann, _ben, cleo, _dan = players
    first, _ = two_evenings
    with pytest.raises(Overpayment) as refused:
        pay(treasurer, club, ann.pk, cleo.pk, 50, session_id=first.pk)  # the transfer is 30
    exc = refused.value
    assert (exc.owed, exc.cents, exc.payer_balance, exc.payee_balance) == (30, 50, 60, 60)
    assert "0.30 USD" in exc.message and "from +0.60 USD to +1.10 USD" in exc.message
    assert "minor units" not in exc.message and exc.fields == {"cents": [exc.message]}
    tx = pay(treasurer, club, ann.pk, cleo.pk, 50, session_id=first.pk, overpay=True)
    assert tx.for_session_id == first.pk
    line = money_selectors.evening_paid(session=first).transfers[0]
    assert (line.payer, line.payee, line.paid, line.left) == (ann.pk, cleo.pk, 50, 0)
    assert money_selectors.evening_paid(session=first).paid == 30
    with pytest.raises(Overpayment):  # the transfer is paid: one more cent is beyond it
        pay(treasurer, club, ann.pk, cleo.pk, 1, session_id=first.pk)


def test_a_free_payment_beyond_the_open_balances_needs_the_confirmation(
    treasurer: Any, club: Any, players: list[Player], two_evenings: tuple[Session, Session]
) -> None:
    ann, ben, cleo, _dan = players
    with pytest.raises(Overpayment) as refused:
        pay(treasurer, club, cleo.pk, ann.pk, 1)  # Cleo owes nothing overall
    assert refused.value.owed == 0
    pay(treasurer, club, cleo.pk, ann.pk, 1, overpay=True)
    pay(treasurer, club, ben.pk, cleo.pk, 60)  # Ben owes 60 overall, Cleo is owed 61: no question
    assert_ledger_balanced(club.pk)


def test_a_payment_tied_to_a_transfer_the_evening_does_not_print_is_refused(
    treasurer: Any, club: Any, players: list[Player], two_evenings: tuple[Session, Session]
) -> None:
    ann, _ben, cleo, _dan = players
    first, _ = two_evenings
    for payer, payee, currency, field in [
        (cleo.pk, ann.pk, "USD", "session"),  # the other way round
        (ann.pk, cleo.pk, "EUR", "currency"),
    ]:
        with pytest.raises(InvalidRequest) as refused:
            pay(treasurer, club, payer, payee, 10, session_id=first.pk, currency=currency)
        assert list(refused.value.fields) == [field]
    with pytest.raises(InvalidRequest) as refused:
        pay(treasurer, club, ann.pk, cleo.pk, 10, session_id=first.pk + 100)
    assert list(refused.value.fields) == ["session"]


def test_the_same_payment_again_within_minutes_is_asked_and_a_key_records_once(
    treasurer: Any, club: Any, players: list[Player], two_evenings: tuple[Session, Session]
) -> None:
    _ann, ben, _cleo, dan = players
    first, _ = two_evenings
    key = uuid.uuid4()
    tx = pay(treasurer, club, ben.pk, dan.pk, 20, session_id=first.pk, duplicate_ok=False, client_key=key)
    again = pay(treasurer, club, ben.pk, dan.pk, 20, session_id=first.pk, duplicate_ok=False, client_key=key)
    assert again.pk == tx.pk  # the same form posted twice: one payment
    with pytest.raises(LikelyDuplicate) as refused:  # another tab, another key: asked first
        pay(treasurer, club, ben.pk, dan.pk, 20, session_id=first.pk, duplicate_ok=False, client_key=uuid.uuid4())
    assert refused.value.earlier.pk == tx.pk
    pay(treasurer, club, ben.pk, dan.pk, 20, session_id=first.pk, duplicate_ok=True, client_key=uuid.uuid4())
    pay(treasurer, club, ben.pk, dan.pk, 15, session_id=first.pk, duplicate_ok=False)  # another amount: no question
    assert MoneyTransaction.objects.filter(for_session=first).count() == 3


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "an amount above €10,000,000,000,000.00 cannot be stored"),
        ("ru", "сумму больше 10\u00a0000\u00a0000\u00a0000\u00a0000,00\u00a0€ нельзя сохранить"),
    ],
)
def test_an_amount_too_large_to_store_is_said_in_money(
    club: Any, players: list[Player], language: str, said: str
) -> None:
    """Issue 26: «4092 минимальных единиц» — a refusal never counts in minor units, it names the money."""
    ann, ben, *_ = players
    accounts = money_services._accounts(club.pk, [ann.pk, ben.pk], pool=False)
    with translation.override(language), pytest.raises(InvalidRequest) as refused:
        money_services._post(
            club_id=club.pk,
            kind="payment",
            currency="EUR",
            amounts={accounts[ann.pk].pk: 10**15 + 1, accounts[ben.pk].pk: -(10**15) - 1},
        )
    with translation.override(language):
        assert ledger_text(refused.value.fields["cents"][0]) == said
    assert not MoneyTransaction.objects.exists()


# --- issue 38, items 14 and 15 ---------------------------------------------------------------------


def amended(admin: Any, session: Session) -> Session:
    """Reopen the evening and amend deal 1 (Cleo's seven made, not Ben's failed): the money goes from
    Ann -30, Ben -115, Cleo +90, Dan +55 to Ann -30, Ben -30, Cleo +5, Dan +55 (transfers Ann -> Dan
    30, Ben -> Dan 25, Ben -> Cleo 5)."""
    run_followup(reopen(admin, session))
    hand_amend(
        actor=admin,
        session_id=session.pk,
        number=1,
        hand={"bid": "seven", "bidder": 2, "trump": "clubs", "tricks": [3, 3, 6, 1]},
        expected_version=fresh(session).version,
    )
    run_followup(close(admin, session))
    return fresh(session)


def test_after_reopen_and_amend_a_tied_payment_stays_and_the_overpaid_is_owed_back(
    admin: Any, treasurer: Any, club: Any, players: list[Player], session: Session
) -> None:
    """Ben paid Cleo 0.60 as first printed; amended, he lost 0.30 (0.25 to Dan, 0.05 to Cleo): nothing
    is asked of him again, Cleo owes him 0.30 back and passes 0.25 on to Dan, and each is recordable."""
    ann, ben, cleo, dan = players
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))
    paid = pay(treasurer, club, ben.pk, cleo.pk, 60, session_id=session.pk)
    session = amended(admin, session)
    plan = money_selectors.evening_paid(session=session)
    assert plan is not None
    assert [t.tx.pk for t in plan.tied] == [paid.pk]  # still tied to its evening, and shown
    lines = {(t.payer, t.payee): (t.cents, t.paid, t.left) for t in plan.transfers}
    assert lines == {(ann.pk, dan.pk): (30, 0, 30), (ben.pk, dan.pk): (25, 0, 0), (ben.pk, cleo.pk): (5, 60, 0)}
    back = {(t.payer, t.payee): (t.cents, t.refund) for t in plan.back}
    assert back == {(cleo.pk, ben.pk): (30, True), (cleo.pk, dan.pk): (25, False)}
    assert (plan.owed, plan.paid, plan.percent, plan.paid_in) == (60, 30, 50, 60)
    with pytest.raises(Overpayment):  # Ben has paid: a payment to Dan for tonight is beyond what he owes
        pay(treasurer, club, ben.pk, dan.pk, 25, session_id=session.pk)
    pay(treasurer, club, cleo.pk, ben.pk, 30, session_id=session.pk)  # the refund, tied to the evening
    pay(treasurer, club, cleo.pk, dan.pk, 25, session_id=session.pk)
    pay(treasurer, club, ann.pk, dan.pk, 30, session_id=session.pk)
    done = money_selectors.evening_paid(session=session)
    assert done is not None and done.back == [] and all(t.left == 0 for t in done.transfers)
    assert done.percent == 100
    assert_ledger_balanced(club.pk)
