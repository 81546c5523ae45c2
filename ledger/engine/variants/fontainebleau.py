"""Boston de Fontainebleau: Foster's Table No. 1 and the American Table No. 2, one pool, partners.

Source: Foster's Complete Hoyle, "Boston de Fontainebleau" (seed 000: bids, partners, misère partout,
the pool, the twelfth hand; seed 004: honours, payments, Table No. 1), as normalised in `rules.md` §2.
Decisions applied (house defaults, not in the sources): the ante of 5; honours not counted unless the
option `honours` is on, and then counted on slams too; no-trump ("grand") bids paid in the printed ♦
column (`grand_column`); a failed misère, spread or piccolissimo pays its amount and nothing per
trick; a failed slam pays 5 per trick short like any trick bid; the remainder of an equal division
stays in the pool; partners pay one amount into the pool by G-3 (the caller pays the odd counter).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from ..cards import Hand
from ..deal import Deal
from ..messages import ANTE, GAME_WORDS, HOUSE_RULE, HOUSE_RULE_HELP, REFUSAL, Message, Term, register, text
from ..seats import ADVERSARIES, PAIRINGS, POOL, SEATS, others
from . import table_law
from .base import Variant
from .checks import PAYS_INSTEAD, add_error
from .declaration import (
    ALL_PASS,
    BOOLEAN,
    CHOICE,
    EXACT,
    INTEGER,
    SUIT_OR_NONE,
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

GAME = 12  # "Twelve deals is a game"; the twelfth hand has the last-hand rule (§2.6)
EXTRA_TRICK = 5  # over-tricks, tricks short and honours: "the uniform rate of five white counters each"
HONOURS_BONUS = {0: 0, 3: 2 * EXTRA_TRICK, 4: 4 * EXTRA_TRICK}  # "as for four/two over-tricks"


@dataclass(frozen=True, slots=True)
class Row:
    """One line of Table No. 1: the no-trump amount, or the three trump columns (♣ or ♠, ♥, ♦)."""

    no_trump: int | None = None
    clubs_spades: int | None = None
    hearts: int | None = None
    diamonds: int | None = None
    extra_trick: int | None = None


# Table No. 1 as printed (seed 004; rules.md §2.3), in the book's order, white counters per adversary.
TABLE_NO_1: dict[str, Row] = {
    "boston": Row(None, 10, 20, 30, EXTRA_TRICK),
    "six": Row(None, 30, 40, 50, EXTRA_TRICK),
    "little_misere": Row(75),
    "seven": Row(None, 50, 60, 70, EXTRA_TRICK),
    "piccolissimo": Row(100),
    "eight": Row(None, 70, 80, 90, EXTRA_TRICK),
    "grand_misere": Row(150),
    "nine": Row(None, 90, 100, 110, EXTRA_TRICK),
    "little_spread": Row(200),
    "ten": Row(None, 110, 120, 130, EXTRA_TRICK),
    "grand_spread": Row(250),
    "eleven": Row(None, 130, 140, 150, EXTRA_TRICK),
    "twelve": Row(None, 150, 160, 170, EXTRA_TRICK),
    "slam": Row(None, 400, 450, 500),
    "spread_slam": Row(None, 600, 700, 800),
}
# Table No. 2: "In America, the last two items are usually reduced"; every other row is Table No. 1's.
TABLE_NO_2: dict[str, Row] = {
    **TABLE_NO_1,
    "slam": Row(None, 250, 300, 350),
    "spread_slam": Row(None, 350, 400, 450),
}
TABLES = {1: TABLE_NO_1, 2: TABLE_NO_2}

# Trick contracts: the tricks the bidder undertakes to win.
TRICK_BIDS = {**{bid: n for bid, n in TRICK_LADDER.items() if n <= 12}, "slam": 13, "spread_slam": 13}
# Misères, spreads and piccolissimo: the tricks the bidder must take, exactly.
NO_TRUMP_TRICKS = {"little_misere": 0, "piccolissimo": 1, "grand_misere": 0, "little_spread": 0, "grand_spread": 0}
PARTNER_BIDS = ("boston", "six", "seven", "eight", "nine", "ten")
PARTNER_EXTRA = 3  # "the two together shall win three tricks more than the number bid"
ROW_FOR_TRICKS = {tricks: bid for bid, tricks in TRICK_BIDS.items() if bid != "spread_slam"}

_PARTNER_FIELDS = {"bidder": R, "trump": R, "tricks": R, "conceded": O, "partner": O, "honours": O, "revoke": O}
_SOLO_FIELDS = {"bidder": R, "trump": R, "tricks": R, "conceded": O, "honours": O, "revoke": O}  # revoke: §0.11
_NO_TRUMP_FIELDS = {"bidder": R, "tricks": R, "conceded": O, "revoke": O}
BID_LABELS = {bid: bid_word(bid) for bid in TABLE_NO_1} | {"pass": "all pass (misère partout)"}

register(
    {
        "fontainebleau.forbidden.jack": "no jack earns a bonus in Boston de Fontainebleau: leave it empty",
        "fontainebleau.forbidden.turned": "no trump is turned in Boston de Fontainebleau: leave the turned card empty",
        "fontainebleau.forbidden.last_trick": "Boston de Fontainebleau has no last-trick hand: leave it empty",
        "fontainebleau.forbidden.bidder": "in misère partout nobody bid: leave the bidder empty",
        "fontainebleau.forbidden.conceded": "nobody concedes misère partout: leave conceded empty",
        "fontainebleau.forbidden.no_trump.trump": "{bid} is played without trumps: leave the trump empty",
        "fontainebleau.forbidden.no_trump.honours": "{bid} is played without trumps, so nobody holds honours",
        "fontainebleau.forbidden.partner_alone": "{bid} is played alone: leave the partner empty",
        "fontainebleau.forbidden.partner": (
            "a partner may be called on boston to ten only (the pair must win the bid and three tricks more), "
            "not on {bid}"
        ),
    },
    context=REFUSAL,
)
register(
    {
        "fontainebleau.option.ante": "Ante",
        "fontainebleau.option.honours": "Count honours",
        "fontainebleau.option.grand_column": "No-trump column",
        "fontainebleau.option.suit_order": "Suit order",
        "fontainebleau.option.slam_table": "Slam table",
    },
    context=HOUSE_RULE,
)
register(
    {
        "fontainebleau.option.ante.help": "the dealer pays it into the pool at the start of every deal",
        "fontainebleau.option.honours.help": "count honours on made contracts with a trump suit",
        "fontainebleau.option.grand_column.help": "the printed column a no-trump bid pays",
        "fontainebleau.option.suit_order.help": "the French order swaps the ♥ and ♦ columns",
        "fontainebleau.option.slam_table.help": "Table No. 1, or Table No. 2 with the lower slam rows",
    },
    context=HOUSE_RULE_HELP,
)
register({"fontainebleau.ante": "the dealer pays the ante into the pool at the start of every deal"}, context=ANTE)
register({"fontainebleau.bid.pass": BID_LABELS["pass"]}, context=GAME_WORDS)
LABELS = {bid: bid_label(bid) for bid in TABLE_NO_1} | {"pass": "fontainebleau.bid.pass"}


def _tables() -> tuple[Table, ...]:
    columns = ("no trump", "♣ or ♠", "♥", "♦", "each extra trick")

    def rows(table: dict[str, Row], only: tuple[str, ...] = ()) -> tuple[tuple[str, tuple[int | None, ...]], ...]:
        return tuple(
            (BID_LABELS[bid], (r.no_trump, r.clubs_spades, r.hearts, r.diamonds, r.extra_trick))
            for bid, r in table.items()
            if not only or bid in only
        )

    return (
        Table(
            "table-no-1",
            "Table No. 1",
            "White counters each adversary pays on a made contract.",
            columns,
            rows(TABLE_NO_1),
        ),
        Table(
            "table-no-2",
            "Table No. 2 (house rule “Slam table”: 2)",
            "The American reduction: every other row is Table No. 1's.",
            columns,
            rows(TABLE_NO_2, ("slam", "spread_slam")),
        ),
        Table(
            "honours",
            "Honours (house rule “Count honours”)",
            "Per paying adversary, on a made contract with a trump suit.",
            ("counters",),
            tuple((f"{held} honours", (bonus,)) for held, bonus in HONOURS_BONUS.items() if held),
        ),
    )


DECLARATION = Declaration(
    name="fontainebleau",
    title="Boston de Fontainebleau",
    short_title="Fontainebleau",
    aliases=("boston-de-fontainebleau", "бостон-фонтенбло"),
    pool_share="seated",  # at the end "his adversaries then divide it amongst themselves" (000:143)
    source='Foster\'s Complete Hoyle, "Boston de Fontainebleau": its bids, honours and payments, and Table No. 1.',
    options=(
        Option("ante", INTEGER, 5, "fontainebleau.option.ante", "fontainebleau.option.ante.help", minimum=0),
        Option("honours", BOOLEAN, False, "fontainebleau.option.honours", "fontainebleau.option.honours.help"),
        Option(
            "grand_column",
            CHOICE,
            "diamonds",
            "fontainebleau.option.grand_column",
            "fontainebleau.option.grand_column.help",
            choices=("diamonds",),
            choice_labels=("diamonds",),
        ),
        Option(
            "suit_order",
            CHOICE,
            "american",
            "fontainebleau.option.suit_order",
            "fontainebleau.option.suit_order.help",
            choices=("american", "french"),
            choice_labels=("American", "French"),
        ),
        Option(
            "slam_table",
            CHOICE,
            1,
            "fontainebleau.option.slam_table",
            "fontainebleau.option.slam_table.help",
            choices=(1, 2),
        ),
        # table law (rules.md §0.11)
        table_law.misdeal_penalty(10),  # one red counter, "same as at Boston"
        table_law.pay_instead_short(),
    ),
    # Announcements, lowest first (seed 000, "ANNOUNCEMENTS"), then misère partout; a partner may be
    # called from boston to ten (PARTNER_BIDS): the pair must take PARTNER_EXTRA tricks more.
    bids=(
        Bid(
            code="boston",
            label=LABELS["boston"],
            kind=TRICKS,
            fields=_PARTNER_FIELDS,
            tricks=5,
            pair_tricks=8,
            trumps=SUIT_OR_NONE,
            field_options={"honours": "honours"},
        ),
        Bid(
            code="six",
            label=LABELS["six"],
            kind=TRICKS,
            fields=_PARTNER_FIELDS,
            tricks=6,
            pair_tricks=9,
            trumps=SUIT_OR_NONE,
            field_options={"honours": "honours"},
        ),
        Bid(
            code="little_misere",
            label=LABELS["little_misere"],
            kind=EXACT,
            fields=_NO_TRUMP_FIELDS,
            tricks=0,
            discard=True,
            played_as="a little misère",
        ),
        Bid(
            code="seven",
            label=LABELS["seven"],
            kind=TRICKS,
            fields=_PARTNER_FIELDS,
            tricks=7,
            pair_tricks=10,
            trumps=SUIT_OR_NONE,
            field_options={"honours": "honours"},
        ),
        Bid(
            code="piccolissimo",
            label=LABELS["piccolissimo"],
            kind=EXACT,
            fields=_NO_TRUMP_FIELDS,
            tricks=1,
            discard=True,
            played_as="piccolissimo",
        ),
        Bid(
            code="eight",
            label=LABELS["eight"],
            kind=TRICKS,
            fields=_PARTNER_FIELDS,
            tricks=8,
            pair_tricks=11,
            trumps=SUIT_OR_NONE,
            field_options={"honours": "honours"},
        ),
        Bid(
            code="grand_misere",
            label=LABELS["grand_misere"],
            kind=EXACT,
            fields=_NO_TRUMP_FIELDS,
            tricks=0,
            played_as="a grand misère",
        ),
        Bid(
            code="nine",
            label=LABELS["nine"],
            kind=TRICKS,
            fields=_PARTNER_FIELDS,
            tricks=9,
            pair_tricks=12,
            trumps=SUIT_OR_NONE,
            field_options={"honours": "honours"},
        ),
        Bid(
            code="little_spread",
            label=LABELS["little_spread"],
            kind=EXACT,
            fields=_NO_TRUMP_FIELDS,
            tricks=0,
            discard=True,
            played_as="a little spread",
        ),
        Bid(
            code="ten",
            label=LABELS["ten"],
            kind=TRICKS,
            fields=_PARTNER_FIELDS,
            tricks=10,
            pair_tricks=13,
            trumps=SUIT_OR_NONE,
            field_options={"honours": "honours"},
        ),
        Bid(
            code="grand_spread",
            label=LABELS["grand_spread"],
            kind=EXACT,
            fields=_NO_TRUMP_FIELDS,
            tricks=0,
            played_as="a grand spread",
        ),
        Bid(
            code="eleven",
            label=LABELS["eleven"],
            kind=TRICKS,
            fields=_SOLO_FIELDS,
            tricks=11,
            trumps=SUIT_OR_NONE,
            field_options={"honours": "honours"},
        ),
        Bid(
            code="twelve",
            label=LABELS["twelve"],
            kind=TRICKS,
            fields=_SOLO_FIELDS,
            tricks=12,
            trumps=SUIT_OR_NONE,
            field_options={"honours": "honours"},
        ),
        Bid(
            code="slam",
            label=LABELS["slam"],
            kind=TRICKS,
            fields=_SOLO_FIELDS,
            tricks=13,
            trumps=SUIT_OR_NONE,
            field_options={"honours": "honours"},
        ),
        Bid(
            code="spread_slam",
            label=LABELS["spread_slam"],
            kind=TRICKS,
            fields=_SOLO_FIELDS,
            tricks=13,
            trumps=SUIT_OR_NONE,
            field_options={"honours": "honours"},
        ),
        Bid(code="pass", label=LABELS["pass"], kind=ALL_PASS, fields={"tricks": R}, played_as="misère partout"),
        table_law.misdeal_bid("fontainebleau"),  # table law (rules.md §0.11)
    ),
    deals=Deals(limit=GAME, step=1, ante="fontainebleau.ante"),
    tables=_tables(),
    facts=(
        ("Extra tricks and tricks short", f"{EXTRA_TRICK} counters each"),
        ("Partners", f"on {', '.join(PARTNER_BIDS)}: the pair must win the bid and {PARTNER_EXTRA} tricks more"),
        ("Deals", f"{GAME}; on the {GAME}th a failure pays the pool, which the adversaries divide"),
        ("No trump", "paid in the ♦ column (house rule “No-trump column”)"),
    ),
    all_pass="no_share",
)
Options = DECLARATION.options_class  # made from the declaration at import: `Any` in annotations


# The column of Table No. 1 each trump suit pays, by `suit_order`: the French order swaps ♥ and ♦.
COLUMNS = {
    "american": {"clubs": "clubs_spades", "spades": "clubs_spades", "hearts": "hearts", "diamonds": "diamonds"},
    "french": {"clubs": "clubs_spades", "spades": "clubs_spades", "hearts": "diamonds", "diamonds": "hearts"},
}


def printed_column(trump: str, options: Any) -> str:
    """The column of Table No. 1 a trump pays: `grand_column` for no trump, ♥/♦ swapped in the French order."""
    if trump == "none":
        return options.grand_column
    return COLUMNS[options.suit_order][trump]


def trick_value(row: str, trump: str, options: Any) -> int:
    """V, the value of a trick contract: its row of the sheet's table, in the column of its trump."""
    return getattr(TABLES[options.slam_table][row], printed_column(trump, options))


