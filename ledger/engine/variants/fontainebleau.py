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

from dataclasses import dataclass
from typing import Any

from ..sheet import POOL, Hand
from .base import Deal, O, R, Variant, boolean, int_at_least, one_of, others, pairing, parse_options, split_joint

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
TRICK_BIDS = {
    "boston": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "slam": 13,
    "spread_slam": 13,
}
# Misères, spreads and piccolissimo: the tricks the bidder must take, exactly.
NO_TRUMP_BIDS = {"little_misere": 0, "piccolissimo": 1, "grand_misere": 0, "little_spread": 0, "grand_spread": 0}
PARTNER_BIDS = ("boston", "six", "seven", "eight", "nine", "ten")
PARTNER_EXTRA = 3  # "the two together shall win three tricks more than the number bid"
ROW_FOR_TRICKS = {tricks: bid for bid, tricks in TRICK_BIDS.items() if bid != "spread_slam"}

# Announcements, lowest first (seed 000, "ANNOUNCEMENTS"), then misère partout.
BIDS = (
    "boston",
    "six",
    "little_misere",
    "seven",
    "piccolissimo",
    "eight",
    "grand_misere",
    "nine",
    "little_spread",
    "ten",
    "grand_spread",
    "eleven",
    "twelve",
    "slam",
    "spread_slam",
    "pass",
)

_PARTNER_FIELDS = {"bidder": R, "trump": R, "tricks": R, "conceded": O, "partner": O, "honours": O}
_SOLO_FIELDS = {"bidder": R, "trump": R, "tricks": R, "conceded": O, "honours": O}
_NO_TRUMP_FIELDS = {"bidder": R, "tricks": R, "conceded": O}
FIELDS = {
    **{bid: _PARTNER_FIELDS for bid in PARTNER_BIDS},
    **{bid: _SOLO_FIELDS for bid in TRICK_BIDS if bid not in PARTNER_BIDS},
    **{bid: _NO_TRUMP_FIELDS for bid in NO_TRUMP_BIDS},
    "pass": {"tricks": R},
}

# How the forbidden-field messages name a bid played without trumps.
_NO_TRUMP_NAMES = {
    "little_misere": "a little misère",
    "grand_misere": "a grand misère",
    "little_spread": "a little spread",
    "grand_spread": "a grand spread",
    "piccolissimo": "piccolissimo",
    "pass": "misère partout",
}


@dataclass(frozen=True, slots=True)
class Options:
    ante: int = 5
    honours: bool = False
    grand_column: str = "diamonds"
    suit_order: str = "american"
    slam_table: int = 1


OPTION_CHECKS = {
    "ante": (int_at_least(0), 5),
    "honours": (boolean, False),
    "grand_column": (one_of("diamonds"), "diamonds"),
    "suit_order": (one_of("american", "french"), "american"),
    "slam_table": (one_of(1, 2), 1),
}


def printed_column(trump: str, options: Options) -> str:
    """The column of Table No. 1 a trump pays: `grand_column` for no trump, ♥/♦ swapped in the French order."""
    if trump == "none":
        return options.grand_column
    if trump in ("clubs", "spades"):
        return "clubs_spades"
    if options.suit_order == "french":
        return "diamonds" if trump == "hearts" else "hearts"
    return trump


def trick_value(row: str, trump: str, options: Options) -> int:
    """V, the value of a trick contract: its row of the sheet's table, in the column of its trump."""
    return getattr(TABLES[options.slam_table][row], printed_column(trump, options))


def honours_bonus(hand: Hand) -> int:
    """What honours add per paying adversary of a made contract (a failure never counts them).

    `check_hand` has already refused honours unless the option `honours` is on and there is a trump suit.
    """
    return HONOURS_BONUS[hand.honours]


