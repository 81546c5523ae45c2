"""The club's settle-up: always squares everyone, never more than n - 1 transfers, minimal when exact."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.engine.settle_up import EXACT_LIMIT, evening_left, settle_up
from tests.exhaustive import most_zero_groups


@st.composite
def balances(draw: st.DrawFn, max_players: int) -> dict[str, int]:
    amounts = draw(st.lists(st.integers(-5_000, 5_000), min_size=1, max_size=max_players - 1))
    amounts.append(-sum(amounts))
    return {f"p{i}": a for i, a in enumerate(amounts)}


def _check_squares(balance: dict[str, int], transfers: list[tuple[str, str, int]]) -> None:
    left = dict(balance)
    for payer, payee, amount in transfers:
        assert amount > 0 and balance[payer] < 0 < balance[payee]
        left[payer] += amount
        left[payee] -= amount
    assert all(v == 0 for v in left.values())


@settings(max_examples=200, deadline=None)
@given(balances(7))
def test_exactly_minimal_for_small_groups(balance: dict[str, int]) -> None:
    transfers = settle_up(balance)
    _check_squares(balance, transfers)
    amounts = tuple(a for a in balance.values() if a)
    assert len(transfers) == len(amounts) - most_zero_groups(amounts)


@settings(max_examples=100, deadline=None)
@given(balances(30))
def test_always_squares_with_at_most_n_minus_one_transfers(balance: dict[str, int]) -> None:
    transfers = settle_up(balance)
    _check_squares(balance, transfers)
    assert len(transfers) <= max(0, sum(1 for a in balance.values() if a) - 1)


def test_pairs_that_cancel_are_found_among_twelve() -> None:
    amounts = [-4, -6, 6, 4, -7, 7, -1, 1, -100, 50, 25, 25]
    assert len(amounts) == EXACT_LIMIT
    transfers = settle_up({i: a for i, a in enumerate(amounts)})
    assert len(transfers) == 4 + 3  # four pairs, then one group of four


def test_refuses_balances_that_do_not_add_up() -> None:
    with pytest.raises(ValueError, match="add up to zero"):
        settle_up({"a": 5, "b": -4})


# --- issue 38, item 14: an evening's transfers once the payments tied to it are counted -------------


def test_an_amended_evening_asks_nothing_already_paid_and_says_what_is_owed_back() -> None:
    """Ben paid Cleo 51.15 for the evening as first closed; amended, Ben lost 24.85 (10.00 to Cleo,
    14.85 to Dan): nothing is left for Ben to pay, Cleo owes Ben 26.30 back and passes 14.85 to Dan."""
    printed = [("Ben", "Dan", 1485), ("Ben", "Cleo", 1000)]
    lefts, back = evening_left(printed, [("Ben", "Cleo", 5115)])
    assert lefts == [0, 0]
    assert sorted(back) == [("Cleo", "Ben", 2630), ("Cleo", "Dan", 1485)]


def test_an_overpaid_transfer_is_owed_back_and_a_refund_squares_it() -> None:
    lefts, back = evening_left([("Ben", "Cleo", 340)], [("Ben", "Cleo", 500)])
    assert (lefts, back) == ([0], [("Cleo", "Ben", 160)])
    assert evening_left([("Ben", "Cleo", 340)], [("Ben", "Cleo", 500), ("Cleo", "Ben", 160)]) == ([0], [])
    assert evening_left([("Ben", "Cleo", 340)], [("Ben", "Cleo", 100)]) == ([240], [])


@given(
    st.lists(st.tuples(st.sampled_from("ABCDP"), st.sampled_from("ABCDP"), st.integers(1, 10**6)), max_size=5),
    st.lists(st.tuples(st.sampled_from("ABCDP"), st.sampled_from("ABCDP"), st.integers(1, 10**6)), max_size=6),
)
def test_after_what_is_left_and_what_is_owed_back_everyone_is_square(
    printed: list[tuple[str, str, int]], paid: list[tuple[str, str, int]]
) -> None:
    printed = [t for t in printed if t[0] != t[1]]
    paid = [t for t in paid if t[0] != t[1]]
    lefts, back = evening_left(printed, paid)
    position: dict[str, int] = {}
    for (payer, payee, cents), left in zip(printed, lefts, strict=True):
        assert 0 <= left <= cents
        position[payer] = position.get(payer, 0) - cents + left
        position[payee] = position.get(payee, 0) + cents - left
    for payer, payee, cents in [*paid, *back]:
        assert cents > 0
        position[payer] = position.get(payer, 0) + cents
        position[payee] = position.get(payee, 0) - cents
    assert all(v == 0 for v in position.values())
