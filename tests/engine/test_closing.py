"""Closing (scoresheet.md): division, money with half-even rounding and its correction, fewest payments."""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.engine.closing import close_session, divide, fewest_payments, minor_unit_exponent, to_money
from ledger.engine.sheet import Close, Stake


def test_divide_shares_the_total_of_all_pools() -> None:
    assert divide([15, 100, 5], Close("divide"), multi_pool=True) == ([30] * 4, [])
    assert divide([15, 100, 6], Close("divide"), multi_pool=True) == ([30] * 4, [1])
    assert divide([40], Close("divide"), multi_pool=False) == ([10] * 4, [0])
    assert divide([41], Close("carry"), multi_pool=False) == ([0] * 4, [41])


def test_half_cent_example_of_the_spec() -> None:
    assert to_money([1, 1, 1, -3, 0], Stake("USD", Decimal("0.005"))) == [1, 1, 0, -2, 0]


@pytest.mark.parametrize(("currency", "exponent"), [("USD", 2), ("JPY", 0), ("KWD", 3), ("CLF", 4), ("EUR", 2)])
def test_minor_units(currency: str, exponent: int) -> None:
    assert minor_unit_exponent(currency) == exponent


def test_yen_and_fils() -> None:
    assert to_money([3, -3, 0, 0, 0], Stake("JPY", Decimal("10"))) == [30, -30, 0, 0, 0]
    assert to_money([3, -3, 0, 0, 0], Stake("KWD", Decimal("0.25"))) == [750, -750, 0, 0, 0]


def test_over_by_rounding_takes_from_the_smallest_remainders() -> None:
    # exact [-0.5, -0.5, -0.5, 1.5]: half-even gives [0, 0, 0, 2], one over; remainders -0.5 x3, -0.5.
    assert to_money([-1, -1, -1, 3, 0], Stake("USD", Decimal("0.005"))) == [-1, -1, 0, 2, 0]


def test_greedy_is_not_minimal() -> None:
    assert fewest_payments([-4, -6, 6, 4, 0]) == [(0, 3, 4), (1, 2, 6)]


def test_lexicographically_smallest_among_the_fewest() -> None:
    # Three creditors, one debtor: only one way. Two debtors, two creditors that do not pair: pick the smallest.
    assert fewest_payments([-10, -5, 7, 8, 0]) == [(0, 3, 8), (0, 2, 2), (1, 2, 5)]


def test_close_with_stake_lists_payments_to_and_from_the_pool() -> None:
    result = close_session([-103, 192, -105, 10], [10], [], Close("divide"), Stake("USD", Decimal("0.01")), True)
    assert result["carried"] == [2] and result["pool_money"] == 2
    assert sum(result["money"]) + result["pool_money"] == 0
    assert result["payments"][-1] == {"from": 2, "to": "pool", "cents": 2}


def _minimum_transfers(amounts: list[int]) -> int:
    """Brute force: nonzero parties minus the most zero-sum groups they split into."""
    parties = [i for i, a in enumerate(amounts) if a]

    def most_groups(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = 0
        for size in range(len(others) + 1):
            for group in combinations(others, size):
                if amounts[first] + sum(amounts[p] for p in group) == 0:
                    left = tuple(p for p in others if p not in group)
                    best = max(best, 1 + most_groups(left))
        return best

    return len(parties) - most_groups(tuple(parties))


@st.composite
def five_parties(draw: st.DrawFn) -> list[int]:
    four = draw(st.lists(st.integers(-300, 300), min_size=4, max_size=4))
    return [*four, -sum(four)]


@settings(max_examples=300, deadline=None)
@given(five_parties())
def test_payments_square_everyone_with_the_fewest_transfers(amounts: list[int]) -> None:
    payments = fewest_payments(amounts)
    left = list(amounts)
    for payer, payee, value in payments:
        assert value > 0 and amounts[payer] < 0 < amounts[payee]
        left[payer] += value
        left[payee] -= value
    assert left == [0] * 5
    assert len(payments) == _minimum_transfers(amounts)
    assert len(payments) <= max(0, sum(1 for a in amounts if a) - 1)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(-10_000, 10_000), min_size=4, max_size=4),
    st.integers(-500, 500),
    st.sampled_from(["0.01", "0.005", "0.333333", "1", "2.5", "0.000001", "12.345678"]),
    st.sampled_from(["USD", "JPY", "KWD", "CLF"]),
)
def test_money_always_adds_up_to_zero_and_stays_within_a_unit(final, pool, per_counter, currency) -> None:
    amounts = [*final, pool]
    amounts[4] = -sum(final)
    stake = Stake(currency, Decimal(per_counter))
    money = to_money(amounts, stake)
    assert sum(money) == 0
    scale = Decimal(per_counter) * Decimal(10) ** minor_unit_exponent(currency)
    for amount, value in zip(amounts, money, strict=True):
        assert abs(Decimal(amount) * scale - value) < 2


def _exhaustive(amounts: list[int]) -> list[tuple[int, int, int]]:
    """Every settlement made of transfers that each square the payer or the payee, searched whole;
    every settlement with the fewest transfers is of that kind (a forest, settled leaf by leaf)."""
    found: list[tuple[int, list[tuple[int, int, int]]]] = []

    def walk(left: list[int], done: list[tuple[int, int, int]]) -> None:
        if not any(left):
            found.append((len(done), sorted(done)))
            return
        for d, owed in enumerate(left):
            for c, due in enumerate(left):
                if owed < 0 < due:
                    value = min(-owed, due)
                    nxt = list(left)
                    nxt[d] += value
                    nxt[c] -= value
                    walk(nxt, [*done, (d, -value, c)])

    walk(list(amounts), [])
    _, best = min(found)
    return [(p, q, -n) for p, n, q in best]


@settings(max_examples=400, deadline=None)
@given(five_parties())
def test_payments_are_the_lexicographically_smallest_of_the_fewest(amounts: list[int]) -> None:
    assert fewest_payments(amounts) == _exhaustive(amounts)


@pytest.mark.parametrize(
    "amounts", [[-4, -6, 6, 4, 0], [-5, -5, 5, 5, 0], [-10, 10, -10, 10, 0], [-3, -3, -3, 9, 0], [6, -1, -2, -3, 0]]
)
def test_payments_on_ties_and_several_groups(amounts: list[int]) -> None:
    assert fewest_payments(amounts) == _exhaustive(amounts)
