"""A night is paid once (issue 37, follow-up; docs/decisions.md, "Paid once"): once a payment is tied to
the night, a table of that night refuses its own (`SettledByNight`); once a table has a payment of its
own, the room's settlement leaves that table out, so a payment tied to the night never covers it again.
Both orders here; the race of two phones, on PostgreSQL, in test_night_paid_once_race.py."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from ledger.exceptions import InvalidRequest, SettledByNight
from ledger.models import Club, MoneyTransaction, Night, NightTable, Player, Seat, Session
from ledger.money import selectors as money_selectors
from ledger.money import services as money_services
from tests.money.helpers import assert_ledger_balanced, party_balances
from tests.money.test_nights import check_in_all, draw, night, nine, play_and_close

pytestmark = pytest.mark.django_db

__all__ = ["night", "nine"]  # fixtures of test_nights, used here by name


def played(treasurer: Any, night: Night, nine: list[Player], seed: int = 9) -> list[Session]:
    check_in_all(treasurer, night, nine)
    draw(treasurer, night, seed=seed)
    return play_and_close(treasurer, night)


def own_transfers(session: Session) -> list[tuple[Any, Any, int]]:
    state = money_selectors.evening_state(Session.objects.get(pk=session.pk))
    assert state is not None and state.printed
    return state.printed


def pay(actor: Any, club: Club, payer: Any, payee: Any, cents: int, **tied: Any) -> MoneyTransaction:
    return money_services.payment_record(
        actor=actor,
        club_id=club.pk,
        payer=payer,
        payee=payee,
        currency="USD",
        cents=cents,
        status="paid",
        client_key=uuid.uuid4(),
        **tied,
    )


def seated(session: Session) -> set[int]:
    return set(Seat.objects.filter(session=session).values_list("player_id", flat=True))


def test_once_the_night_is_paid_its_tables_refuse_their_own_payments(
    treasurer: Any, club: Club, night: Night, nine: list[Player]
) -> None:
    tables = played(treasurer, night, nine)
    room = money_selectors.night_settlement(night_id=night.pk)
    first = room.transfers[0]
    tx = pay(treasurer, club, first.payer, first.payee, first.cents, night_id=night.pk)
    for number, session in enumerate(tables, start=1):
        payer, payee, cents = own_transfers(session)[0]
        with pytest.raises(SettledByNight) as refused:
            pay(treasurer, club, payer, payee, cents, session_id=session.pk)
        said = refused.value
        assert said.code == "settled_by_night" and said.night.pk == night.pk
        assert said.message.startswith(f"table {number} is paid with the room of the night of {night.date}:")
        assert "would pay twice" in said.message and "session" in said.fields
        assert money_selectors.settled_by_night(session_id=session.pk) is not None
    assert not MoneyTransaction.objects.filter(for_session__in=tables).exists()
    # The room's payment reversed, nothing ties the night any more: a table is paid on its own again.
    money_services.payment_reverse(actor=treasurer, club_id=club.pk, transaction_id=tx.pk)
    payer, payee, cents = own_transfers(tables[0])[0]
    pay(treasurer, club, payer, payee, cents, session_id=tables[0].pk)
    assert_ledger_balanced(club.pk)


def test_a_table_paid_on_its_own_is_left_out_of_the_room_and_nobody_pays_twice(
    treasurer: Any, club: Club, night: Night, nine: list[Player]
) -> None:
    first, second = played(treasurer, night, nine)
    whole = money_selectors.night_settlement(night_id=night.pk)
    only_first = [t for t in whole.transfers if t.payer in seated(first) and t.payee in seated(first)]
    assert only_first  # (the draw's seed makes one: the refusal below is tested)
    payer, payee, cents = own_transfers(first)[0]
    pay(treasurer, club, payer, payee, cents, session_id=first.pk)

    room = money_selectors.night_settlement(night_id=night.pk)
    assert room.ready and room.alone == [first.pk]
    # The room's sums are the second table's alone: the first one's money is paid on its own page.
    money = Session.objects.get(pk=second.pk).closing["money"]
    by_seat = Seat.objects.filter(session=second).order_by("seat").values_list("player_id", flat=True)
    assert {p: a for p, _, a in room.totals if a} == {p: a for p, a in zip(by_seat, money, strict=True) if a}
    assert all(t.payer not in seated(first) and t.payee not in seated(first) for t in room.transfers)
    for t in only_first:  # a room transfer read before (the first table's players between them): refused
        with pytest.raises(InvalidRequest) as refused:
            pay(treasurer, club, t.payer, t.payee, t.cents, night_id=night.pk)
        assert "leaves out the tables paid on their own" in refused.value.fields["night"][0]
    # The room paid as it now stands, the first table goes on taking its own payments: all square, once.
    for t in room.transfers:
        pay(treasurer, club, t.payer, t.payee, t.cents, night_id=night.pk)
    assert money_selectors.settled_by_night(session_id=first.pk) is None
    assert money_selectors.settled_by_night(session_id=second.pk) is not None
    for payer, payee, cents in own_transfers(first)[1:]:
        pay(treasurer, club, payer, payee, cents, session_id=first.pk)
    with pytest.raises(SettledByNight):
        payer, payee, cents = own_transfers(second)[0]
        pay(treasurer, club, payer, payee, cents, session_id=second.pk)
    assert all(v == 0 for (cur, _), v in party_balances(club.pk).items() if cur == "USD")
    assert_ledger_balanced(club.pk)


def test_a_session_of_no_night_is_paid_as_before(treasurer: Any, club: Club, night: Night, nine: list[Player]) -> None:
    first, _second = played(treasurer, night, nine)
    t = money_selectors.night_settlement(night_id=night.pk).transfers[0]
    pay(treasurer, club, t.payer, t.payee, t.cents, night_id=night.pk)
    NightTable.objects.filter(session=first).delete()  # (as a session opened from the club page)
    assert money_selectors.settled_by_night(session_id=first.pk) is None
    payer, payee, cents = own_transfers(first)[0]
    pay(treasurer, club, payer, payee, cents, session_id=first.pk)
