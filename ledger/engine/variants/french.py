"""French Boston: belle and petite, forty deals of simples and doubles.

Source: Foster's Complete Hoyle, "French Boston" and its table of payments (seed 001; its start is
also in seed 000), as normalised in `rules.md` §3. Where the book is silent, this module applies the
house defaults of `rules.md` (each is marked "house default" below):

- the doubles (deals 33-40) double every table amount, but not what the pool itself sets: a failure
  pays in an amount equal to the pool once, the ante is 20, divisions share what is there;
- over-tricks on a forced solo of 5-7 tricks; failure amounts of base + extra x shortfall (the book
  gives none); a pair both short pays each its own shortfall and doubles the pool once, split by G-3;
- a pair that succeeds is paid by pairing (§0.7); a pair that fails is not paired;
- the misère sur table row prices both spreads; an independence of 13 tricks is the slam seul;
- the neuf is priced only by the table's own amounts (option `neuf`), with no honours and no slam;
- the ♦J bonus is not paid on a thrown-in deal; a revoke replaces the contract's settlement (§3.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import SUIT_SYMBOLS, Hand
from ..deal import Deal
from ..messages import GAME_WORDS, Message, register, text
from ..seats import ADVERSARIES, PAIRINGS, POOL, others
from . import table_law
from .base import Belle, Variant
from .declaration import (
    ALL_PASS,
    ANY_SUIT,
    BELLE_OR_PETITE,
    EXACT,
    OBJECT,
    TRICKS,
    Bid,
    Deals,
    Declaration,
    O,
    Option,
    R,
    Table,
)
from .shared import MISERE_TRUMP, bid_label, bid_word, pay_ante

# --- the suits -------------------------------------------------------------------------------------

# §3.1: the rank of the suits is permanent, hearts highest; m is a suit's factor in the table.
SUIT_FACTOR = {"spades": 1, "clubs": 2, "diamonds": 3, "hearts": 4}


# --- the table of payments (§3.3) ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    """A trick contract's lines of the table, in m: base, three honours, four honours, each extra trick."""

    base: int
    three_honours: int
    four_honours: int
    extra: int

    def honours(self, held: int) -> int:
        """The honours line for `held` honours (0, 3 or 4)."""
        if held == 3:
            return self.three_honours
        return self.four_honours if held == 4 else 0


# Foster's table ("The Bid"), counters per adversary in a simple, written in m: the book prints
# each row times m in four columns, ♠ (m=1), ♣ (2), ♢ (3), ♡ (4).
#                          base  three honours  four honours  each extra trick
FIVE_ALONE_OR_PARTNERS_EIGHT = Row(4, 3, 4, 1)  # "Five tricks alone, or partners' 8"
PETITE_INDEPENDENCE = Row(6, 4, 6, 2)  # "Six tricks, or petite independence"
GRAND_INDEPENDENCE = Row(8, 6, 8, 4)  # "Eight tricks, or grand independence"
PETITE_MISERE = 16  # "Petite misère"
GRAND_MISERE = 32  # "Grand misère"
MISERE_DES_QUATRE_AS = 32  # "Misère de quatre as"
MISERE_SUR_TABLE = 64  # "Misère sur table": both spreads (house default)
SLAM_A_DEUX = 50  # "Slam à deux (partners)": not used, the partners' slam is the flat one (§3.4)
SLAM_SEUL = 100  # "Slam seul (alone)": an independence taking all 13 tricks (house default)
SLAM_SUR_TABLE = 200  # "Slam sur table": not used, there is no such bid

# The flat slams of the text (§3.4): a forced solo taking 8 or more, partners taking 13.
FLAT_SLAM_PETITE = 24
FLAT_SLAM_BELLE = 48

JACK_BONUS = 2  # ♦J: from each other player, in a simple (§3.6)
ANTE = 10  # deals 1-32 and past 40
DOUBLES_ANTE = 20  # deals 33-40
FIRST_DOUBLE, LAST_DOUBLE = 33, 40
DEMANDER_QUOTA, ACCEPTOR_QUOTA = 5, 3  # the partners' eight (§3.5)
FORCED_SOLO_TRICKS = 5
FORCED_SOLO_SLAM = 8  # a forced solo taking 8 or more is paid flat
NEUF_TRICKS = 9

# --- the bids (§3.2) -------------------------------------------------------------------------------

