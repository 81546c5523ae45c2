"""Closing a session: the pools divided or carried, counters into money, and who pays whom.

`scoresheet.md`, "Closing". Money is exact: amounts are integers of the currency's minor unit, rounded
half to even, and the rounding is corrected by largest remainders so that the five parties (the four
seats and the pool) still add up to zero. Payments are the fewest transfers that square everyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_EVEN, Decimal
from itertools import combinations
from typing import Any

from .sheet import POOL, Close, Stake

MINOR_UNIT_EXPONENTS = {
    **dict.fromkeys(
        [
            "BIF",
            "CLP",
            "DJF",
            "GNF",
            "ISK",
            "JPY",
            "KMF",
            "KRW",
            "PYG",
            "RWF",
            "UGX",
            "UYI",
            "VND",
            "VUV",
            "XAF",
            "XOF",
            "XPF",
        ],
        0,
    ),
    **dict.fromkeys(["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"], 3),
    **dict.fromkeys(["CLF", "UYW"], 4),
}


def minor_unit_exponent(currency: str) -> int:
    return MINOR_UNIT_EXPONENTS.get(currency, 2)


def divide(pools: Sequence[int], how: Close, multi_pool: bool) -> tuple[list[int], list[int]]:
    """(division per seat, carried pools). `divide` shares the total of all pools, not pool by pool."""
    if how.pools == "carry":
        return [0, 0, 0, 0], list(pools)
    total = sum(pools)
    share, rest = divmod(total, 4)
    carried = [rest] if rest or not multi_pool else []
    return [share] * 4, carried


def to_money(amounts: Sequence[int], stake: Stake) -> list[int]:
    """Counters to minor units: half-even rounding, then the largest-remainder correction."""
    scale = stake.per_counter * (Decimal(10) ** minor_unit_exponent(stake.currency))
    exact = [Decimal(a) * scale for a in amounts]
    rounded = [int(x.to_integral_value(rounding=ROUND_HALF_EVEN)) for x in exact]
    off = sum(rounded)
    if off:
        remainders = [x - r for x, r in zip(exact, rounded, strict=True)]
        order = range(len(amounts))
        if off < 0:  # short: add a unit to the largest remainders, earlier party first on ties
            for i in sorted(order, key=lambda i: (-remainders[i], i))[:-off]:
                rounded[i] += 1
        else:  # over: take a unit from the smallest remainders
            for i in sorted(order, key=lambda i: (remainders[i], i))[:off]:
                rounded[i] -= 1
    return rounded


def _tree_flows(
    debtors: list[int], creditors: list[int], edges: tuple[tuple[int, int], ...], amount: dict[int, int]
) -> list[tuple[int, int, int]] | None:
    """The payments along a spanning tree of debtors and creditors, or None if one is not positive."""
    left = dict(amount)
    edges_left = list(edges)
    flows = []
    while edges_left:
        degree: dict[int, int] = {}
        for a, b in edges_left:
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
        leaf_edge = None
        for a, b in edges_left:
            if degree[a] == 1 or degree[b] == 1:
                leaf_edge = (a, b)
                break
        if leaf_edge is None:
            return None  # a cycle: not a tree
        a, b = leaf_edge  # a is the debtor, b the creditor
        leaf = a if degree[a] == 1 else b
        value = -left[a] if leaf == a else left[b]
        if value <= 0:
            return None
        flows.append((a, b, value))
        left[a] += value
        left[b] -= value
        edges_left.remove(leaf_edge)
    if any(left[p] for p in debtors + creditors):
        return None
    return flows


def _group_settlements(group: list[int], amount: dict[int, int]) -> list[list[tuple[int, int, int]]]:
    """Every way to settle one zero-sum group with len(group) - 1 transfers (a spanning tree)."""
    debtors = [p for p in group if amount[p] < 0]
    creditors = [p for p in group if amount[p] > 0]
    all_edges = [(d, c) for d in debtors for c in creditors]
    found = []
    for edges in combinations(all_edges, len(group) - 1):
        flows = _tree_flows(debtors, creditors, edges, amount)
        if flows is not None:
            found.append(flows)
    return found


def _zero_sum_partitions(parties: list[int], amount: dict[int, int]) -> list[list[list[int]]]:
    """Partitions of the parties into zero-sum groups, each group minimal (no zero-sum sub-group)."""
    if not parties:
        return [[]]
    first, rest = parties[0], parties[1:]
    out = []
    for size in range(len(rest) + 1):
        for others in combinations(rest, size):
            group = [first, *others]
            if sum(amount[p] for p in group):
                continue
            remaining = [p for p in rest if p not in others]
            for tail in _zero_sum_partitions(remaining, amount):
                out.append([group, *tail])
    return out


def fewest_payments(amounts: Sequence[int]) -> list[tuple[int, int, int]]:
    """The settlement with the fewest transfers; among those, the lexicographically smallest.

    Parties are indexed 0..n-1 (the pool last, as index 4). Each triple is (payer, payee, amount).
    Exact by enumeration: fine for the five parties of a table; the club ledger has its own search.
    """
    amount = dict(enumerate(amounts))
    parties = [p for p, a in amount.items() if a]
    if not parties:
        return []
    partitions = _zero_sum_partitions(parties, amount)
    most_groups = max(len(p) for p in partitions)
    best: list[tuple[int, int, int]] | None = None
    best_key: list[tuple[int, int, int]] | None = None
    for partition in partitions:
        if len(partition) != most_groups:
            continue
        choices: list[list[tuple[int, int, int]]] = [[]]
        for group in partition:
            options = _group_settlements(group, amount)
            choices = [c + o for c in choices for o in options]
        for choice in choices:
            key = sorted((payer, -value, payee) for payer, payee, value in choice)
            if best_key is None or key < best_key:
                best_key, best = key, choice
    assert best_key is not None and best is not None
    return [(payer, payee, -neg) for payer, neg, payee in best_key]


def close_session(
    balances: Sequence[int],
    pools: Sequence[int],
    carried_in: Sequence[int],
    how: Close,
    stake: Stake | None,
    multi_pool: bool,
) -> dict[str, Any]:
    division, carried = divide(pools, how, multi_pool)
    final = [b + d for b, d in zip(balances, division, strict=True)]
    result: dict[str, Any] = {"division": division, "carried": carried, "final": final}
    if stake is not None:
        pool_amount = sum(carried) - sum(carried_in)
        money = to_money([*final, pool_amount], stake)
        party = (0, 1, 2, 3, POOL)
        result["money"] = money[:4]
        result["pool_money"] = money[4]
        result["currency"] = stake.currency
        result["payments"] = [{"from": party[a], "to": party[b], "cents": n} for a, b, n in fewest_payments(money)]
    return result
