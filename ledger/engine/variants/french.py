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

from ..sheet import POOL, SUITS, Hand, is_int
from .base import SUIT_LIST, Deal, O, R, Variant, others, pairing, parse_options, split_joint

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
FIELDS = {
    "simple": _SIMPLE_FIELDS,
    **{bid: _INDEPENDENCE_FIELDS for bid in INDEPENDENCES},
    "neuf": _NEUF_FIELDS,
    **{bid: _MISERE_FIELDS for bid in MISERES},
    "pass": {"turned": R},
}

# --- options (§3.1) --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NeufAmounts:
    """The table's neuf, per trump suit: `base` for nine tricks, `extra` per trick over or short."""

    base: dict[str, int]
    extra: dict[str, int]


@dataclass(frozen=True, slots=True)
class Options:
    neuf: NeufAmounts | None = None


_NEUF_SHAPE = 'an object {"base": {...}, "extra": {...}}, each with spades, clubs, diamonds and hearts'


def _suit_amounts(value: Any, part: str) -> dict[str, int]:
    if not isinstance(value, dict) or set(value) != set(SUITS):
        raise ValueError(f"`{part}` must give exactly spades, clubs, diamonds and hearts ({_NEUF_SHAPE})")
    for suit in SUITS:
        if not is_int(value[suit]) or value[suit] < 0:
            raise ValueError(f"`{part}.{suit}` must be a whole number of counters, 0 or more")
    return {suit: value[suit] for suit in SUITS}


def _neuf(value: Any) -> NeufAmounts | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"base", "extra"}:
        raise ValueError(f"must be {_NEUF_SHAPE}")
    return NeufAmounts(_suit_amounts(value["base"], "base"), _suit_amounts(value["extra"], "extra"))


OPTION_CHECKS = {"neuf": (_neuf, None)}
NEUF_REQUIRED = "a neuf needs the table's neuf amounts (rules.neuf)"

# --- belle and petite ------------------------------------------------------------------------------


@dataclass(slots=True)
class BelleAndPetite:
    """The session's memory: belle (deal 1's turned suit, for the whole game) and the last deal's petite."""

    belle: str | None = None
    petite: str | None = None

    def suits_of(self, number: int, turned: str) -> tuple[str, str | None]:
        """(belle, petite) of deal `number` with `turned` up, without recording them.

        No petite on deal 1, nor when belle is turned again.
        """
        belle = turned if number == 1 or self.belle is None else self.belle
        petite = None if number == 1 or turned == belle else turned
        return belle, petite


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


def made_value(hand: Hand, belle: str, options: Options) -> Value:
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


def failure_amount(hand: Hand, short: int, options: Options) -> int:
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
    name = "french"
    title = "French Boston"
    bids = BIDS
    fields = FIELDS
    trick_bids = TRICK_BIDS
    deal_step = 3  # the deal passes to the right

    def parse_options(self, raw: Any) -> Options:
        return parse_options(raw, OPTION_CHECKS, Options)

    def is_double(self, number: int) -> bool:
        return FIRST_DOUBLE <= number <= LAST_DOUBLE

    def new_state(self) -> BelleAndPetite:
        return BelleAndPetite()

    # hand checks
    def required_message(self, name: str, bid: str) -> str:
        if name == "turned":
            return f"`turned` is required: {SUIT_LIST}"
        return super().required_message(name, bid)

    def forbidden_message(self, name: str, bid: str) -> str:
        thrown_in = bid == "pass"
        misere = bid in MISERES
        if name == "conceded":
            return "`conceded` is not used in French Boston: every contract is played out"
        if name == "last_trick":
            return "`last_trick` is not used in French Boston: it has no last-trick hand"
        if thrown_in:
            return f"`{name}` must be absent: on a thrown-in deal (pass) nothing is played or paid"
        if name == "partner":
            return f"`partner` must be absent: {bid} is played alone; only a simple takes a partner"
        if name == "jack" and misere:
            return "`jack` must be absent: the ♦J has no value in a misère"
        if name == "honours":
            if misere:
                return "`honours` must be absent: a misère has no trumps, so no honours"
            return "`honours` must be absent: the neuf has no honours row in the table"
        if name == "trump" and misere:
            return "`trump` must be absent: a misère is played without trumps"
        return super().forbidden_message(name, bid)

    def check_hand(self, hand: Hand, number: int, options: Options, state: BelleAndPetite) -> dict[str, list[str]]:
        if hand.bid != "simple":
            return {}
        assert hand.turned is not None
        belle, petite = state.suits_of(number, hand.turned)
        if hand.trump in (belle, petite):
            return {}
        if petite is not None:
            why = f"belle ({belle}) or petite ({petite}, this deal's turned suit), not {hand.trump}"
        elif number == 1:
            why = f"belle ({belle}, the suit turned on deal 1), not {hand.trump}: deal 1 has no petite"
        else:
            why = f"belle ({belle}), not {hand.trump}: belle was turned again, so this deal has no petite"
        return {"trump": [f"a simple's `trump` must be {why}"]}

    def required_option(self, hand: Hand, options: Options) -> tuple[str, str] | None:
        if hand.bid == "neuf" and options.neuf is None:
            return "rules.neuf", NEUF_REQUIRED
        return None

    # settling (§3.7)
    def settle_deal(self, deal: Deal, state: BelleAndPetite) -> None:
        hand = deal.hand
        assert hand.turned is not None
        state.belle, state.petite = state.suits_of(deal.number, hand.turned)
        ante = DOUBLES_ANTE if deal.double else ANTE
        deal.pay(deal.dealer, POOL, ante, "ante")
        deal.pools.feed(ante)
        if hand.bid == "pass":
            return  # thrown in: no payment, no bonus
        times = 2 if deal.double else 1
        if hand.revoke is not None:
            self.settle_revoke(deal, times)
        elif is_made(hand):
            self.settle_made(deal, state.belle, times)
        else:
            self.settle_failure(deal, times)
        if hand.jack is not None:  # required on trick contracts, absent in misères
            deal.pay_each(others(hand.jack), hand.jack, JACK_BONUS * times, "jack")

    def settle_made(self, deal: Deal, belle: str, times: int) -> None:
        """§3.4: each adversary pays (a pair by pairing); the bidder takes the pool, partners share it."""
        hand = deal.hand
        value = made_value(hand, belle, deal.options)
        side = side_of(hand)
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