INDEPENDENCES = {"independence_six": (6, PETITE_INDEPENDENCE), "independence_eight": (8, GRAND_INDEPENDENCE)}
MISERES = {
    "little_misere": PETITE_MISERE,
    "grand_misere": GRAND_MISERE,
    "misere_four_aces": MISERE_DES_QUATRE_AS,
    "little_spread": MISERE_SUR_TABLE,
    "grand_spread": MISERE_SUR_TABLE,
}

_INDEPENDENCE_FIELDS = {"bidder": R, "trump": R, "tricks": R, "honours": O, "jack": R, "revoke": O, "turned": R}
_MISERE_FIELDS = {"bidder": R, "tricks": R, "revoke": O, "turned": R}
MISERE_LABELS = ("little_misere", "grand_misere", "little_spread", "grand_spread")  # the shared ladder's words
BID_LABELS = {
    "simple": "simple",
    "independence_six": "independence (6)",
    "little_misere": bid_word("little_misere"),
    "independence_eight": "independence (8)",
    "grand_misere": bid_word("grand_misere"),
    "misere_four_aces": "misère of four aces",
    "neuf": "neuf",
    "little_spread": bid_word("little_spread"),
    "grand_spread": bid_word("grand_spread"),
    "pass": "all pass",
}

# --- options (§3.1) --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NeufAmounts:
    """The table's neuf, per trump suit: `base` for nine tricks, `extra` per trick over or short."""

    base: dict[str, int]
    extra: dict[str, int]


register(
    {
        "french.forbidden.conceded": "every French contract is played out: leave conceded empty",
        "french.forbidden.last_trick": "French Boston has no last-trick hand: leave the last trick empty",
        "french.forbidden.partner": "a {bid} is played alone; only a simple takes a partner",
        "french.forbidden.pass": "when all pass the cards are thrown in: leave the {field} empty",
        "french.forbidden.misere.jack": "the ♦J has no value in a misère: leave it empty",
        "french.forbidden.misere.honours": "a misère has no trumps, so no honours: leave them empty",
        "french.forbidden.neuf_honours": "the neuf has no honours row in the table: leave honours empty",
        "french.option.neuf": "Neuf amounts",
        "french.option.neuf.help": (
            "counters per adversary for a neuf, per trump suit: base for nine tricks, extra per trick "
            "over or short; needed only if a neuf is played"
        ),
        "french.ante": (
            f"the dealer pays {ANTE} into the pool at the start of every deal, {DOUBLES_ANTE} in the doubles"
        ),
        **{
            f"french.bid.{bid}": label
            for bid, label in BID_LABELS.items()
            if bid not in MISERE_LABELS and bid != "pass"
        },
    }
)
# French Boston's all pass is thrown in: its words may differ from a misère partout's.
register({"french.bid.pass": BID_LABELS["pass"]}, context=f"{GAME_WORDS}: all pass, thrown in")
LABELS = {bid: bid_label(bid) if bid in MISERE_LABELS else f"french.bid.{bid}" for bid in BID_LABELS}


def _tables() -> tuple[Table, ...]:
    suits = sorted(SUIT_FACTOR, key=SUIT_FACTOR.__getitem__)
    columns = tuple(f"{SUIT_SYMBOLS[s]} (×{SUIT_FACTOR[s]})" for s in suits)
    rows: list[tuple[str, tuple[int, ...]]] = []
    for title, row in (
        ("Five tricks alone, or partners' eight", FIVE_ALONE_OR_PARTNERS_EIGHT),
        ("Six tricks, or petite independence", PETITE_INDEPENDENCE),
        ("Eight tricks, or grand independence", GRAND_INDEPENDENCE),
    ):
        for part, value in (
            ("", row.base),
            (" — three honours", row.three_honours),
            (" — four honours", row.four_honours),
            (" — each extra trick", row.extra),
        ):
            rows.append((title + part, tuple(value * SUIT_FACTOR[s] for s in suits)))
    for title, value in (
        ("Petite misère", PETITE_MISERE),
        ("Grand misère", GRAND_MISERE),
        ("Misère of four aces", MISERE_DES_QUATRE_AS),
        ("Misère sur table (both spreads)", MISERE_SUR_TABLE),
        ("Slam alone (an independence taking 13)", SLAM_SEUL),
    ):
        rows.append((title, tuple(value * SUIT_FACTOR[s] for s in suits)))
    return (
        Table(
            "table-of-payments",
            "The table of payments",
            "Counters each adversary pays in a simple deal, by the trump suit (misères: the turned suit).",
            columns,
            tuple(rows),
        ),
        Table(
            "flat-slams",
            "Flat slams",
            "A forced solo taking 8 or more, or partners taking 13, whatever the suit.",
            ("counters",),
            (("in petite", (FLAT_SLAM_PETITE,)), ("in belle", (FLAT_SLAM_BELLE,))),
        ),
    )