class Fontainebleau(Variant):
    name = "fontainebleau"
    title = "Boston de Fontainebleau"
    bids = BIDS
    fields = FIELDS
    trick_bids = frozenset(TRICK_BIDS)
    no_trump = True

    def parse_options(self, raw: Any) -> Options:
        return parse_options(raw, OPTION_CHECKS, Options)

    def game_limit_error(self, number: int, options: Options) -> str | None:
        if number <= GAME:
            return None
        return f"Boston de Fontainebleau is a game of {GAME} deals: there is no deal {number}"

    def forbidden_message(self, name: str, bid: str) -> str:
        played_as = _NO_TRUMP_NAMES.get(bid)
        if name == "revoke":
            return (
                "`revoke` is not priced in Boston de Fontainebleau (its revoke laws are those of Boston):"
                " record the penalty with adjustments"
            )
        if name == "jack":
            return "`jack` must be absent: no jack earns a bonus in Boston de Fontainebleau"
        if name == "turned":
            return "`turned` must be absent: in Boston de Fontainebleau no trump is turned, the suits have a fixed rank"
        if name == "last_trick":
            return "`last_trick` must be absent: Boston de Fontainebleau has no last-trick hand"
        if name == "bidder":
            return "`bidder` must be absent: in misère partout nobody bid"
        if name == "conceded":
            return "`conceded` must be absent: nobody concedes misère partout"
        if name == "trump" and played_as:
            return f"`trump` must be absent: {played_as} is played without trumps"
        if name == "honours" and played_as:
            return f"`honours` must be 0: {played_as} is played without trumps, so nobody holds honours"
        if name == "partner":
            if bid == "pass":
                return "`partner` must be absent: in misère partout nobody bid, so nobody is a partner"
            if played_as:
                return f"`partner` must be absent: {played_as} is played alone"
            return (
                "`partner` must be absent: a partner may be called on boston to ten only"
                f" (the pair must win the bid and three tricks more), not on {bid}"
            )
        return super().forbidden_message(name, bid)

    def check_hand(self, hand: Hand, number: int, options: Options, state: Any) -> dict[str, list[str]]:
        if not hand.honours:
            return {}
        if not options.honours:
            return {"honours": ["`honours` must be 0: honours do not count unless the house rule `honours` is true"]}
        if hand.trump == "none":
            return {"honours": ["`honours` must be 0 when `trump` is none: without a trump suit there are no honours"]}
        return {}

    def settle_deal(self, deal: Deal, state: Any) -> None:
        hand, options = deal.hand, deal.options
        if options.ante:
            deal.pay(deal.dealer, POOL, options.ante, "ante")
            deal.pools.feed(options.ante)
        if hand.bid == "pass":
            misere_partout(deal)
        elif hand.bid in NO_TRUMP_BIDS:
            settle_no_trump_bid(deal)
        elif hand.partner is None:
            settle_solo(deal)
        else:
            settle_partnership(deal)


def misere_partout(deal: Deal) -> None:
    """Misère partout: "the player or players taking the least number of tricks win or divide the pool"."""
    tricks = deal.hand.tricks
    fewest = min(tricks)
    deal.divide_pool([seat for seat in range(4) if tricks[seat] == fewest], "division")


def settle_no_trump_bid(deal: Deal) -> None:
    """A misère, spread or piccolissimo: the table amount from each adversary, or to each and the pool."""
    hand = deal.hand
    bidder = hand.bidder
    assert bidder is not None
    amount = TABLE_NO_1[hand.bid].no_trump
    assert amount is not None
    if hand.conceded or hand.tricks[bidder] == NO_TRUMP_BIDS[hand.bid]:
        deal.pay_each(others(bidder), bidder, amount, "contract")
        take_pool(deal, (bidder,))
    else:
        deal.collect_from_each(others(bidder), bidder, amount, "contract")
        pay_into_pool(deal, (bidder,), amount)


def settle_solo(deal: Deal) -> None:
    """A trick contract played alone (§2.4)."""
    hand, options = deal.hand, deal.options
    bidder = hand.bidder
    assert bidder is not None and hand.trump is not None
    needed = TRICK_BIDS[hand.bid]
    value = trick_value(hand.bid, hand.trump, options)
    taken = hand.tricks[bidder]
    adversaries = others(bidder)
    if hand.conceded or taken >= needed:
        over = 0 if hand.conceded else taken - needed
        deal.pay_each(adversaries, bidder, value, "contract")
        deal.pay_each(adversaries, bidder, EXTRA_TRICK * over, "overtricks")
        deal.pay_each(adversaries, bidder, honours_bonus(hand), "honours")
        take_pool(deal, (bidder,))
    else:
        loss = value + EXTRA_TRICK * (needed - taken)
        deal.collect_from_each(adversaries, bidder, loss, "contract")
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
    opponent, other_opponent = others(bidder, partner)
    if hand.conceded or taken >= needed:
        over = 0 if hand.conceded else taken - needed
        for payer, payee in pairing((opponent, other_opponent)):
            deal.pay(payer, payee, value, "contract")
            deal.pay(payer, payee, EXTRA_TRICK * over, "overtricks")
            deal.pay(payer, payee, honours_bonus(hand), "honours")
        take_pool(deal, partners)
    else:
        loss = value + EXTRA_TRICK * (needed - taken)
        for payer, payee in pairing(partners):
            deal.pay(payer, payee, loss, "contract")
        pay_into_pool(deal, partners, loss)


def take_pool(deal: Deal, winners: tuple[int, ...]) -> None:
    """A made contract takes the whole pool ("the pool goes with every successful play"); partners share it (G-2)."""
    if len(winners) == 1:
        deal.pay(POOL, winners[0], deal.pools.take_all(), "pool")
    else:
        deal.divide_pool(winners, "pool")


def pay_into_pool(deal: Deal, losers: tuple[int, ...], amount: int) -> None:
    """A failure pays into the pool what it pays one adversary (partners by G-3); then the twelfth hand."""
    shares = split_joint(amount) if len(losers) == 2 else (amount,)
    for loser, share in zip(losers, shares, strict=True):
        deal.pay(loser, POOL, share, "pool")
    deal.pools.feed(amount)
    if deal.number == GAME:
        # "on the twelfth hand, if the caller does not succeed, he pays the pool as usual, and his
        # adversaries then divide it amongst themselves."
        deal.divide_pool(others(*losers), "division")


VARIANT = Fontainebleau()