class Fontainebleau(Variant):
    declaration = DECLARATION

    forbidden_ids = {
        "jack": "fontainebleau.forbidden.jack",
        "turned": "fontainebleau.forbidden.turned",
        "last_trick": "fontainebleau.forbidden.last_trick",
        "bidder": "fontainebleau.forbidden.bidder",
        "conceded": "fontainebleau.forbidden.conceded",
    }

    def forbidden_message(self, name: str, bid: Bid, options: Any) -> Message:
        played_as = Term(bid.played_as, GAME_WORDS) if bid.played_as else None
        if name in ("trump", "honours") and played_as:
            return text(f"fontainebleau.forbidden.no_trump.{name}", bid=played_as)
        if name == "partner":
            if played_as:
                return text("fontainebleau.forbidden.partner_alone", bid=played_as)
            return text("fontainebleau.forbidden.partner", bid=text(bid.label))
        return super().forbidden_message(name, bid, options)

    def check_hand(
        self, hand: Hand, number: int, options: Any, state: Any, broken: AbstractSet[str], errors: dict[str, list[str]]
    ) -> None:
        """Honours need a trump suit (rules.md §2.2: 0 with `none`)."""
        if hand.honours and hand.trump == "none":
            add_error(errors, "honours", text("hand.honours_no_trump"))

    def settle_deal(self, deal: Deal, state: Any) -> None:
        hand = deal.hand
        pay_ante(deal, deal.options.ante)
        bid = hand.bid
        if bid == "pass":
            misere_partout(deal)
        elif hand.revoke is not None:  # table law (rules.md §0.11): priced as Boston's revoke
            settle_revoke(deal)
        elif bid in NO_TRUMP_TRICKS:
            settle_no_trump_bid(deal)
        elif hand.partner is None:
            settle_solo(deal)
        else:
            settle_partnership(deal)


