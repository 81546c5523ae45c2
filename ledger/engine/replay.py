"""Settle a score sheet hand by hand: deal order, the variant's payments, adjustments, conservation.

This is the one place a counter moves. The `settle` command, the stateless endpoint, recording,
amending and importing all call `replay`, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import add
from typing import Any

from .cards import Adjustment
from .deal import Deal, order_transfers
from .errors import INVALID_HAND, EngineError
from .messages import text
from .seats import POOL
from .sheet import SettledHand, Sheet
from .variants import find_variant
from .variants.checks import validate_hand
from .variants.table_law import MISDEAL_CODE, settle_misdeal


def apply_adjustments(pools: Any, adjustments: tuple[Adjustment, ...], number: int) -> None:
    """Adjustments last, in the order listed (§0.8); never more out of the pools than they hold."""
    for i, adj in enumerate(adjustments, 1):
        if adj.frm == POOL:
            if adj.counters > pools.total:
                message = text("hand.adjustment.pool", i=i, counters=adj.counters, held=pools.total)
                raise EngineError(INVALID_HAND, {"adjustments": [message]}, number)
            pools.withdraw(adj.counters)
        elif adj.to == POOL:
            pools.feed(adj.counters)


class Replay:
    """A sheet being settled: iterate it for the settled hands; `balances` and `pools` follow."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self.options = sheet.options
        self.variant = find_variant(sheet.variant)
        self.pools = self.variant.make_pools(sheet.pools, sheet.options)
        self.pools_total = self.pools.total  # what the pools hold after the last deal
        self.balances = [0, 0, 0, 0]  # a new list after each deal, which that deal's JSON shares
        self.state = self.variant.new_state()
        self.checks = self.variant.hand_checks(sheet.options)  # what each bid asks of a hand under these rules
        self.number = 0  # hands of the sheet so far
        self.deals = 0  # deals of the game so far: a misdeal is a hand, not a deal of the game (§0.11)
        self.forfeits: frozenset[int] = frozenset()  # dealers of a misdeal who forfeit their share (§0.11)
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
        game_deal = self.deals + 1
        hand = validate_hand(variant, raw, number, state, self.checks, game_deal)
        misdeal = hand.bid == MISDEAL_CODE
        pools = self.pools
        adjusted = hand.adjustments
        if adjusted and any(adj.frm == POOL for adj in adjusted):
            pools = pools.copy()
        dealer = self.dealers[(number - 1) % 4]
        double = not misdeal and game_deal in self.double_deals
        deal = Deal(game_deal, dealer, double, hand, options, pools, [], self.forfeits)
        if misdeal:
            settle_misdeal(deal)
        else:
            variant.settle_deal(deal, state)
        if adjusted:
            apply_adjustments(pools, adjusted, number)
        transfers, flow = order_transfers(deal.moves, adjusted)
        pool_delta = flow[4]
        pools_after = pools.as_list()
        moved = sum(pools_after) - self.pools_total
        if moved != pool_delta:  # the variant moved pools it did not record
            raise AssertionError(f"deal {number}: pools moved {moved}, transfers say {pool_delta}")
        if state is not None and not misdeal:  # what the game remembers (belle), as the variant keeps it
            variant.remember(state, hand, game_deal)
        deltas = [flow[0], flow[1], flow[2], flow[3]]
        self.balances = balances = list(map(add, self.balances, deltas))
        self.pools = pools
        self.pools_total += pool_delta
        self.number = number
        if not misdeal:
            self.deals = game_deal
        elif getattr(options, "misdeal_forfeits_share", False):
            self.forfeits |= {dealer}
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

    def next_deal(self) -> dict[str, Any] | None:
        """The hand that may be recorded next: its number, dealer and whether it is a double; `deal`, the
        deal of the game it is, is there when a misdeal made it differ from the number (§0.11)."""
        number, game_deal = self.number + 1, self.deals + 1
        if not self.variant.next_deal_allowed(game_deal, self.sheet.options):
            return None
        out: dict[str, Any] = {
            "number": number,
            "dealer": self.variant.dealer(self.sheet.first_dealer, number),
            "double": self.variant.is_double(game_deal),
        }
        if game_deal != number:
            out["deal"] = game_deal
        return out


def replay(sheet: Sheet) -> list[SettledHand]:
    return list(Replay(sheet))
