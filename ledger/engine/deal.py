"""One deal being settled: the movements a variant records, and their order (`rules.md` §0.9).

A variant's `settle_deal` says who pays whom with `Deal.pay` and its kin; `order_transfers` then puts
the deal's movements in the order of §0.9 and sums each party's flow, so that no variant orders or
sums anything itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from .cards import Adjustment, Hand
from .seats import PARTIES, POOL, Party, rank

REASONS = ("ante", "contract", "overtricks", "honours", "pool", "division", "jack", "penalty", "adjustment")
_SEAT_REASONS = frozenset({"contract", "overtricks", "honours", "penalty"})

# One transfer of a settled hand (`scoresheet.md`); `from` is a keyword, hence the functional form.
TransferJSON = TypedDict("TransferJSON", {"from": Party, "to": Party, "counters": int, "reason": str})

Movement = tuple[Party, Party, str]  # from, to, reason
# A movement's place in §0.9's order (its step, payer, payee and reason, as ranks: a seat is its own
# rank, the pool 4), then the movement itself: sorting places sorts the movements.
Place = tuple[int, int, int, int, Party, Party, str]


def place_of(frm: Party, to: Party, reason: str) -> Place | None:
    """A movement's place in the order of `rules.md` §0.9: its step (ante, seat-to-seat table payments,
    pool movements, the jack), then payer, payee and reason; None for a movement that fits no step."""
    if reason == "ante":
        step = 1
    elif reason == "jack":
        step = 4
    elif POOL in (frm, to):
        step = 3
    elif reason in _SEAT_REASONS:
        step = 2
    else:
        return None
    return step, rank(frm), rank(to), REASONS.index(reason), frm, to, reason


# Every movement's place, worked out once (one tuple per movement, shared by every deal), filed by
# reason, payer and payee: a payment looks its place up with no tuple to build and hash (about 3 % of
# settle()'s time, American; bench/README.md).
PLACE: dict[str, dict[Party, dict[Party, Place]]] = {}
for _frm in PARTIES:
    for _to in PARTIES:
        for _reason in REASONS[:-1]:
            if _frm != _to and (_place := place_of(_frm, _to, _reason)) is not None:
                PLACE.setdefault(_reason, {}).setdefault(_frm, {})[_to] = _place


def split_joint(amount: int) -> tuple[int, int]:
    """G-3: the caller pays ceil(A/2), the partner floor(A/2)."""
    return amount - amount // 2, amount // 2


@dataclass(slots=True)
class Deal:
    """The working state of one deal: the variant records movements here, `order_transfers` orders them.

    A payment only notes its place and amount; the order and the flows are worked out once, at the end
    (keeping the payments in a dict by movement, and the flows in a dict by party, cost 7 % more time:
    bench/README.md, "Instructions")."""

    number: int  # the deal of the game (a misdeal is a hand of the sheet but not a deal: rules.md §0.11)
    dealer: int
    double: bool
    hand: Hand
    options: Any
    pools: Any
    moves: list[tuple[Place, int]]  # each movement's place and counters
    forfeits: frozenset[int] = frozenset()  # seats with no share of a division (rules.md §0.11)

    def pay(self, frm: Party, to: Party, counters: int, reason: str) -> None:
        """Record one movement; movements with the same from, to and reason add up; a payment of 0 is
        not a transfer (§0.1)."""
        if counters:
            self.moves.append((PLACE[reason][frm][to], counters))

    def each_pays(self, payers: tuple[int, ...] | list[int], to: Party, counters: int, reason: str) -> None:
        """Each of `payers` pays `to` the same amount."""
        if counters:
            moves, places = self.moves, PLACE[reason]
            for seat in payers:
                moves.append((places[seat][to], counters))

    def pays_each(self, frm: Party, payees: tuple[int, ...] | list[int], counters: int, reason: str) -> None:
        """`frm` pays each of `payees` the same amount."""
        if counters:
            moves, places = self.moves, PLACE[reason][frm]
            for seat in payees:
                moves.append((places[seat], counters))

    def pay_shared(self, payers: tuple[int, ...] | list[int], to: Party, amount: int, reason: str) -> None:
        """`amount` paid by one payer, or by two in the shares of G-3 (the first pays the odd counter)."""
        if len(payers) == 1:
            self.pay(payers[0], to, amount, reason)
        else:
            first, second = payers
            first_share, second_share = split_joint(amount)
            self.pay(first, to, first_share, reason)
            self.pay(second, to, second_share, reason)

    def divide_pool(self, seats: list[int] | tuple[int, ...], reason: str) -> None:
        """Equal division (G-2): each gets floor(P/k); the remainder stays in the pool. A seat that forfeits
        its share (Russian `misdeal_forfeits_share`) gets none of a `division`; the others divide it."""
        if self.forfeits and reason == "division":
            seats = [seat for seat in seats if seat not in self.forfeits] or seats
        share = self.pools.total // len(seats)
        for seat in seats:
            self.pay(POOL, seat, share, reason)
        self.pools.withdraw(share * len(seats))


def order_transfers(
    moves: list[tuple[Place, int]], adjustments: tuple[Adjustment, ...]
) -> tuple[list[TransferJSON], list[int]]:
    """A deal's transfers in the order of §0.9, and what each seat and the pool gained (by rank).

    The movements sorted by place, those with the same from, to and reason summed (sorted, they are
    next to each other, and share one place tuple), then the adjustments summed by from and to, in
    the order listed (§0.8).
    """
    flow = [0, 0, 0, 0, 0]
    transfers: list[TransferJSON] = []
    moves.sort()
    last = None
    for place, counters in moves:
        _step, payer, payee, _reason, frm, to, reason = place
        flow[payer] -= counters
        flow[payee] += counters
        if place is last:
            transfers[-1]["counters"] += counters
        else:
            transfers.append({"from": frm, "to": to, "counters": counters, "reason": reason})
            last = place
    if adjustments:
        merged: dict[tuple[Party, Party], int] = {}
        for adj in adjustments:
            merged[adj.frm, adj.to] = merged.get((adj.frm, adj.to), 0) + adj.counters
        for (frm, to), counters in merged.items():
            transfers.append({"from": frm, "to": to, "counters": counters, "reason": "adjustment"})
            flow[rank(frm)] -= counters
            flow[rank(to)] += counters
    return transfers, flow