def misere_partout(deal: Deal) -> None:
    """Misère partout: "the player or players taking the least number of tricks win or divide the pool"."""
    tricks = deal.hand.tricks
    fewest = min(tricks)
    deal.divide_pool([seat for seat in SEATS if tricks[seat] == fewest], "division")


def settle_no_trump_bid(deal: Deal) -> None:
    """A misère, spread or piccolissimo: the table amount from each adversary, or to each and the pool."""
    hand = deal.hand
    bidder = hand.bidder
    assert bidder is not None
    amount = TABLE_NO_1[hand.bid].no_trump
    assert amount is not None
    if hand.conceded or hand.tricks[bidder] == NO_TRUMP_TRICKS[hand.bid]:
        deal.each_pays(ADVERSARIES[bidder], bidder, amount, "contract")
        deal.pay(POOL, bidder, deal.pools.take_all(), "pool")
    else:
        deal.pays_each(bidder, ADVERSARIES[bidder], amount, "contract")
        pay_into_pool(deal, (bidder,), amount)


def settle_solo(deal: Deal) -> None:
    """A trick contract played alone (§2.4); honours count only on a made contract (`check_hand` has
    refused them unless the option `honours` is on and there is a trump suit)."""
    hand = deal.hand
    bidder = hand.bidder
    assert bidder is not None and hand.trump is not None
    needed = TRICK_BIDS[hand.bid]
    value = trick_value(hand.bid, hand.trump, deal.options)
    taken = hand.tricks[bidder]
    if hand.conceded == PAYS_INSTEAD:  # table law (rules.md §0.11): "pay instead of playing" (000:111)
        hand, taken = hand._replace(conceded=False), table_law.taken_instead(deal, needed)
    adversaries = ADVERSARIES[bidder]
    if hand.conceded or taken >= needed:
        deal.each_pays(adversaries, bidder, value, "contract")
        if not hand.conceded:
            deal.each_pays(adversaries, bidder, EXTRA_TRICK * (taken - needed), "overtricks")
        deal.each_pays(adversaries, bidder, HONOURS_BONUS[hand.honours], "honours")
        deal.pay(POOL, bidder, deal.pools.take_all(), "pool")
    else:
        loss = value + EXTRA_TRICK * (needed - taken)
        deal.pays_each(bidder, adversaries, loss, "contract")
        pay_into_pool(deal, (bidder,), loss)


