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

from ..messages import Message, register, text
from ..sheet import POOL, SUIT_SYMBOLS, Hand
from .base import Belle, Deal, Variant, others, pairing, split_joint
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

# --- the suits -------------------------------------------------------------------------------------

# §3.1: the rank of the suits is permanent, hearts highest; m is a suit's factor in the table.
SUIT_FACTOR = {"spades": 1, "clubs": 2, "diamonds": 3, "hearts": 4}


def suit_factor(suit: str) -> int:
    return SUIT_FACTOR[suit]


# --- the table of payments (§3.3) ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    """A trick contract's lines of the table, in m: base, three honours, four honours, each extra trick."""

    base: int
    three_honours: int
    four_honours: int
    extra: int

    def honours(self, held: int) -> int:
        return {0: 0, 3: self.three_honours, 4: self.four_honours}[held]


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
BIDS = (
    "simple",
    "independence_six",
    "little_misere",
    "independence_eight",
    "grand_misere",
    "misere_four_aces",
    "neuf",
    "little_spread",
    "grand_spread",
    "pass",
)
TRICK_BIDS = frozenset({"simple", "neuf", *INDEPENDENCES})

_SIMPLE_FIELDS = {
    "bidder": R,
    "trump": R,
    "tricks": R,
    "partner": O,
    "honours": O,
    "jack": R,
    "revoke": O,
    "turned": R,
}
_INDEPENDENCE_FIELDS = {"bidder": R, "trump": R, "tricks": R, "honours": O, "jack": R, "revoke": O, "turned": R}
_NEUF_FIELDS = {"bidder": R, "trump": R, "tricks": R, "jack": R, "revoke": O, "turned": R}
_MISERE_FIELDS = {"bidder": R, "tricks": R, "revoke": O, "turned": R}
BID_LABELS = {
    "simple": "simple",
    "independence_six": "independence (6)",
    "little_misere": "little misère",
    "independence_eight": "independence (8)",
    "grand_misere": "grand misère",
    "misere_four_aces": "misère of four aces",
    "neuf": "neuf",
    "little_spread": "little spread",
    "grand_spread": "grand spread",
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
        "french.forbidden.misere.trump": "a misère is played without trumps: leave the trump empty",
        "french.forbidden.neuf_honours": "the neuf has no honours row in the table: leave honours empty",
        "french.option.neuf": "Neuf amounts",
        "french.option.neuf.help": (
            "counters per adversary for a neuf, per trump suit: base for nine tricks, extra per trick "
            "over or short; needed only if a neuf is played"
        ),
        "french.ante": (
            f"the dealer pays {ANTE} into the pool at the start of every deal, {DOUBLES_ANTE} in the doubles"
        ),
        **{f"french.bid.{bid}": label for bid, label in BID_LABELS.items()},
    }
)


def _bid(code: str) -> Bid:
    label = f"french.bid.{code}"
    if code == "simple":
        return Bid(
            code,
            label,
            TRICKS,
            _SIMPLE_FIELDS,
            tricks=FORCED_SOLO_TRICKS,
            pair_tricks=DEMANDER_QUOTA + ACCEPTOR_QUOTA,
            trumps=BELLE_OR_PETITE,
        )
    if code in INDEPENDENCES:
        return Bid(code, label, TRICKS, _INDEPENDENCE_FIELDS, tricks=INDEPENDENCES[code][0], trumps=ANY_SUIT)
    if code == "neuf":
        return Bid(code, label, TRICKS, _NEUF_FIELDS, tricks=NEUF_TRICKS, trumps=ANY_SUIT, needs_option="neuf")
    if code in MISERES:
        return Bid(code, label, EXACT, _MISERE_FIELDS, tricks=0, discard=code in ("little_misere", "little_spread"))
    return Bid(code, label, ALL_PASS, {"turned": R})


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
    ),
    bids=tuple(_bid(code) for code in BIDS),
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

# --- belle and petite ------------------------------------------------------------------------------


# --- settling --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Value:
    """What each adversary pays on a made contract, in counters, split by reason."""

    contract: int
    overtricks: int = 0
    honours: int = 0


def flat_slam(trump: str, belle: str) -> int:
    return FLAT_SLAM_BELLE if trump == belle else FLAT_SLAM_PETITE


def side_of(hand: Hand) -> tuple[int, ...]:
    """The bidder's side: the bidder, and his partner if a simple was accepted."""
    assert hand.bidder is not None
    return (hand.bidder,) if hand.partner is None else (hand.bidder, hand.partner)


def needed(hand: Hand) -> int:
    """The tricks the bidder's side must take."""
    if hand.bid == "simple":
        return DEMANDER_QUOTA + ACCEPTOR_QUOTA if hand.partner is not None else FORCED_SOLO_TRICKS
    if hand.bid == "neuf":
        return NEUF_TRICKS
    if hand.bid in INDEPENDENCES:
        return INDEPENDENCES[hand.bid][0]
    return 0  # a misère: no trick at all


def side_tricks(hand: Hand) -> int:
    return sum(hand.tricks[seat] for seat in side_of(hand))


def is_made(hand: Hand) -> bool:
    if hand.bid in MISERES:
        return hand.tricks[hand.bidder] == 0  # type: ignore[index]
    return side_tricks(hand) >= needed(hand)


