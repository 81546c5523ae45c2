"""Settle a score sheet hand by hand: deal order, the variant's payments, adjustments, conservation.

This is the one place a counter moves. The `settle` command, the stateless endpoint, recording,
amending and importing all call `replay`, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .errors import INVALID_HAND, EngineError
from .messages import text
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


def _place(party: Any) -> int:
    """A party's place in the order: the seats 0-3, then the pool."""
    return 4 if party == POOL else party


def _order(move: tuple[Any, Any, str]) -> tuple[int, int, int, int]:
    """A movement's place in the order of §0.9: step, payer, payee, reason."""
    frm, to, reason = move
    return _step(frm, to, reason), _place(frm), _place(to), _REASON_ORDER[reason]


def order_transfers(
    moves: list[tuple[Any, Any, int, str]], adjustments: list[tuple[Any, Any, int, str]] | None
) -> tuple[Transfer, ...]:
    """Sum movements with the same (from, to, reason) and put them in the order of §0.9."""
    summed: dict[tuple[Any, Any, str], int] = {}
    for frm, to, counters, reason in moves:
        summed[frm, to, reason] = summed.get((frm, to, reason), 0) + counters
    ordered = [Transfer(frm, to, counters, reason) for (frm, to, reason), counters in sorted(summed.items(), key=_key)]
    if adjustments:
        merged: dict[tuple[Any, Any], int] = {}
        for frm, to, counters, _reason in adjustments:
            merged[frm, to] = merged.get((frm, to), 0) + counters
        ordered.extend(Transfer(frm, to, n, "adjustment") for (frm, to), n in merged.items())
    return tuple(ordered)


def _key(item: tuple[tuple[Any, Any, str], int]) -> tuple[int, int, int, int]:
    return _order(item[0])


def _apply_adjustments(deal: Deal, hand: Hand, number: int) -> list[tuple[Any, Any, int, str]]:
    """Adjustments last, in the order listed (§0.8); never more out of the pools than they hold."""
    pools = deal.pools
    out = []
    for i, adj in enumerate(hand.adjustments, 1):
        if adj.frm == POOL:
            if adj.counters > pools.total:
                message = text("hand.adjustment.pool", i=i, counters=adj.counters, held=pools.total)
                raise EngineError(INVALID_HAND, {"adjustments": [message]}, number)
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
        """Check and settle the next deal of the sheet (or a hand about to be recorded).

        A refused hand changes nothing: the hand is checked whole before a counter moves, and a hand
        whose adjustments take from the pool, which only its settlement can judge, is settled on a copy
        of the pools that replaces them once it is accepted.
        """
        variant, options = self.variant, self.sheet.options
        number = self.number + 1
        hand = variant.validate_hand(raw, number, options, self.state)
        takes_from_pool = any(adj.frm == POOL for adj in hand.adjustments)
        pools = self.pools.copy() if takes_from_pool else self.pools
        pools_before = pools.total
        dealer = variant.dealer(self.sheet.first_dealer, number)
        double = variant.is_double(number)
        deal = Deal(number, dealer, double, hand, options, pools, [])
        variant.settle_deal(deal, self.state)
        adjustments = _apply_adjustments(deal, hand, number) if hand.adjustments else None
        transfers = order_transfers(deal.moves, adjustments)
        deltas = [0, 0, 0, 0]
        pool_delta = 0
        for transfer in transfers:
            if transfer.frm == POOL:
                pool_delta -= transfer.counters
            else:
                deltas[transfer.frm] -= transfer.counters
            if transfer.to == POOL:
                pool_delta += transfer.counters
            else:
                deltas[transfer.to] += transfer.counters
        if pools.total - pools_before != pool_delta:  # the variant moved pools it did not record
            raise AssertionError(f"deal {number}: pools moved {pools.total - pools_before}, transfers say {pool_delta}")
        self.pools = pools
        variant.remember(self.state, hand, number)
        self.balances = [b + d for b, d in zip(self.balances, deltas, strict=True)]
        self.number = number
        return SettledHand(
            number, dealer, double, transfers, tuple(deltas), pool_delta, tuple(self.balances), pools.as_tuple()
        )

    def legal_next(self) -> list[dict[str, Any]] | None:
        """The bids the next deal may have under the sheet's rules (None when no deal may follow)."""
        number = self.number + 1
        if not self.variant.next_deal_allowed(number, self.sheet.options):
            return None
        return self.variant.legal_bids(number, self.sheet.options, self.state)

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