def settle_partnership(deal: Deal) -> None:
    """A caller and his partner, who must win bid + 3 tricks together; paid by pairing both ways (§2.5)."""
    hand, options = deal.hand, deal.options
    bidder, partner = hand.bidder, hand.partner
    assert bidder is not None and partner is not None and hand.trump is not None
    needed = TRICK_BIDS[hand.bid] + PARTNER_EXTRA
    value = trick_value(ROW_FOR_TRICKS[needed], hand.trump, options)  # ten + partner: the slam row
    taken = hand.tricks[bidder] + hand.tricks[partner]
    partners = (bidder, partner)
    if hand.conceded or taken >= needed:
        over = 0 if hand.conceded else taken - needed
        honours = HONOURS_BONUS[hand.honours]
        for payer, payee in PAIRINGS[others(bidder, partner)]:
            deal.pay(payer, payee, value, "contract")
            deal.pay(payer, payee, EXTRA_TRICK * over, "overtricks")
            deal.pay(payer, payee, honours, "honours")
        deal.divide_pool(partners, "pool")
    else:
        loss = value + EXTRA_TRICK * (needed - taken)
        for payer, payee in PAIRINGS[partners]:
            deal.pay(payer, payee, loss, "contract")
        pay_into_pool(deal, partners, loss)


