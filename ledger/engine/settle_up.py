"""Squaring a club's open money balances with the fewest transfers (the treasurer's "settle up").

Exact for up to `EXACT_LIMIT` players with open balances: the fewest transfers are n minus the largest
number of groups the balances split into that each add up to zero (a dynamic programme over subsets);
each group is then settled inside itself with one transfer fewer than its size. Beyond the limit the
search is too large, and a greedy settlement (largest debtor pays largest creditor) is used: it never
needs more than n - 1 transfers. Amounts are integer minor units; nothing is rounded.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

EXACT_LIMIT = 12
K = TypeVar("K", bound=Hashable)  # whoever holds a balance: an account id, a name


def _settle_group(balances: list[tuple[K, int]]) -> list[tuple[K, K, int]]:
    """Largest debtor pays largest creditor until everyone is square (at most len - 1 transfers)."""
    debtors = sorted(((-a, i, who) for i, (who, a) in enumerate(balances) if a < 0), reverse=True)
    creditors = sorted(((a, i, who) for i, (who, a) in enumerate(balances) if a > 0), reverse=True)
    transfers: list[tuple[K, K, int]] = []
    while debtors and creditors:
        owed, di, debtor = debtors[0]
        due, ci, creditor = creditors[0]
        amount = min(owed, due)
        transfers.append((debtor, creditor, amount))
        debtors = sorted([(owed - amount, di, debtor), *debtors[1:]], reverse=True) if owed > amount else debtors[1:]
        creditors = (
            sorted([(due - amount, ci, creditor), *creditors[1:]], reverse=True) if due > amount else creditors[1:]
        )
    return transfers


def zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """Indices of `amounts` (all non-zero, summing to 0) split into the most zero-sum groups."""
    n = len(amounts)
    full = (1 << n) - 1
    total = [0] * (1 << n)
    best = [0] * (1 << n)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        best[mask] = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1) + (total[mask] == 0)
    groups = []
    mask = full
    current: list[int] = []
    while mask:
        # Walk back one member at a time along a path that keeps the optimum; close a group at each zero.
        for i in range(n):
            if mask >> i & 1 and best[mask ^ (1 << i)] + (total[mask] == 0) == best[mask]:
                if total[mask] == 0 and current:
                    groups.append(current)
                    current = []
                current.append(i)
                mask ^= 1 << i
                break
    if current:
        groups.append(current)
    return groups


def settle_up(balances: Mapping[K, int]) -> list[tuple[K, K, int]]:
    """Transfers (payer, payee, amount) after which every balance is 0. The balances must sum to 0."""
    if sum(balances.values()) != 0:
        raise ValueError("open balances must add up to zero")
    open_ = [(who, amount) for who, amount in balances.items() if amount]
    if len(open_) > EXACT_LIMIT:
        return _settle_group(open_)
    groups = zero_sum_groups([amount for _, amount in open_])
    transfers: list[tuple[K, K, int]] = []
    for group in groups:
        transfers.extend(_settle_group([open_[i] for i in group]))
    return transfers


def evening_left(
    printed: Sequence[tuple[K, K, int]], paid: Sequence[tuple[K, K, int]]
) -> tuple[list[int], list[tuple[K, K, int]]]:
    """What is left of one evening's transfers once the payments tied to it are counted (issue 38).

    `printed` are the evening's transfers (payer, payee, amount) as its close prints them, `paid` the
    payments tied to the evening (payer, payee, amount; a refund is a payment the other way). Returns
    the amount left of each printed transfer, in their order, and the transfers that square what the
    payments moved beyond them (overpaid, or paid to another party after an amendment changed the
    transfers): first what a party holds of someone's money back to that someone ("owed back"), then
    the fewest transfers for the rest. A transfer's left is never more than its payer still owes
    tonight, so money already paid is never asked for again. After the lefts and the returned
    transfers every party of the evening is square: nothing lost, nothing made up, to the cent.
    """
    owed: dict[K, int] = defaultdict(int)  # what tonight still owes each party (below 0: what it owes)
    on_pair: dict[tuple[K, K], int] = defaultdict(int)
    for payer, payee, cents in printed:
        owed[payer] -= cents
        owed[payee] += cents
    for payer, payee, cents in paid:
        owed[payer] += cents
        owed[payee] -= cents
        on_pair[payer, payee] += cents
        on_pair[payee, payer] -= cents
    lefts: list[int] = []
    for payer, payee, cents in printed:
        used = max(min(on_pair[payer, payee], cents), 0)
        on_pair[payer, payee] -= used
        left = max(min(cents - used, -owed[payer]), 0)
        owed[payer] += left
        owed[payee] -= left
        lefts.append(left)
    back: dict[tuple[K, K], int] = {}
    for payer, payee, _cents in reversed(paid):  # the latest payment first: the money most recently handed over
        amount = min(owed[payer], -owed[payee])
        if amount > 0:
            back[payee, payer] = back.get((payee, payer), 0) + amount
            owed[payer] -= amount
            owed[payee] += amount
    for payer, payee, amount in settle_up({who: value for who, value in owed.items() if value}):
        back[payer, payee] = back.get((payer, payee), 0) + amount
    return lefts, [(payer, payee, amount) for (payer, payee), amount in back.items()]
