"""American Boston: the club "decimal" tables and Foster's classic tables.

Source: Foster's Complete Hoyle, "Boston" (seed 000, "Part 21"), as normalised in `rules.md` §1.
Decisions applied (house defaults, not in the sources): the ante of 5 and the pool limit of 100; the
pool model of §1.5 (feed, take one pool, double into a new pool); pool bids from `seven` up,
misères and spreads included; adjustments out of the pools take the newest pool first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import sheet_error
from ..pools import AmericanPools
from ..sheet import POOL, Hand
from .base import Deal, O, R, Variant, boolean, int_at_least, one_of, others, parse_options

TRICK_BIDS = {
    "boston": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
}
# A-T5: misères and spreads, both tables, no over-tricks.
MISERES = {"little_misere": 20, "grand_misere": 40, "little_spread": 80, "grand_spread": 160}
BIDS = (
    "boston",
    "six",
    "seven",
    "little_misere",
    "eight",
    "nine",
    "grand_misere",
    "ten",
    "eleven",
    "little_spread",
    "twelve",
    "grand_spread",
    "thirteen",
    "pass",
    "last_trick",
)
POOL_BIDS = frozenset(BIDS[BIDS.index("seven") : BIDS.index("thirteen") + 1])

# A-T1, classic success: CLASSIC_SUCCESS[bid][tricks taken], from the bid's number to 13.
CLASSIC_SUCCESS = {
    5: {5: 12, 6: 12, 7: 13, 8: 13, 9: 14, 10: 14, 11: 14, 12: 15, 13: 15},
    6: {6: 15, 7: 16, 8: 16, 9: 17, 10: 18, 11: 19, 12: 20, 13: 20},
    7: {7: 18, 8: 20, 9: 21, 10: 22, 11: 23, 12: 24, 13: 26},
    8: {8: 23, 9: 24, 10: 26, 11: 28, 12: 29, 13: 31},
    9: {9: 32, 10: 34, 11: 36, 12: 39, 13: 41},
    10: {10: 42, 11: 45, 12: 48, 13: 52},
    11: {11: 63, 12: 68, 13: 72},
    12: {12: 106, 13: 114},
    13: {13: 166},
}
# A-T2, decimal success: one amount per bid.
DECIMAL_SUCCESS = {5: 10, 6: 15, 7: 20, 8: 25, 9: 35, 10: 45, 11: 65, 12: 105, 13: 170}
# A-T3, classic failure ("put in for" s tricks short): row per bid, s = 1 .. bid.
CLASSIC_FAILURE = {
    5: (11, 21, 31, 41, 50),
    6: (15, 24, 35, 45, 55, 66),
    7: (19, 29, 40, 50, 60, 72, 82),
    8: (23, 34, 46, 56, 67, 78, 89, 110),
    9: (33, 44, 57, 68, 82, 92, 103, 115, 127),
    10: (44, 56, 70, 82, 94, 107, 119, 132, 145, 157),
    11: (67, 80, 95, 109, 123, 138, 151, 165, 180, 194, 208),
    12: (113, 130, 148, 165, 182, 200, 217, 234, 252, 270, 286, 304),
    13: (177, 198, 222, 241, 262, 284, 305, 326, 348, 369, 390, 412, 433),
}
# A-T4, decimal failure.
DECIMAL_FAILURE = {
    5: (10, 20, 30, 40, 50),
    6: (15, 25, 35, 45, 55, 65),
    7: (20, 30, 40, 50, 60, 70, 80),
    8: (25, 35, 45, 55, 70, 85, 100, 115),
    9: (35, 45, 55, 65, 80, 95, 110, 125, 140),
    10: (45, 55, 70, 80, 95, 110, 125, 140, 155, 170),
    11: (70, 80, 95, 110, 125, 140, 155, 170, 185, 200, 220),
    12: (120, 130, 145, 160, 180, 200, 220, 240, 260, 280, 300, 320),
    13: (180, 200, 220, 240, 260, 280, 300, 320, 340, 360, 390, 420, 450),
}
RED_COUNTER = 10  # one red counter is ten white (A-T6, misère partout)

_TRICK_FIELDS = {"bidder": R, "trump": R, "tricks": R, "conceded": O, "turned": O}
_MISERE_FIELDS = {"bidder": R, "tricks": R, "conceded": O, "turned": O}
FIELDS = {
    **{bid: _TRICK_FIELDS for bid in TRICK_BIDS},
    **{bid: _MISERE_FIELDS for bid in MISERES},
    "pass": {"tricks": R, "turned": O},
    "last_trick": {"turned": O, "last_trick": R},
}


@dataclass(frozen=True, slots=True)
class Options:
    table: str = "decimal"
    ante: int = 5
    pool_limit: int | None = 100
    last_trick_hand: bool = False


def _pool_limit(value: Any) -> int | None:
    if value is None:
        return None
    return int_at_least(1)(value)


OPTION_CHECKS = {
    "table": (one_of("decimal", "classic"), "decimal"),
    "ante": (int_at_least(0), 5),
    "pool_limit": (_pool_limit, 100),
    "last_trick_hand": (boolean, False),
}


def success_amount(options: Options, bid: int, taken: int) -> int:
    """What each adversary pays for a made trick bid (`taken` = bid when conceded: no over-tricks)."""
    if options.table == "classic":
        return CLASSIC_SUCCESS[bid][taken]
    return DECIMAL_SUCCESS[bid]


def put_in_for(options: Options, bid: int, short: int) -> int:
    """What a failed bidder pays each adversary, `short` tricks under his bid."""
    table = CLASSIC_FAILURE if options.table == "classic" else DECIMAL_FAILURE
    return table[bid][short - 1]


def misere_partout(deal: Deal) -> None:
    """All passed (§1.6): the players with the most tricks pay the others 10 per trick of difference."""
    tricks = deal.hand.tricks
    most = max(tricks)
    losers = [s for s in range(4) if tricks[s] == most]
    for winner in others(*losers):
        each = RED_COUNTER * (most - tricks[winner]) // len(losers)
        for loser in losers:
            deal.pay(loser, winner, each, "contract")


class American(Variant):
    name = "american"
    title = "American Boston"
    bids = BIDS
    fields = FIELDS
    trick_bids = frozenset(TRICK_BIDS)
    multi_pool = True

    def parse_options(self, raw: Any) -> Options:
        return parse_options(raw, OPTION_CHECKS, Options)

    def check_pools(self, pools: tuple[int, ...], options: Options) -> None:
        limit = options.pool_limit
        if limit is not None and any(p > limit for p in pools):
            raise sheet_error("pools", f"a carried-in pool holds more than the pool limit of {limit}")

    def make_pools(self, carried_in: tuple[int, ...], options: Options) -> AmericanPools:
        return AmericanPools(carried_in, options.pool_limit)

    def game_limit_error(self, number: int, options: Options) -> str | None:
        if number <= 12:
            return None
        if number == 13 and options.last_trick_hand:
            return None
        if options.last_trick_hand:
            return "American Boston is 12 deals and the last-trick hand; there is no deal after the 13th"
        return "American Boston is 12 deals; a 13th, the last-trick hand, only with the option last_trick_hand"

    def forbidden_message(self, name: str, bid: str) -> str:
        if name == "partner":
            return "`partner` is not used in american Boston: the variant has no partners"
        if name == "revoke":
            return "a revoke is not priced in American Boston: record its penalty as an adjustment"
        if name in ("honours", "jack"):
            return f"`{name}` is not used in American Boston: honours and jacks do not count"
        if name == "trump":
            return "`trump` must be absent: a misère is played without trumps"
        if name == "last_trick":
            return "`last_trick` belongs only to the 13th deal, the last-trick hand"
        if name == "conceded":
            return f"`conceded` must be absent: nobody concedes a {bid} deal"
        return super().forbidden_message(name, bid)

    def check_hand(self, hand: Hand, number: int, options: Options, state: Any) -> dict[str, list[str]]:
        if number == 13 and hand.bid != "last_trick":
            return {"bid": ["the 13th deal is the last-trick hand: `bid` must be last_trick"]}
        if number <= 12 and hand.bid == "last_trick":
            return {"bid": ["last_trick is only the 13th deal, with the option last_trick_hand"]}
        return {}

    def settle_deal(self, deal: Deal, state: Any) -> None:
        hand, options, pools = deal.hand, deal.options, deal.pools
        if options.ante:
            deal.pay(deal.dealer, POOL, options.ante, "ante")
            pools.feed(options.ante)
        bid = hand.bid
        if bid == "pass":
            misere_partout(deal)
            return
        if bid == "last_trick":
            deal.pay(POOL, hand.last_trick, pools.take_all(), "pool")
            return
        bidder = hand.bidder
        adversaries = others(bidder)
        taken = hand.tricks[bidder]
        if bid in MISERES:
            made = hand.conceded or taken == 0
            amount = MISERES[bid]
        else:
            needed = TRICK_BIDS[bid]
            made = hand.conceded or taken >= needed
            if made:
                amount = success_amount(options, needed, needed if hand.conceded else min(taken, 13))
            else:
                amount = put_in_for(options, needed, needed - taken)
        if made:
            for adversary in adversaries:
                deal.pay(adversary, bidder, amount, "contract")
            if bid in POOL_BIDS or not hand.conceded:
                deal.pay(POOL, bidder, pools.take(), "pool")
        else:
            for adversary in adversaries:
                deal.pay(bidder, adversary, amount, "contract")
            deal.pay(bidder, POOL, pools.double(), "pool")


VARIANT = American()
