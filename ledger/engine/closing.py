"""Closing a session: the pools divided or carried, counters into money, and who pays whom.

`scoresheet.md`, "Closing". Money is exact: amounts are integers of the currency's minor unit, rounded
half to even, and the rounding is corrected by largest remainders so that the five parties (the four
seats and the pool) still add up to zero. Payments are the fewest transfers that square everyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from operator import add
from typing import Any

from .seats import POOL
from .sheet import Close, Stake
from .stints import Stint

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


def divide(
    pools: Sequence[int], how: Close, multi_pool: bool, forfeits: frozenset[int] = frozenset()
) -> tuple[list[int], list[int]]:
    """(division per seat, carried pools). `divide` shares the total of all pools, not pool by pool;
    the seats in `forfeits` (Russian `misdeal_forfeits_share`, rules.md §0.11) get no share."""
    if how.pools == "carry":
        return [0, 0, 0, 0], list(pools)
    total = sum(pools)
    sharing = [seat for seat in range(4) if seat not in forfeits] or [0, 1, 2, 3]
    share, rest = divmod(total, len(sharing))
    carried = [rest] if rest or not multi_pool else []
    return [share if seat in sharing else 0 for seat in range(4)], carried


def to_money(amounts: Sequence[int], stake: Stake) -> list[int]:
    """Counters to minor units: half-even rounding, then the largest-remainder correction.

    Exact integer arithmetic: `per_counter` has at most six decimals, so each amount in minor units
    is numerator / 10**6 with an integer numerator (Decimal did the same, several times slower).
    """
    per_million = int(stake.per_counter * _MILLION)  # exact: at most six decimals
    scale = per_million * 10 ** minor_unit_exponent(stake.currency)
    unit, fraction = divmod(scale, _MILLION)
    if not fraction and not sum(amounts):
        # A whole number of minor units a counter (a cent, the usual stake): nothing is rounded, so
        # there is nothing to correct.
        return [a * unit for a in amounts]
    exact = [a * scale for a in amounts]  # in millionths of a minor unit
    rounded = [_half_even(x) for x in exact]
    off = sum(rounded)
    if off:
        remainders = [x - r * _MILLION for x, r in zip(exact, rounded, strict=True)]
        order = range(len(amounts))
        if off < 0:  # short: add a unit to the largest remainders, earlier party first on ties
            for i in sorted(order, key=lambda i: (-remainders[i], i))[:-off]:
                rounded[i] += 1
        else:  # over: take a unit from the smallest remainders
            for i in sorted(order, key=lambda i: (remainders[i], i))[:off]:
                rounded[i] -= 1
    return rounded


_MILLION = 1_000_000


def _half_even(millionths: int) -> int:
    """millionths / 10**6 rounded half to even (floor division keeps it right for negatives too)."""
    whole, rest = divmod(millionths, _MILLION)
    if 2 * rest > _MILLION or (2 * rest == _MILLION and whole & 1):
        return whole + 1
    return whole


# A transfer while the settlement is searched: (payer, -amount, payee), so that comparing two
# transfers, or two sorted lists of them, follows the order of `scoresheet.md` (by payer, then the
# largest amount, then payee).
Ranked = tuple[int, int, int]


def _zero_sum_partitions(parties: list[int], amounts: Sequence[int]) -> list[list[list[int]]]:
    """Every partition of the parties into groups that each add up to zero (groups in party order)."""
    if not parties:
        return [[]]
    first, rest = parties[0], parties[1:]
    out = []
    for size in range(len(rest) + 1):
        for others in combinations(rest, size):
            group = [first, *others]
            if sum(amounts[p] for p in group):
                continue
            remaining = [p for p in rest if p not in others]
            for tail in _zero_sum_partitions(remaining, amounts):
                out.append([group, *tail])
    return out


def _settle_group(group: Sequence[int], amounts: Sequence[int]) -> list[Ranked]:
    """The lexicographically smallest settlement of one group (in party order) that has no smaller
    zero-sum group, sorted.

    Every settlement's smallest triple is paid by the lowest debtor, and the largest he can pay in one
    transfer is min(his debt, a creditor's due): such a transfer squares one of the two, so it is a
    leaf of some settlement with one transfer fewer than the group's size, and what remains is again
    a group with no zero-sum part. Taking that triple first and repeating gives the smallest list
    (a fixed triple merged into two sorted lists keeps their order). Tests hold it against an
    exhaustive search.

    A debtor stays the lowest until he is square and a creditor never becomes a debtor, so the
    debtors pay in party order, each until square. Each of his transfers is at most the one before
    (unless it squares him, it paid the largest due), and an equal one goes to a later creditor (the
    lowest of the largest dues went first): the triples come out sorted.
    """
    left = list(amounts)
    creditors = [p for p in group if left[p] > 0]
    triples: list[Ranked] = []
    for payer in group:
        owed = -left[payer]
        while owed > 0:
            value, payee = 0, -1
            for p in creditors:  # the creditor he can pay most in one transfer; the lowest on a tie
                due = left[p]
                if due >= owed:  # his whole debt: no later creditor does better
                    value, payee = owed, p
                    break
                if due > value:
                    value, payee = due, p
            if payee < 0:
                raise ValueError("the amounts do not add up to zero")
            triples.append((payer, -value, payee))
            left[payee] -= value
            owed -= value
    return triples


def _has_cancelling_pair(amounts: Sequence[int]) -> bool:
    """Whether two parties cancel out: some amount's negative is another party's amount."""
    seen = set()
    for amount in amounts:
        if amount:
            if -amount in seen:
                return True
            seen.add(amount)
    return False


def _fewest(amounts: Sequence[int]) -> list[Ranked]:
    """`fewest_payments` as (payer, -amount, payee) triples, sorted."""
    if len(amounts) <= 5 and not _has_cancelling_pair(amounts):
        # With at most five parties a proper zero-sum group exists only if two parties cancel out
        # (a group of three or four has a complement of one or two): otherwise everyone is one
        # group, the usual case, and the search over partitions is not needed. A party at zero
        # neither pays nor is paid, so the group can be every party.
        return _settle_group(range(len(amounts)), amounts)
    parties = [p for p, a in enumerate(amounts) if a]
    if not parties:
        return []
    partitions = _zero_sum_partitions(parties, amounts)
    most_groups = max(len(p) for p in partitions)
    best: list[Ranked] | None = None
    for partition in partitions:
        if len(partition) == most_groups:
            triples = sorted(t for group in partition for t in _settle_group(group, amounts))
            if best is None or triples < best:
                best = triples
    assert best is not None
    return best


def fewest_payments(amounts: Sequence[int]) -> list[tuple[int, int, int]]:
    """The settlement with the fewest transfers; among those, the lexicographically smallest.

    Parties are indexed 0..n-1 (the pool last, as index 4). Returns (payer, payee, amount) triples in
    the order of `scoresheet.md`: by payer, then the largest amount, then payee. The fewest transfers
    split the parties into the most zero-sum groups; each group is settled inside itself.
    """
    return [(payer, payee, -neg) for payer, neg, payee in _fewest(amounts)]


PARTIES = (0, 1, 2, 3, POOL)


def close_session(
    balances: Sequence[int],
    pools: Sequence[int],
    carried_in: Sequence[int],
    how: Close,
    stake: Stake | None,
    multi_pool: bool,
    forfeits: frozenset[int] = frozenset(),
) -> dict[str, Any]:
    division, carried = divide(pools, how, multi_pool, forfeits)
    final = list(map(add, balances, division))
    result: dict[str, Any] = {"division": division, "carried": carried, "final": final}
    if stake is not None:
        _money(result, final, sum(carried) - sum(carried_in), stake, PARTIES)
    return result


def _money(result: dict[str, Any], finals: list[int], pool: int, stake: Stake, parties: Sequence[Any]) -> list[int]:
    """The close's money of these parties' counters and the pool's, and its fewest payments (`parties`
    names each party, the pool last, in the payments)."""
    money = to_money([*finals, pool], stake)
    result["money"] = money[:-1]
    result["pool_money"] = money[-1]
    result["currency"] = stake.currency
    result["payments"] = [
        {"from": parties[payer], "to": parties[payee], "cents": -neg} for payer, neg, payee in _fewest(money)
    ]
    return money


def close_stints(
    all_stints: Sequence[Stint],
    counters: Sequence[int],
    owners: Sequence[int],
    forfeiting: frozenset[int],
    balances: Sequence[int],
    pools: Sequence[int],
    carried_in: Sequence[int],
    how: Close,
    stake: Stake | None,
    multi_pool: bool,
) -> dict[str, Any]:
    """`close_session` for a sheet with substitutions (issue 37): the seats' division and `final` as
    always, and the money per stint (`stints`; `money` and the payments' parties are its indexes, the
    pool after them), so that a leaver and his substitute each pay and are paid their own.

    `counters` are each stint's counters before the division, `owners` the stint each seat's share goes
    to; a seat whose owner forfeited his share (`forfeiting`, Russian `misdeal_forfeits_share`) gets none."""
    forfeits = frozenset(seat for seat in range(4) if owners[seat] in forfeiting)
    division, carried = divide(pools, how, multi_pool, forfeits)
    final = list(map(add, balances, division))
    finals = list(counters)
    for seat, owner in enumerate(owners):
        finals[owner] += division[seat]
    rows = [
        {"seat": s.seat, "player": s.player, "from": s.first, "to": s.last, "final": f}
        for s, f in zip(all_stints, finals, strict=True)
    ]
    result: dict[str, Any] = {"division": division, "carried": carried, "final": final, "stints": rows}
    if stake is not None:
        money = _money(result, finals, sum(carried) - sum(carried_in), stake, [*range(len(rows)), POOL])
        for row, cents in zip(rows, money, strict=False):
            row["money"] = cents
    return result