DECLARATION = Declaration(
    name="french",
    title="French Boston",
    short_title="French",
    aliases=("boston-francais", "boston-français", "французский-бостон"),
    pool_share="seated",  # divided at the end "unless a player demands that it shall be played for" (001:17)
    playable_rules={
        "neuf": {
            "base": dict.fromkeys(("spades", "clubs", "diamonds", "hearts"), 20),
            "extra": dict.fromkeys(("spades", "clubs", "diamonds", "hearts"), 5),
        }
    },
    sample_deals=40,
    source='Foster\'s Complete Hoyle, "French Boston" and its table of payments.',
    options=(
        Option(
            "neuf",
            OBJECT,
            None,
            "french.option.neuf",
            "french.option.neuf.help",
            minimum=0,
            parts=("base", "extra"),
            per_suit=True,
            build=NeufAmounts,
        ),
        # table law (rules.md §0.11)
        table_law.misdeal_penalty(0),  # "a misdeal loses the deal" (001:13)
    ),
    bids=(
        Bid(
            code="simple",
            label=LABELS["simple"],
            kind=TRICKS,
            fields={
                "bidder": R,
                "trump": R,
                "tricks": R,
                "partner": O,
                "honours": O,
                "jack": R,
                "revoke": O,
                "turned": R,
            },
            tricks=FORCED_SOLO_TRICKS,
            pair_tricks=DEMANDER_QUOTA + ACCEPTOR_QUOTA,
            trumps=BELLE_OR_PETITE,
        ),
        Bid(
            code="independence_six",
            label=LABELS["independence_six"],
            kind=TRICKS,
            fields=_INDEPENDENCE_FIELDS,
            tricks=6,
            trumps=ANY_SUIT,
        ),
        Bid(
            code="little_misere",
            label=LABELS["little_misere"],
            kind=EXACT,
            fields=_MISERE_FIELDS,
            tricks=0,
            discard=True,
        ),
        Bid(
            code="independence_eight",
            label=LABELS["independence_eight"],
            kind=TRICKS,
            fields=_INDEPENDENCE_FIELDS,
            tricks=8,
            trumps=ANY_SUIT,
        ),
        Bid(code="grand_misere", label=LABELS["grand_misere"], kind=EXACT, fields=_MISERE_FIELDS, tricks=0),
        Bid(code="misere_four_aces", label=LABELS["misere_four_aces"], kind=EXACT, fields=_MISERE_FIELDS, tricks=0),
        Bid(
            code="neuf",
            label=LABELS["neuf"],
            kind=TRICKS,
            fields={"bidder": R, "trump": R, "tricks": R, "jack": R, "revoke": O, "turned": R},
            tricks=NEUF_TRICKS,
            trumps=ANY_SUIT,
            needs_option="neuf",
        ),
        Bid(
            code="little_spread",
            label=LABELS["little_spread"],
            kind=EXACT,
            fields=_MISERE_FIELDS,
            tricks=0,
            discard=True,
        ),
        Bid(code="grand_spread", label=LABELS["grand_spread"], kind=EXACT, fields=_MISERE_FIELDS, tricks=0),
        Bid(code="pass", label=LABELS["pass"], kind=ALL_PASS, fields={"turned": R}),
        table_law.misdeal_bid("french"),  # table law (rules.md §0.11)
    ),
    deals=Deals(limit=None, step=3, ante="french.ante", doubles=(FIRST_DOUBLE, LAST_DOUBLE)),
    tables=_tables(),
    facts=(
        ("Ante", f"{ANTE} from the dealer; {DOUBLES_ANTE} in the doubles"),
        ("Doubles", f"deals {FIRST_DOUBLE}-{LAST_DOUBLE}: every table amount twice"),
        ("♦J", f"{JACK_BONUS} from each other player (twice in the doubles)"),
        ("Partners' eight", f"the demander must take {DEMANDER_QUOTA}, the acceptor {ACCEPTOR_QUOTA}"),
        ("Deal order", "the deal passes to the right"),
    ),
    field_labels={"jack": "♦J"},
)
Options = DECLARATION.options_class  # made from the declaration at import: `Any` in annotations
BIDS = tuple(bid.code for bid in DECLARATION.bids)  # the bids in rank order (§3.2)

# --- settling --------------------------------------------------------------------------------------