def made_value(hand: Hand, belle: str, options: Any) -> Value:
    """§3.4, in simples: what each adversary pays the bidder's side for a made contract."""
    bid = hand.bid
    if bid in MISERES:
        return Value(MISERES[bid] * suit_factor(hand.turned))  # type: ignore[arg-type]
    trump = hand.trump
    assert trump is not None
    taken = side_tricks(hand)
    over = taken - needed(hand)
    if bid == "neuf":
        neuf = options.neuf
        assert neuf is not None
        return Value(neuf.base[trump], neuf.extra[trump] * over)
    m = suit_factor(trump)
    if bid == "simple":
        if (hand.partner is None and taken >= FORCED_SOLO_SLAM) or taken == 13:
            return Value(flat_slam(trump, belle))
        row = FIVE_ALONE_OR_PARTNERS_EIGHT
    else:
        if taken == 13:
            return Value(SLAM_SEUL * m)
        row = INDEPENDENCES[bid][1]
    return Value(row.base * m, row.extra * m * over, row.honours(hand.honours) * m)


def failure_amount(hand: Hand, short: int, options: Any) -> int:
    """§3.5, in simples: a failed contract's payment to each adversary, `short` tricks under it.

    A misère pays its row whatever the tricks; a simple (solo or a partner's share) base + extra x short.
    """
    bid = hand.bid
    if bid in MISERES:
        return MISERES[bid] * suit_factor(hand.turned)  # type: ignore[arg-type]
    trump = hand.trump
    assert trump is not None
    if bid == "neuf":
        neuf = options.neuf
        assert neuf is not None
        return neuf.base[trump] + neuf.extra[trump] * short
    row = FIVE_ALONE_OR_PARTNERS_EIGHT if bid == "simple" else INDEPENDENCES[bid][1]
    return (row.base + row.extra * short) * suit_factor(trump)


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
            return text(f"french.forbidden.misere.{name}")
        if name == "honours":
            return text("french.forbidden.neuf_honours")
        return super().forbidden_message(name, bid, options)

    # settling (§3.7)
    def settle_deal(self, deal: Deal, state: Belle) -> None:
        hand = deal.hand
        assert hand.turned is not None
        belle, _petite = state.suits_of(deal.number, hand.turned)
        ante = DOUBLES_ANTE if deal.double else ANTE
        deal.pay(deal.dealer, POOL, ante, "ante")
        deal.pools.feed(ante)
        if hand.bid == "pass":
            return  # thrown in: no payment, no bonus
        times = 2 if deal.double else 1
        if hand.revoke is not None:
            self.settle_revoke(deal, times)
        elif is_made(hand):
            self.settle_made(deal, belle, times)
        else:
            self.settle_failure(deal, times)
        if hand.jack is not None:  # required on trick contracts, absent in misères
            deal.pay_each(others(hand.jack), hand.jack, JACK_BONUS * times, "jack")

    def settle_made(self, deal: Deal, belle: str, times: int) -> None:
        """§3.4: each adversary pays (a pair by pairing); the bidder takes the pool, partners share it."""
        hand = deal.hand
        value = made_value(hand, belle, deal.options)
        side = side_of(hand)
        payments: tuple[tuple[int, int], ...]
        if len(side) == 2:
            payments = pairing(others(*side))
        else:
            payments = tuple((adversary, side[0]) for adversary in others(*side))
        for payer, payee in payments:
            deal.pay(payer, payee, value.contract * times, "contract")
            deal.pay(payer, payee, value.overtricks * times, "overtricks")
            deal.pay(payer, payee, value.honours * times, "honours")
        if len(side) == 2:
            deal.divide_pool(side, "pool")
        else:
            deal.pay(POOL, side[0], deal.pools.take_all(), "pool")

    def settle_failure(self, deal: Deal, times: int) -> None:
        """§3.5: the bidder (or the partner short of his quota) pays each adversary and doubles the pool."""
        hand, options, pools = deal.hand, deal.options, deal.pools
        bidder, partner = hand.bidder, hand.partner
        assert bidder is not None
        if partner is None:
            amount = failure_amount(hand, needed(hand) - hand.tricks[bidder], options) * times
            for adversary in others(bidder):
                deal.pay(bidder, adversary, amount, "contract")
            deal.pay(bidder, POOL, pools.double(), "pool")
            return
        opponents = others(bidder, partner)
        short = [
            (seat, quota)
            for seat, quota in ((bidder, DEMANDER_QUOTA), (partner, ACCEPTOR_QUOTA))
            if hand.tricks[seat] < quota
        ]
        if len(short) == 1:
            seat = short[0][0]
            amount = failure_amount(hand, needed(hand) - side_tricks(hand), options) * times
            for opponent in opponents:
                deal.pay(seat, opponent, amount, "contract")
            deal.pay(seat, POOL, pools.double(), "pool")
            return
        for seat, quota in short:
            amount = failure_amount(hand, quota - hand.tricks[seat], options) * times
            for opponent in opponents:
                deal.pay(seat, opponent, amount, "contract")
        bidder_share, partner_share = split_joint(pools.double())
        deal.pay(bidder, POOL, bidder_share, "pool")
        deal.pay(partner, POOL, partner_share, "pool")

    def settle_revoke(self, deal: Deal, times: int) -> None:
        """§3.6: the revoker pays each adversary of his side a failure by max(1, s), and doubles the pool."""
        hand = deal.hand
        revoker = hand.revoke
        assert revoker is not None
        side = side_of(hand)
        adversaries = others(*side) if revoker in side else side
        shortfall = max(0, needed(hand) - side_tricks(hand))
        amount = failure_amount(hand, max(1, shortfall), deal.options) * times
        for adversary in adversaries:
            deal.pay(revoker, adversary, amount, "penalty")
        deal.pay(revoker, POOL, deal.pools.double(), "penalty")


VARIANT = French()
