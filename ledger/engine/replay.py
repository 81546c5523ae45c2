"""Settle a score sheet hand by hand: deal order, the variant's payments, adjustments, conservation.

This is the one place a counter moves. The `settle` command, the stateless endpoint, recording,
amending and importing all call `replay`, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .errors import INVALID_HAND, EngineError
from .sheet import POOL, Hand, SettledHand, Sheet, Transfer
from .variants import get_variant
from .variants.base import Deal

REASONS = ("ante", "contract", "overtricks", "honours", "pool", "division", "jack", "penalty", "adjustment")
_REASON_ORDER = {reason: i for i, reason in enumerate(REASONS)}
_SEAT_REASONS = frozenset({"contract", "overtricks", "honours", "penalty"})


def _step(frm: Any, to: Any, reason: str) -> int:
    """`rules.md` §0.9: ante, seat-to-seat table payments, pool movements, the jack."""
    if reason == "ante":
        return 1
    if reason == "jack":
        return 4
    if frm == POOL or to == POOL:
        return 3
    if reason in _SEAT_REASONS:
        return 2
    raise AssertionError(f"a transfer {frm}->{to} for {reason} fits no step of §0.9")


_RANKS: dict[tuple[Any, Any, str], int] = {}


def _rank(move: tuple[Any, Any, str]) -> int:
    """A movement's place in the order of §0.9 as one integer: step, payer, payee, reason."""
    rank = _RANKS.get(move)
    if rank is None:
        frm, to, reason = move
        step = _step(frm, to, reason)
        rank = ((step * 5 + (4 if frm == POOL else frm)) * 5 + (4 if to == POOL else to)) * 16 + _REASON_ORDER[reason]
        _RANKS[move] = rank
    return rank


def order_transfers(
    moves: list[tuple[Any, Any, int, str]], adjustments: list[tuple[Any, Any, int, str]] | None
) -> tuple[Transfer, ...]:
    """Sum movements with the same (from, to, reason) and put them in the order of §0.9."""
    summed: dict[tuple[Any, Any, str], int] = {}
    for frm, to, counters, reason in moves:
        move = (frm, to, reason)
        if move in summed:
            summed[move] += counters
        else:
            summed[move] = counters
    # Sorted by one integer each (ranks are distinct for distinct movements), so the sort compares
    # integers in C; tuple.__new__ builds the NamedTuple without its Python-level __new__.
    ranks = _RANKS
    ranked = [(ranks.get(move) or _rank(move), move, counters) for move, counters in summed.items()]
    ranked.sort()
    ordered = [_new(Transfer, (move[0], move[1], counters, move[2])) for _, move, counters in ranked]
    if adjustments:
        merged: dict[tuple[Any, Any], int] = {}
        for frm, to, counters, _reason in adjustments:
            merged[frm, to] = merged.get((frm, to), 0) + counters
        ordered.extend(_new(Transfer, (frm, to, n, "adjustment")) for (frm, to), n in merged.items())
    return tuple(ordered)


_new = tuple.__new__


def _apply_adjustments(deal: Deal, hand: Hand, number: int) -> list[tuple[Any, Any, int, str]]:
    """Adjustments last, in the order listed (§0.8); never more out of the pools than they hold."""
    pools = deal.pools
    out = []
    for i, adj in enumerate(hand.adjustments, 1):
        if adj.frm == POOL:
            if adj.counters > pools.total:
                raise EngineError(
                    INVALID_HAND,
                    {"adjustments": [f"adjustment {i} takes {adj.counters} from the pool, which holds {pools.total}"]},
                    number,
                )
            pools.withdraw(adj.counters)
        elif adj.to == POOL:
            pools.feed(adj.counters)
        out.append((adj.frm, adj.to, adj.counters, "adjustment"))
    return out


class Replay:
    """A sheet being settled: iterate it for the settled hands; `balances` and `pools` follow."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self.variant = get_variant(sheet.variant)
        self.pools = self.variant.make_pools(sheet.pools, sheet.options)
        self.balances = [0, 0, 0, 0]
        self.state = self.variant.new_state()
        self.number = 0

    def __iter__(self) -> Iterator[SettledHand]:
        for raw in self.sheet.hands:
            yield self.settle_next(raw)

    def settle_next(self, raw: Any) -> SettledHand:
        """Check and settle the next deal of the sheet (or a hand about to be recorded)."""
        variant, options, pools = self.variant, self.sheet.options, self.pools
        number = self.number + 1
        hand = variant.validate_hand(raw, number, options, self.state)
        pools_before = pools.total
        dealer = variant.dealer(self.sheet.first_dealer, number)
        double = variant.is_double(number)
        deal = Deal(number, dealer, double, hand, options, pools, [])
        variant.settle_deal(deal, self.state)
        adjustments = _apply_adjustments(deal, hand, number) if hand.adjustments else None
        transfers = order_transfers(deal.moves, adjustments)
        deltas = [0, 0, 0, 0, 0]  # the four seats, and the pool at index 4
        for frm, to, counters, _ in transfers:
            deltas[4 if frm == POOL else frm] -= counters
            deltas[4 if to == POOL else to] += counters
        pool_delta = deltas.pop()
        if pools.total - pools_before != pool_delta:  # the variant moved pools it did not record
            raise AssertionError(f"deal {number}: pools moved {pools.total - pools_before}, transfers say {pool_delta}")
        balances = self.balances
        balances[0] += deltas[0]
        balances[1] += deltas[1]
        balances[2] += deltas[2]
        balances[3] += deltas[3]
        self.number = number
        return _new(  # SettledHand(number, dealer, double, transfers, deltas, pool_delta, balances, pools)
            SettledHand,
            (number, dealer, double, transfers, tuple(deltas), pool_delta, tuple(balances), pools.as_tuple()),
        )

    def next_deal(self) -> dict[str, Any] | None:
        """The deal that may be recorded next: its number, dealer and whether it is a double."""
        number = self.number + 1
        if not self.variant.next_deal_allowed(number, self.sheet.options):
            return None
        return {
            "number": number,
            "dealer": self.variant.dealer(self.sheet.first_dealer, number),
            "double": self.variant.is_double(number),
        }


def replay(sheet: Sheet) -> list[SettledHand]:
    return list(Replay(sheet))