TRICKS_NEEDED = {
    "simple": FORCED_SOLO_TRICKS,  # a simple nobody accepted; partners need DEMANDER_QUOTA + ACCEPTOR_QUOTA
    "neuf": NEUF_TRICKS,
    **{bid: tricks for bid, (tricks, _row) in INDEPENDENCES.items()},
    **dict.fromkeys(MISERES, 0),  # a misère: no trick at all
}
ROWS = {"simple": FIVE_ALONE_OR_PARTNERS_EIGHT, **{bid: row for bid, (_tricks, row) in INDEPENDENCES.items()}}


def flat_slam(trump: str, belle: str) -> int:
    return FLAT_SLAM_BELLE if trump == belle else FLAT_SLAM_PETITE


def needed(hand: Hand) -> int:
    """The tricks the bidder's side must take (only a simple takes a partner)."""
    return DEMANDER_QUOTA + ACCEPTOR_QUOTA if hand.partner is not None else TRICKS_NEEDED[hand.bid]


def is_made(hand: Hand) -> bool:
    """Whether the bidder's side made its contract (a misère: no trick taken); the settling below judges
    it on its way, this says it in one place for the statistics' tests."""
    assert hand.bidder is not None
    if hand.bid in MISERES:
        return hand.tricks[hand.bidder] == 0
    taken = hand.tricks[hand.bidder] + (hand.tricks[hand.partner] if hand.partner is not None else 0)
    return taken >= needed(hand)


def misere_amount(hand: Hand) -> int:
    """A misère's row, made or failed, in the turned suit's factor."""
    return MISERES[hand.bid] * SUIT_FACTOR[hand.turned]  # type: ignore[index]


def made_value(deal: Deal, state: Belle, taken: int, over: int) -> tuple[int, int, int]:
    """§3.4, in simples: what each adversary pays the bidder's side for a made trick contract, as
    (contract, over-tricks, honours); `taken` is the side's tricks, `over` those beyond the contract."""
    hand = deal.hand
    bid, trump = hand.bid, hand.trump
    assert trump is not None
    if bid == "neuf":
        neuf = deal.options.neuf
        return neuf.base[trump], neuf.extra[trump] * over, 0
    m = SUIT_FACTOR[trump]
    if bid == "simple":
        if (hand.partner is None and taken >= FORCED_SOLO_SLAM) or taken == 13:
            assert hand.turned is not None
            belle, _petite = state.suits_of(deal.number, hand.turned)
            return flat_slam(trump, belle), 0, 0
    elif taken == 13:
        return SLAM_SEUL * m, 0, 0
    row = ROWS[bid]
    return row.base * m, row.extra * m * over, row.honours(hand.honours) * m


def failure_amount(hand: Hand, short: int, options: Any) -> int:
    """§3.5, in simples: a failed contract's payment to each adversary, `short` tricks under it.

    A misère pays its row whatever the tricks; a simple (solo or a partner's share) base + extra x short.
    """
    bid = hand.bid
    if bid in MISERES:
        return misere_amount(hand)
    trump = hand.trump
    assert trump is not None
    if bid == "neuf":
        neuf = options.neuf
        assert neuf is not None
        return neuf.base[trump] + neuf.extra[trump] * short
    row = ROWS[bid]
    return (row.base + row.extra * short) * SUIT_FACTOR[trump]


def settle_misere(deal: Deal, times: int) -> None:
    """No trick taken: each adversary pays the bidder, who takes the pool; else he pays each and doubles it."""
    bidder = deal.hand.bidder
    assert bidder is not None
    amount = misere_amount(deal.hand) * times
    if deal.hand.tricks[bidder] == 0:
        deal.each_pays(ADVERSARIES[bidder], bidder, amount, "contract")
        deal.pay(POOL, bidder, deal.pools.take_all(), "pool")
    else:
        deal.pays_each(bidder, ADVERSARIES[bidder], amount, "contract")
        deal.pay(bidder, POOL, deal.pools.double(), "pool")


def settle_alone(deal: Deal, state: Belle, times: int) -> None:
    """A forced solo, an independence or a neuf: each adversary pays the bidder, who takes the pool (§3.4);
    or he pays each adversary and doubles the pool (§3.5)."""
    hand = deal.hand
    bidder = hand.bidder
    assert bidder is not None
    taken = hand.tricks[bidder]
    short = TRICKS_NEEDED[hand.bid] - taken
    adversaries = ADVERSARIES[bidder]
    if short <= 0:
        contract, overtricks, honours = made_value(deal, state, taken, -short)
        deal.each_pays(adversaries, bidder, contract * times, "contract")
        deal.each_pays(adversaries, bidder, overtricks * times, "overtricks")
        deal.each_pays(adversaries, bidder, honours * times, "honours")
        deal.pay(POOL, bidder, deal.pools.take_all(), "pool")
    else:
        deal.pays_each(bidder, adversaries, failure_amount(hand, short, deal.options) * times, "contract")
        deal.pay(bidder, POOL, deal.pools.double(), "pool")


