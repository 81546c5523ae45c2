"""Toy Boston: a fifth variant written as docs/variants.md says, to hold the house to that page.

It is not a game anyone plays: three bids, one table, eight deals. It lives in tests/ and is named in
`VARIANTS` only while `tests/contract/test_a_fifth_variant.py` runs (its fixture `toy`); everything
else about it (its words, its catalogs in tests/contract/locale) is in this folder.
"""

from __future__ import annotations

from typing import Any

from ledger.engine.deal import Deal
from ledger.engine.messages import register
from ledger.engine.seats import ADVERSARIES, POOL, SEATS, others
from ledger.engine.variants.base import Variant
from ledger.engine.variants.declaration import (
    ALL_PASS,
    ANY_SUIT,
    CHOICE,
    EXACT,
    INTEGER,
    TRICKS,
    Bid,
    Deals,
    Declaration,
    O,
    Option,
    R,
    Table,
)

FIVE = 5  # the tricks of the one trick bid
MISERE = 6  # what each adversary pays for a made misère, and a failed one's bidder pays each
ANTE = 1  # the dealer's, into the pool, every deal
PACE = {"slow": 1, "fast": 2}  # `pace`: what every amount is multiplied by

MESSAGES = {
    "toy.option.price": "Price of a trick",
    "toy.option.price.help": "what each adversary pays per trick over or short of five",
    "toy.option.pace": "Pace",
    "toy.option.pace.help": "fast doubles every amount",
    "toy.bid.five": "five",
    "toy.bid.misere": "misère",
    "toy.bid.pass": "all pass",
    "toy.ante": "the dealer pays one counter into the pool at the start of every deal",
}
register(MESSAGES)

DECLARATION = Declaration(
    name="toy",
    title="Toy Boston",
    short_title="Toy",
    source="A toy of the tests, written to check the page on adding a variant.",
    options=(
        Option("price", INTEGER, 2, "toy.option.price", "toy.option.price.help", minimum=1),
        Option(
            "pace",
            CHOICE,
            "slow",
            "toy.option.pace",
            "toy.option.pace.help",
            choices=("slow", "fast"),
            choice_labels=("slow", "fast"),
        ),
    ),
    bids=(
        Bid(
            code="five",
            label="toy.bid.five",
            kind=TRICKS,
            fields={"bidder": R, "trump": R, "tricks": R, "turned": O},
            tricks=FIVE,
            trumps=ANY_SUIT,
        ),
        Bid(code="misere", label="toy.bid.misere", kind=EXACT, fields={"bidder": R, "tricks": R}, tricks=0),
        Bid(code="pass", label="toy.bid.pass", kind=ALL_PASS, fields={"tricks": R}),
    ),
    deals=Deals(limit=8, step=1, ante="toy.ante"),
    tables=(
        Table(
            "toy-t1",
            "Made and failed bids",
            "Counters each adversary pays the bidder, or the bidder each adversary.",
            ("bid", "counters"),
            (("misère", (MISERE,)),),
        ),
    ),
    facts=(("All pass", "the players with the most tricks pay each other player one counter per trick"),),
    all_pass="paid",
)


def misere_partout(deal: Deal) -> None:
    """All passed: the players with the most tricks pay each other player one per trick of difference."""
    tricks = deal.hand.tricks
    most = max(tricks)
    losers = [seat for seat in SEATS if tricks[seat] == most]
    for winner in others(*losers):
        deal.each_pays(losers, winner, (most - tricks[winner]) // len(losers), "contract")


class Toy(Variant):
    declaration = DECLARATION

    def settle_deal(self, deal: Deal, state: Any) -> None:
        hand, options = deal.hand, deal.options
        deal.pay(deal.dealer, POOL, ANTE, "ante")
        deal.pools.feed(ANTE)
        if hand.bid == "pass":
            misere_partout(deal)
            return
        bidder = hand.bidder
        assert bidder is not None
        pace = PACE[options.pace]
        taken = hand.tricks[bidder]
        if hand.bid == "misere":
            if taken == 0:
                deal.each_pays(ADVERSARIES[bidder], bidder, MISERE * pace, "contract")
            else:
                deal.pays_each(bidder, ADVERSARIES[bidder], MISERE * pace, "contract")
            return
        if taken >= FIVE:
            deal.each_pays(ADVERSARIES[bidder], bidder, options.price * (1 + taken - FIVE) * pace, "contract")
            deal.pay(POOL, bidder, deal.pools.take_all(), "pool")
        else:
            deal.pays_each(bidder, ADVERSARIES[bidder], options.price * (FIVE - taken) * pace, "contract")


VARIANT = Toy()
