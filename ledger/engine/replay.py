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


_SORT_KEYS: dict[tuple[Any, Any, str], tuple[int, int, int, int]] = {}


def _sort_key(move: tuple[Any, Any, str]) -> tuple[int, int, int, int]:
    key = _SORT_KEYS.get(move)
    if key is None:
        frm, to, reason = move
        key = (_step(frm, to, reason), 4 if frm == POOL else frm, 4 if to == POOL else to, _REASON_ORDER[reason])
        _SORT_KEYS[move] = key
    return key


def order_transfers(
    moves: list[tuple[Any, Any, int, str]], adjustments: list[tuple[Any, Any, int, str]]
) -> tuple[Transfer, ...]:
    """Sum movements with the same (from, to, reason) and put them in the order of §0.9."""
    summed: dict[tuple[Any, Any, str], int] = {}
    for frm, to, counters, reason in moves:
        key = (frm, to, reason)
        summed[key] = summed.get(key, 0) + counters
    ordered = [Transfer(frm, to, summed[frm, to, reason], reason) for frm, to, reason in sorted(summed, key=_sort_key)]
    if adjustments:
        merged: dict[tuple[Any, Any], int] = {}
        for frm, to, counters, _reason in adjustments:
            merged[frm, to] = merged.get((frm, to), 0) + counters
        ordered.extend(Transfer(frm, to, n, "adjustment") for (frm, to), n in merged.items())
    return tuple(ordered)


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
        deal = Deal(
            number=number,
            dealer=variant.dealer(self.sheet.first_dealer, number),
            double=variant.is_double(number),
            hand=hand,
            options=options,
            pools=pools,
        )
        variant.settle_deal(deal, self.state)
        adjustments = _apply_adjustments(deal, hand, number) if hand.adjustments else []
        transfers = order_transfers(deal.moves, adjustments)
        deltas = [0, 0, 0, 0]
        pool_delta = 0
        for t in transfers:
            if t.frm == POOL:
                pool_delta -= t.counters
            else:
                deltas[t.frm] -= t.counters
            if t.to == POOL:
                pool_delta += t.counters
            else:
                deltas[t.to] += t.counters
        if pools.total - pools_before != pool_delta:  # the variant moved pools it did not record
            raise AssertionError(f"deal {number}: pools moved {pools.total - pools_before}, transfers say {pool_delta}")
        balances = self.balances
        for seat in range(4):
            balances[seat] += deltas[seat]
        self.number = number
        return SettledHand(
            number=number,
            dealer=deal.dealer,
            double=deal.double,
            transfers=transfers,
            deltas=tuple(deltas),  # type: ignore[arg-type]
            pool_delta=pool_delta,
            balances=tuple(balances),  # type: ignore[arg-type]
            pools=tuple(pools.as_list()),
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
