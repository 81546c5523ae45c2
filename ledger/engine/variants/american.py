"""American Boston: the club "decimal" tables and Foster's classic tables.

Source: Foster's Complete Hoyle, "Boston" (seed 000, "Part 21"), as normalised in `rules.md` §1.
Decisions applied (house defaults, not in the sources): the ante of 5 and the pool limit of 100; the
pool model of §1.5 (feed, take one pool, double into a new pool); pool bids from `seven` up,
misères and spreads included; adjustments out of the pools take the newest pool first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..deal import Deal
from ..errors import sheet_error
from ..messages import ANTE, GAME_WORDS, HOUSE_RULE, HOUSE_RULE_HELP, REFUSAL, register, text
from ..pools import AmericanPools
from ..seats import ADVERSARIES, POOL, SEATS, others
from . import table_law
from .base import Variant
from .checks import PAYS_INSTEAD
from .declaration import (
    ALL_PASS,
    ANY_SUIT,
    BOOLEAN,
    CHOICE,
    EXACT,
    INTEGER,
    LAST_TRICK,
    TRICKS,
    Bid,
    Deals,
    Declaration,
    O,
    Option,
    R,
    Table,
)
from .shared import TRICK_LADDER, bid_label, bid_word, pay_ante

TRICK_BIDS = dict(TRICK_LADDER)  # boston (5) to thirteen
# A-T5: misères and spreads, both tables, no over-tricks.
MISERES = {"little_misere": 20, "grand_misere": 40, "little_spread": 80, "grand_spread": 160}
DISCARDS = frozenset({"little_misere", "little_spread"})  # one card discarded: at most 12 tricks
# The bids in rank order, as `DECLARATION.bids` lists them.
RANKED = (
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
POOL_BIDS = frozenset(RANKED[RANKED.index("seven") : RANKED.index("thirteen") + 1])
BID_LABELS = {code: bid_word(code) for code in RANKED if code != "pass"} | {"pass": "all pass"}

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

TRICK_FIELDS = {"bidder": R, "trump": R, "tricks": R, "conceded": O, "turned": O, "revoke": O}  # revoke: §0.11
MISERE_FIELDS = {"bidder": R, "tricks": R, "conceded": O, "turned": O, "revoke": O}

register(
    {
        "american.option.table": "Payment tables",
        "american.option.ante": "Ante",
        "american.option.pool_limit": "Pool limit",
        "american.option.last_trick_hand": "Last-trick hand",
    },
    context=HOUSE_RULE,
)
register(
    {
        "american.option.table.help": (
            "decimal: one amount per bid, no over-tricks; classic: Foster's tables, over-tricks paid"
        ),
        "american.option.ante.help": "the dealer pays it into the pools at the start of every deal",
        "american.option.pool_limit.help": "the most one pool may hold; empty for no limit",
        "american.option.last_trick_hand.help": "allow a 13th deal played for all the pools",
    },
    context=HOUSE_RULE_HELP,
)
register({"american.ante": "the dealer pays the ante into the pools at the start of every deal"}, context=ANTE)
# American's all pass is a misère partout, paid: its words may differ from a thrown-in all pass.
register({"american.bid.pass": "all pass"}, context=f"{GAME_WORDS}: all pass, misère partout")


def _label(code: str) -> str:
    return "american.bid.pass" if code == "pass" else bid_label(code)


def _tables() -> tuple[Table, ...]:
    bids = list(TRICK_BIDS.items())
    most = max(n for _, n in bids)
    shorts = tuple(str(s) for s in range(1, most + 1))

    def failure(table: dict[int, tuple[int, ...]]) -> tuple[tuple[str, tuple[int | None, ...]], ...]:
        return tuple(
            (BID_LABELS[b], tuple(table[n][s - 1] if s <= n else None for s in range(1, most + 1))) for b, n in bids
        )

    return (
        Table(
            "a-t2",
            "Made trick bids, decimal table (A-T2)",
            "Counters each adversary pays the bidder; the same whatever the over-tricks.",
            ("bid", "tricks", "each adversary pays"),
            tuple((BID_LABELS[b], (n, DECIMAL_SUCCESS[n])) for b, n in bids),
        ),
        Table(
            "a-t1",
            "Made trick bids, classic table (A-T1)",
            "Counters each adversary pays the bidder, by the tricks taken.",
            tuple(str(t) for t in range(5, 14)),
            tuple((BID_LABELS[b], tuple(CLASSIC_SUCCESS[n].get(t) for t in range(5, 14))) for b, n in bids),
        ),
        Table(
            "a-t4",
            "Failed trick bids, decimal table (A-T4)",
            "Counters the bidder pays each adversary, by the tricks short; he also doubles the pool.",
            shorts,
            failure(DECIMAL_FAILURE),
        ),
        Table(
            "a-t3",
            "Failed trick bids, classic table (A-T3)",
            "Counters the bidder pays each adversary, by the tricks short; he also doubles the pool.",
            shorts,
            failure(CLASSIC_FAILURE),
        ),
        Table(
            "a-t5",
            "Misères and spreads (A-T5), both tables",
            "Made (no trick taken, or conceded): each adversary pays the bidder. Failed: the bidder pays each.",
            ("counters",),
            tuple((BID_LABELS[b], (v,)) for b, v in MISERES.items()),
        ),
    )


DECLARATION = Declaration(
    name="american",
    title="American Boston",
    short_title="American",
    aliases=("boston-americain", "boston-américain", "американский-бостон"),
    # pools formed and "played for", divided at the end (000:31, 000:33, 000:35): a seat's share is its
    # holder's when they were formed
    pool_share="formed",
    source='Foster\'s Complete Hoyle, "Boston" (Part 21), with the club decimal tables and the classic ones.',
    options=(
        Option(
            "table",
            CHOICE,
            "decimal",
            "american.option.table",
            "american.option.table.help",
            choices=("decimal", "classic"),
            choice_labels=("decimal", "classic"),
        ),
        Option("ante", INTEGER, 5, "american.option.ante", "american.option.ante.help", minimum=0),
        Option(
            "pool_limit",
            INTEGER,
            100,
            "american.option.pool_limit",
            "american.option.pool_limit.help",
            minimum=1,
            nullable=True,
        ),
        Option(
            "last_trick_hand", BOOLEAN, False, "american.option.last_trick_hand", "american.option.last_trick_hand.help"
        ),
        # table law (rules.md §0.11)
        table_law.misdeal_penalty(RED_COUNTER),  # Foster's one red counter, "same as at Boston"
        table_law.pay_instead_short(),
    ),
    bids=(
        *(
            Bid(
                code=code,
                label=_label(code),
                kind=TRICKS,
                fields=TRICK_FIELDS,
                tricks=TRICK_BIDS[code],
                trumps=ANY_SUIT,
            )
            if code in TRICK_BIDS
            else Bid(
                code=code, label=_label(code), kind=EXACT, fields=MISERE_FIELDS, tricks=0, discard=code in DISCARDS
            )
            if code in MISERES
            else Bid(code=code, label=_label(code), kind=ALL_PASS, fields={"tricks": R, "turned": O})
            if code == "pass"
            else Bid(code=code, label=_label(code), kind=LAST_TRICK, fields={"turned": O, "last_trick": R})
            for code in RANKED
        ),
        table_law.misdeal_bid("american"),  # table law (rules.md §0.11)
    ),
    deals=Deals(limit=12, step=1, ante="american.ante", extra_option="last_trick_hand", extra_bid="last_trick"),
    tables=_tables(),
    facts=(
        ("Pool bids", ", ".join(label for b, label in BID_LABELS.items() if b in POOL_BIDS)),
        (
            "All pass (misère partout)",
            f"the players with the most tricks pay each other player {RED_COUNTER} per trick of difference",
        ),
        ("Deals", "12, and a 13th last-trick hand with the house rule “Last-trick hand”"),
    ),
    pools=0,
    pool_label="Pools",
    field_labels={"turned": "First-preference suit"},
    all_pass="paid",
)
Options = DECLARATION.options_class  # made from the declaration at import: `Any` in annotations


def success_amount(options: Any, bid: int, taken: int) -> int:
    """What each adversary pays for a made trick bid (`taken` = bid when conceded: no over-tricks)."""
    if options.table == "classic":
        return CLASSIC_SUCCESS[bid][taken]
    return DECIMAL_SUCCESS[bid]


def put_in_for(options: Any, bid: int, short: int) -> int:
    """What a failed bidder pays each adversary, `short` tricks under his bid."""
    table = CLASSIC_FAILURE if options.table == "classic" else DECIMAL_FAILURE
    return table[bid][short - 1]


@dataclass(frozen=True, slots=True)
class Prices:
    """One bid under one payment table, priced for every count of tricks the bidder may take: whether
    that makes it and what each adversary pays him (made) or he pays each adversary (failed)."""

    by_taken: tuple[tuple[bool, int], ...]  # tricks taken 0-13 -> (made, amount)
    conceded: int  # a conceded bid is made at its number: no over-tricks
    pool_bid: bool  # a pool bid takes a pool even when conceded (§1.5)


def _prices(options: Any, bid: str) -> Prices:
    if bid in MISERES:
        amount = MISERES[bid]
        by_taken = tuple((taken == 0, amount) for taken in range(14))
        return Prices(by_taken, amount, bid in POOL_BIDS)
    needed = TRICK_BIDS[bid]
    by_taken = tuple(
        (True, success_amount(options, needed, taken))
        if taken >= needed
        else (False, put_in_for(options, needed, needed - taken))
        for taken in range(14)
    )
    return Prices(by_taken, success_amount(options, needed, needed), bid in POOL_BIDS)


# Each payment table's prices, worked out once rather than for every hand.
TABLE_CHOICES = next(option.choices for option in DECLARATION.options if option.name == "table")
PRICES = {
    table: {bid: _prices(Options(table=table), bid) for bid in (*TRICK_BIDS, *MISERES)} for table in TABLE_CHOICES
}


def misere_partout(deal: Deal) -> None:
    """All passed (§1.6): the players with the most tricks pay the others 10 per trick of difference."""
    tricks = deal.hand.tricks
    most = max(tricks)
    losers = [seat for seat in SEATS if tricks[seat] == most]
    for winner in others(*losers):
        deal.each_pays(losers, winner, RED_COUNTER * (most - tricks[winner]) // len(losers), "contract")


register(
    {
        "american.forbidden.partner": "American Boston has no partners: leave the partner empty",
        "american.forbidden.honours": "honours do not count in American Boston: leave them empty",
        "american.forbidden.jack": "the jack earns nothing in American Boston: leave it empty",
        "american.forbidden.trump": "a {bid} is played without trumps: leave the trump empty",
        "american.forbidden.last_trick": "the last trick is entered only on the 13th deal, the last-trick hand",
        "american.forbidden.conceded": "nobody concedes a deal of {bid}: leave conceded empty",
    },
    context=REFUSAL,
)


class American(Variant):
    declaration = DECLARATION
    forbidden_ids = {
        name: f"american.forbidden.{name}" for name in ("partner", "honours", "jack", "trump", "last_trick", "conceded")
    }

    def check_pools(self, pools: tuple[int, ...], options: Any) -> None:
        limit = options.pool_limit
        if limit is not None and pools and max(pools) > limit:
            raise sheet_error("pools", text("sheet.pool_limit", limit=limit))

    def make_pools(self, carried_in: tuple[int, ...], options: Any) -> AmericanPools:
        return AmericanPools(carried_in, options.pool_limit)

    def settle_deal(self, deal: Deal, state: Any) -> None:
        hand, pools = deal.hand, deal.pools
        pay_ante(deal, deal.options.ante)
        bid = hand.bid
        if bid == "pass":
            misere_partout(deal)
            return
        if bid == "last_trick":
            assert hand.last_trick is not None
            deal.pay(POOL, hand.last_trick, pools.take_all(), "pool")
            return
        bidder = hand.bidder
        assert bidder is not None
        if hand.revoke is not None:  # table law (rules.md §0.11): priced as Boston's revoke
            table_law.pay_revoke(deal, (bidder,), revoke_amount(deal))
            return
        prices = PRICES[deal.options.table][bid]
        if hand.conceded == PAYS_INSTEAD:  # table law (rules.md §0.11): as failed by pay_instead_short
            made, amount = prices.by_taken[table_law.taken_instead(deal, TRICK_BIDS[bid])]
        elif hand.conceded:
            made, amount = True, prices.conceded
        else:
            made, amount = prices.by_taken[hand.tricks[bidder]]
        if made:
            deal.each_pays(ADVERSARIES[bidder], bidder, amount, "contract")
            if prices.pool_bid or not hand.conceded:
                deal.pay(POOL, bidder, pools.take(), "pool")
        else:
            deal.pays_each(bidder, ADVERSARIES[bidder], amount, "contract")
            deal.pay(bidder, POOL, pools.double(), "pool")


# --- table law (rules.md §0.11): the amounts of this variant's tables it is priced with ----------------
def revoke_amount(deal: Deal) -> int:
    """A revoke's payment to each adversary: the contract's failure for max(1, s) tricks short; a misère's
    amount ("the same as at Boston", 000:115)."""
    bid = deal.hand.bid
    if bid in MISERES:
        return MISERES[bid]
    bidder = deal.hand.bidder
    assert bidder is not None
    needed = TRICK_BIDS[bid]
    return put_in_for(deal.options, needed, table_law.revoke_shortfall(deal, (bidder,), needed))


VARIANT = American()