def pay_into_pool(deal: Deal, losers: tuple[int, ...], amount: int) -> None:
    """A failure pays into the pool what it pays one adversary (partners by G-3); then the twelfth hand."""
    deal.pay_shared(losers, POOL, amount, "pool")
    deal.pools.feed(amount)
    if deal.number == GAME:
        # "on the twelfth hand, if the caller does not succeed, he pays the pool as usual, and his
        # adversaries then divide it amongst themselves."
        deal.divide_pool(others(*losers), "division")


# --- table law (rules.md §0.11): the amounts of this variant's tables it is priced with ----------------
def settle_revoke(deal: Deal) -> None:
    """A revoke, "the same as at Boston" (004:5): the revoker pays each adversary of his side the
    contract's failure, V + 5 × max(1, s) (a misère, spread or piccolissimo: its amount, "the same as in
    misère"), and an amount equal to the pool into it. Honours held still count, as on a made contract."""
    hand, options = deal.hand, deal.options
    bidder = hand.bidder
    assert bidder is not None
    side = (bidder,) if hand.partner is None else (bidder, hand.partner)
    if hand.bid in NO_TRUMP_TRICKS:
        amount = TABLE_NO_1[hand.bid].no_trump
        assert amount is not None
    else:
        assert hand.trump is not None
        needed = TRICK_BIDS[hand.bid] + (PARTNER_EXTRA if hand.partner is not None else 0)
        row = hand.bid if hand.partner is None else ROW_FOR_TRICKS[needed]
        amount = trick_value(row, hand.trump, options) + EXTRA_TRICK * table_law.revoke_shortfall(deal, side, needed)
    table_law.pay_revoke(deal, side, amount)
    honours = HONOURS_BONUS[hand.honours]
    if hand.partner is None:
        deal.each_pays(ADVERSARIES[bidder], bidder, honours, "honours")
    else:
        for payer, payee in PAIRINGS[others(*side)]:
            deal.pay(payer, payee, honours, "honours")


VARIANT = Fontainebleau()
