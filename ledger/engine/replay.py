"""Settle a score sheet hand by hand: deal order, the variant's payments, adjustments, conservation.

This is the one place a counter moves. The `settle` command, the stateless endpoint, recording,
amending and importing all call `replay`, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import add
from typing import Any

from .errors import INVALID_HAND, EngineError
from .messages import text
from .sheet import POOL, Hand, Party, SettledHand, Sheet, TransferJSON
from .variants import get_variant
from .variants.base import Deal, rank


def _apply_adjustments(deal: Deal, hand: Hand, number: int) -> list[tuple[Party, Party, int]]:
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
        out.append((adj.frm, adj.to, adj.counters))
    return out


class Replay:
    """A sheet being settled: iterate it for the settled hands; `balances` and `pools` follow."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self.options = sheet.options
        self.variant = get_variant(sheet.variant)
        self.pools = self.variant.make_pools(sheet.pools, sheet.options)
        self.pools_total = self.pools.total  # what the pools hold after the last deal
        self.balances = [0, 0, 0, 0]  # a new list after each deal, which that deal's JSON shares
        self.state = self.variant.new_state()
        self.checks = self.variant.hand_checks(sheet.options)  # what each bid asks of a hand under these rules
        self.number = 0
        # Who deals deal n is n's place in a round of four; which deals are doubles is a range.
        self.dealers = self.variant.dealers(sheet.first_dealer)
        self.double_deals = self.variant.declaration.deals.double_deals

    def __iter__(self) -> Iterator[SettledHand]:
        for raw in self.sheet.hands:
            yield self.settle_next(raw)

    def settle_next(self, raw: Any) -> SettledHand:
        """Check and settle the next deal of the sheet (or a hand about to be recorded).

        A refused hand changes nothing: the hand is checked whole before a counter moves, and a hand
        whose adjustments take from the pool, which only its settlement can judge, is settled on a copy
        of the pools that replaces them once it is accepted.
        """
        variant, options, state = self.variant, self.options, self.state
        number = self.number + 1
        hand = variant.validate_hand(raw, number, options, state, self.checks)
        pools = self.pools
        adjusted = hand.adjustments
        if adjusted and any(adj.frm == POOL for adj in adjusted):
            pools = pools.copy()
        dealer = self.dealers[(number - 1) % 4]
        double = number in self.double_deals
        deal = Deal(number, dealer, double, hand, options, pools, [])
        variant.settle_deal(deal, state)
        adjustments = _apply_adjustments(deal, hand, number) if adjusted else ()
        # The deal's movements in the order of §0.9, those with the same from, to and reason summed
        # (sorted, they are next to each other), then its adjustments summed by from and to, in the
        # order listed (§0.8).
        flow = [0, 0, 0, 0, 0]  # what each seat and the pool gain, by rank
        transfers: list[TransferJSON] = []
        moves = deal.moves
        moves.sort()
        last = None
        for place, counters in moves:
            _step, payer, payee, _reason, frm, to, reason = place
            flow[payer] -= counters
            flow[payee] += counters
            if place is last:  # the same from, to and reason again (its one place tuple): one transfer
                transfers[-1]["counters"] += counters
            else:
                transfers.append({"from": frm, "to": to, "counters": counters, "reason": reason})
                last = place
        if adjustments:
            merged: dict[tuple[Party, Party], int] = {}
            for frm, to, counters in adjustments:
                merged[frm, to] = merged.get((frm, to), 0) + counters
            for (frm, to), counters in merged.items():
                transfers.append({"from": frm, "to": to, "counters": counters, "reason": "adjustment"})
                flow[rank(frm)] -= counters
                flow[rank(to)] += counters
        pool_delta = flow[4]
        pools_after = pools.as_list()
        moved = sum(pools_after) - self.pools_total
        if moved != pool_delta:  # the variant moved pools it did not record
            raise AssertionError(f"deal {number}: pools moved {moved}, transfers say {pool_delta}")
        if number == 1 and state is not None:  # deal 1's turned suit is belle (старшая)
            variant.remember(state, hand, number)
        deltas = [flow[0], flow[1], flow[2], flow[3]]
        self.balances = balances = list(map(add, self.balances, deltas))
        self.pools = pools
        self.pools_total += pool_delta
        self.number = number
        return {
            "number": number,
            "dealer": dealer,
            "double": double,
            "transfers": transfers,
            "deltas": deltas,
            "pool_delta": pool_delta,
            "balances": balances,
            "pools": pools_after,
        }

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
