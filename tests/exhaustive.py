"""Brute-force references the tests check the settlement maths against (pure Python, no Django)."""

from __future__ import annotations

from itertools import combinations


def most_zero_groups(amounts: tuple[int, ...]) -> int:
    """The largest number of groups the amounts split into that each add up to zero: the fewest
    transfers that square n parties are n minus this (exhaustive over subsets)."""
    if not amounts:
        return 0
    first, rest = amounts[0], amounts[1:]
    best = 0
    for size in range(len(rest) + 1):
        for picked in combinations(range(len(rest)), size):
            if first + sum(rest[i] for i in picked) == 0:
                left = tuple(a for i, a in enumerate(rest) if i not in picked)
                best = max(best, 1 + most_zero_groups(left))
    return best
