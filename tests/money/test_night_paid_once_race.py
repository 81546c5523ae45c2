"""Two phones at once, one paying the room's transfer, the other the same table's own (a night is paid
once, docs/decisions.md "Paid once"): exactly one is recorded, whichever comes first, even when the two
payments touch four different accounts (so no account lock orders them: the club's chain head does).
Needs PostgreSQL (two connections writing at once), as tests/api/test_concurrency.py: skipped on
SQLite with its reason."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from ledger.exceptions import InvalidRequest, SettledByNight
from ledger.models import Club, MoneyTransaction, Night, Player
from ledger.money import selectors as money_selectors
from tests.api import test_concurrency
from tests.api.test_concurrency import race
from tests.money.helpers import assert_ledger_balanced
from tests.money.test_night_paid_once import own_transfers, pay, played, seated
from tests.money.test_nights import night, nine

pytestmark = test_concurrency.pytestmark  # PostgreSQL only, said as there

__all__ = ["night", "nine"]  # fixtures of test_nights, used here by name


def outcome(call: Any) -> Any:
    try:
        return call()
    except (SettledByNight, InvalidRequest) as refused:
        return refused


@pytest.mark.parametrize("attempt", range(4))
def test_the_room_and_a_table_paid_at_once_only_one_is_recorded(
    treasurer: Any, admin: Any, club: Club, night: Night, nine: list[Player], attempt: int
) -> None:
    first, _second = played(treasurer, night, nine)
    room = money_selectors.night_settlement(night_id=night.pk)
    at_first = seated(first)
    # A room transfer between the first table's players and one of the table's own between two others:
    # four accounts, so no account lock orders the two payments (the seed makes such a pair).
    t, (payer, payee, cents) = next(
        (t, own)
        for t in room.transfers
        if t.payer in at_first and t.payee in at_first
        for own in own_transfers(first)
        if not {own[0], own[1]} & {t.payer, t.payee}
    )
    calls: list[Callable[[], Any]] = [
        partial(outcome, partial(pay, treasurer, club, t.payer, t.payee, t.cents, night_id=night.pk)),
        partial(outcome, partial(pay, admin, club, payer, payee, cents, session_id=first.pk)),
    ]
    if attempt % 2:
        calls.reverse()
    results = race(calls)
    recorded = [r for r in results if isinstance(r, MoneyTransaction)]
    refused = [r for r in results if not isinstance(r, MoneyTransaction)]
    assert len(recorded) == 1 and len(refused) == 1, results
    if recorded[0].for_night_id:  # the room first: the table is told which night pays it
        assert isinstance(refused[0], SettledByNight) and refused[0].night.pk == night.pk
    else:  # the table first: the room leaves it out, its transfer between the table's players is gone
        assert "night" in refused[0].fields
    assert MoneyTransaction.objects.filter(kind="paid").count() == 1
    assert_ledger_balanced(club.pk)