def settle_partners(deal: Deal, state: Belle, times: int) -> None:
    """An accepted simple: made, the other two pay by pairing and the partners share the pool (§3.4);
    failed, the partner short of his quota pays each opponent and doubles the pool, or both do (§3.5)."""
    hand, options, pools = deal.hand, deal.options, deal.pools
    bidder, partner, tricks = hand.bidder, hand.partner, hand.tricks
    assert bidder is not None and partner is not None
    taken = tricks[bidder] + tricks[partner]
    if taken >= DEMANDER_QUOTA + ACCEPTOR_QUOTA:
        contract, overtricks, honours = made_value(deal, state, taken, taken - DEMANDER_QUOTA - ACCEPTOR_QUOTA)
        for payer, payee in PAIRINGS[others(bidder, partner)]:
            deal.pay(payer, payee, contract * times, "contract")
            deal.pay(payer, payee, overtricks * times, "overtricks")
            deal.pay(payer, payee, honours * times, "honours")
        deal.divide_pool((bidder, partner), "pool")
        return
    opponents = others(bidder, partner)
    short = [
        (seat, quota) for seat, quota in ((bidder, DEMANDER_QUOTA), (partner, ACCEPTOR_QUOTA)) if tricks[seat] < quota
    ]
    if len(short) == 1:
        seat = short[0][0]
        amount = failure_amount(hand, DEMANDER_QUOTA + ACCEPTOR_QUOTA - taken, options) * times
        deal.pays_each(seat, opponents, amount, "contract")
        deal.pay(seat, POOL, pools.double(), "pool")
        return
    for seat, quota in short:
        deal.pays_each(seat, opponents, failure_amount(hand, quota - tricks[seat], options) * times, "contract")
    deal.pay_shared((bidder, partner), POOL, pools.double(), "pool")


def settle_revoke(deal: Deal, times: int) -> None:
    """§3.6: the revoker pays each adversary of his side a failure by max(1, s), and doubles the pool."""
    hand = deal.hand
    revoker, bidder, partner, tricks = hand.revoke, hand.bidder, hand.partner, hand.tricks
    assert revoker is not None and bidder is not None
    if partner is None:
        taken = tricks[bidder]
        adversaries = ADVERSARIES[bidder] if revoker == bidder else (bidder,)
    else:
        taken = tricks[bidder] + tricks[partner]
        adversaries = others(bidder, partner) if revoker in (bidder, partner) else (bidder, partner)
    shortfall = max(0, needed(hand) - taken)
    amount = failure_amount(hand, max(1, shortfall), deal.options) * times
    deal.pays_each(revoker, adversaries, amount, "penalty")
    deal.pay(revoker, POOL, deal.pools.double(), "penalty")


class French(Variant):
    declaration = DECLARATION

    forbidden_ids = {
        "conceded": "french.forbidden.conceded",
        "last_trick": "french.forbidden.last_trick",
        "partner": "french.forbidden.partner",
    }

    def forbidden_message(self, name: str, bid: Bid, options: Any) -> Message:
        if bid.kind == ALL_PASS and name not in self.forbidden_ids:
            return text("french.forbidden.pass", field=self.field_words(name))
        if bid.kind == EXACT and name in ("jack", "honours", "trump"):
            return text(MISERE_TRUMP if name == "trump" else f"french.forbidden.misere.{name}")
        if name == "honours":
            return text("french.forbidden.neuf_honours")
        return super().forbidden_message(name, bid, options)

    # settling (§3.7)
    def settle_deal(self, deal: Deal, state: Belle) -> None:
        hand = deal.hand
        times = 2 if deal.double else 1
        pay_ante(deal, DOUBLES_ANTE if deal.double else ANTE)
        bid = hand.bid
        if bid == "pass":
            return  # thrown in: no payment, no bonus
        if hand.revoke is not None:
            settle_revoke(deal, times)
        elif bid in MISERES:
            settle_misere(deal, times)
        elif hand.partner is None:
            settle_alone(deal, state, times)
        else:
            settle_partners(deal, state, times)
        if hand.jack is not None:  # required on trick contracts, absent in misères
            deal.each_pays(ADVERSARIES[hand.jack], hand.jack, JACK_BONUS * times, "jack")


VARIANT = French()
