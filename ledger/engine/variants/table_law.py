"""Table law (`rules.md` §0.11): what happens at a real table, priced once for every variant.

A revoke, a misdeal that passes the deal, a bidder who pays instead of playing, and the Russian
conditions agreed before play. The variants keep their own tables (a failure's amount, a contract's
value); this module says who pays whom with them, so the law reads the same in every variant. A
variant calls it from small hooks in its `settle_deal` and declares the options and bids it adds with
the builders below.
"""

from __future__ import annotations

from ..deal import Deal
from ..messages import register
from ..seats import POOL, others
from .declaration import ANY_SUIT, BOOLEAN, EXACT, INTEGER, MISDEAL, OBJECT, TRICKS, Bid, O, Option, R

MISDEAL_CODE = "misdeal"

register(
    {
        "option.misdeal_penalty": "Misdeal penalty",
        "option.pay_instead_short": "Paying instead of playing",
        "option.pay_instead_short.help": (
            "a bidder who pays instead of playing pays as if his contract failed by this many tricks"
        ),
        "option.misdeal_penalty.help": "what the dealer of a misdeal pays into the pool; the deal passes on",
        "russian.option.misdeal_penalty.help": "what the dealer of a misdeal pays into the basket; the deal passes on",
        "american.bid.misdeal": "misdeal",
        "fontainebleau.bid.misdeal": "misdeal",
        "french.bid.misdeal": "misdeal",
        "russian.bid.misdeal": "misdeal (промах сдатчика)",
        "russian.option.misdeal_forfeits_share": "Misdealer loses his share",
        "russian.option.misdeal_forfeits_share.help": (
            "the dealer of a misdeal gets no share when the basket is divided later in the game"
        ),
    }
)

# --- a revoke (§0.11, "Revoke in every variant") ----------------------------------------------------


def revoke_adversaries(revoker: int, side: tuple[int, ...]) -> tuple[int, ...]:
    """The adversaries of the revoker's side: the opponents when he is on the bidder's side, else the
    bidder's side itself."""
    return others(*side) if revoker in side else side


def pay_revoke(deal: Deal, side: tuple[int, ...], amount: int) -> None:
    """Boston's law of the revoke ("double the pool, and pay both adversaries", 001:71), in place of the
    contract's settlement: the revoker alone pays each adversary of his side `amount` (the contract's
    failure for max(1, s) tricks short, worked by the variant's own table), and an amount equal to the
    pools into them (reason `penalty`). No pool is won that deal."""
    revoker = deal.hand.revoke
    assert revoker is not None
    deal.pays_each(revoker, revoke_adversaries(revoker, side), amount, "penalty")
    held = deal.pools.total
    deal.pay(revoker, POOL, held, "penalty")
    deal.pools.feed(held)  # American: into the newest pool, fed like an ante (§1.5)


def revoke_shortfall(deal: Deal, side: tuple[int, ...], needed: int) -> int:
    """max(1, s): the tricks short the revoke is priced at, s being the side's actual shortfall (0 if
    made or conceded)."""
    hand = deal.hand
    if hand.conceded is True:
        return 1
    taken = sum(hand.tricks[seat] for seat in side)
    return max(1, needed - taken)


def pay_opponent_revoke(deal: Deal, side: tuple[int, ...], amount: int) -> None:
    """Russian, a revoke by an opponent (§0.11): the contract is paid as made with exactly its quota,
    `amount` from each opponent to the player he pays, and the revoker alone pays what his whole side
    would have paid. Each winner of `side` gets amount × opponents / winners from him."""
    revoker = deal.hand.revoke
    assert revoker is not None
    opponents = others(*side)
    deal.pays_each(revoker, side, amount * len(opponents) // len(side), "penalty")


# --- a misdeal that passes the deal (§0.11) ---------------------------------------------------------


def misdeal_bid(variant: str) -> Bid:
    """The `misdeal` bid, last in a variant's list: no field but `number` and `adjustments`."""
    return Bid(code=MISDEAL_CODE, label=f"{variant}.bid.misdeal", kind=MISDEAL, fields={})


def misdeal_penalty(default: int, help: str = "option.misdeal_penalty.help") -> Option:
    """Option `misdeal_penalty`: what the dealer of a `misdeal` hand pays into the pool."""
    return Option("misdeal_penalty", INTEGER, default, "option.misdeal_penalty", help, minimum=0)


def misdeal_forfeits_share() -> Option:
    """Russian option `misdeal_forfeits_share` («строгие ревнители правил», 002:33)."""
    return Option(
        "misdeal_forfeits_share",
        BOOLEAN,
        False,
        "russian.option.misdeal_forfeits_share",
        "russian.option.misdeal_forfeits_share.help",
    )


# --- paying instead of playing (§0.11) ----------------------------------------------------------------


def pay_instead_short() -> Option:
    """Option `pay_instead_short` (integer 1-13, default 1: the least loss; house default)."""
    return Option(
        "pay_instead_short",
        INTEGER,
        1,
        "option.pay_instead_short",
        "option.pay_instead_short.help",
        minimum=1,
        maximum=13,
    )


def taken_instead(deal: Deal, needed: int) -> int:
    """The tricks a bidder who paid instead of playing is settled as having taken: his contract failed by
    `pay_instead_short` tricks, at most by all of them (no contract can fail by more than its number)."""
    return max(0, needed - deal.options.pay_instead_short)


def settle_misdeal(deal: Deal) -> None:
    """A misdeal that passes the deal: no ante, no basket formed, only the dealer's `misdeal_penalty` into
    the pool (reason `penalty`; American: fed like an ante)."""
    penalty = deal.options.misdeal_penalty
    deal.pay(deal.dealer, POOL, penalty, "penalty")
    deal.pools.feed(penalty)


# --- the Russian conditions agreed before play (§0.11, 002:104-122) -----------------------------------

REMIZ_FIELD = {"ace_turned": O}  # every Russian bid but the misdeal may record the ace turned...
REMIZ_RULE = {"ace_turned": "remiz"}  # ...which counts only with the house rule `remiz` (0: off)
OPEN_MISERES = ("open_misere", "grand_open_misere")
OPTIONAL_BIDS = frozenset((*OPEN_MISERES, "souverain", "grand_souverain"))
# Amounts under which every optional bid may be played (the samples, the properties, the benchmarks).
RUSSIAN_PLAYABLE = {
    "open_misere": 60,
    "grand_open_misere": 80,
    "souverain": {"made": 100, "failed": 100},
    "grand_souverain": {"made": 150, "failed": 150},
}

register(
    {
        "russian.option.remiz": "Remiz (ace turned)",
        "russian.option.remiz.help": (
            "«с ремизом»: chips the dealer pays into the basket when he turns up an ace; 0: not played"
        ),
        "russian.option.labet": "Labet",
        "russian.option.labet.help": "a failed contract pays into the basket what it holds; off: it pays nothing in",
        "russian.option.solo": "Solo (индепанданс)",
        "russian.option.solo.help": "the solo, eight tricks alone, may be bid",
        "russian.option.open_misere": "Open petit misère amount",
        "russian.option.open_misere.help": (
            "chips per opponent for an open petit misère (петит-мизер уверт); needed only if one is played"
        ),
        "russian.option.grand_open_misere": "Open grand misère amount",
        "russian.option.grand_open_misere.help": (
            "chips per opponent for an open grand misère (гран-мизер уверт), times the tricks taken when it "
            "fails; needed only if one is played"
        ),
        "russian.option.souverain": "Souverain amounts",
        "russian.option.souverain.help": (
            "chips per opponent at the младшая rate, made and failed, for a souverain (12 tricks); needed only "
            "if one is played"
        ),
        "russian.option.grand_souverain": "Grand souverain amounts",
        "russian.option.grand_souverain.help": (
            "chips per opponent at the младшая rate, made and failed, for a grand souverain (13 tricks, cards "
            "closed); needed only if one is played"
        ),
        "russian.option.claims_lapse": "Claims lapse",
        "russian.option.claims_lapse.help": (
            "a deal can be amended only until the next deal is recorded; a later correction is an adjustment "
            "into the basket"
        ),
        # The Russian names keep a non-breaking hyphen (U+2011): a bid button wraps between words, never
        # inside "петит‑мизер" (tests/browser/test_touch_targets.py).
        "russian.bid.open_misere": "open petit misère (петит‑мизер уверт)",
        "russian.bid.grand_open_misere": "open grand misère (гран‑мизер уверт)",
        "russian.bid.souverain": "souverain (суверен)",
        "russian.bid.grand_souverain": "grand souverain (гран‑суверен)",
    }
)


def _amount(name: str) -> Option:
    return Option(name, INTEGER, None, f"russian.option.{name}", f"russian.option.{name}.help", minimum=0)


def _made_failed(name: str) -> Option:
    label, help_id = f"russian.option.{name}", f"russian.option.{name}.help"
    return Option(name, OBJECT, None, label, help_id, minimum=0, parts=("made", "failed"))


RUSSIAN_CONDITIONS = (
    Option("remiz", INTEGER, 0, "russian.option.remiz", "russian.option.remiz.help", minimum=0),
    Option("labet", BOOLEAN, True, "russian.option.labet", "russian.option.labet.help"),
    Option("solo", BOOLEAN, True, "russian.option.solo", "russian.option.solo.help"),
    _amount("open_misere"),
    _amount("grand_open_misere"),
    _made_failed("souverain"),
    _made_failed("grand_souverain"),
    # 002:189: the engine is not affected; the service refuses an amendment once the next deal is recorded.
    Option("claims_lapse", BOOLEAN, False, "russian.option.claims_lapse", "russian.option.claims_lapse.help"),
)

_MISERE_FIELDS = {"bidder": R, "tricks": R, "jack": R, "revoke": O, "turned": R, **REMIZ_FIELD}
_SOUVERAIN_FIELDS = {"bidder": R, "trump": R, "tricks": R, "jack": R, "revoke": O, "turned": R, **REMIZ_FIELD}
RUSSIAN_BIDS = (
    Bid(
        code="open_misere",
        label="russian.bid.open_misere",
        kind=EXACT,
        fields=_MISERE_FIELDS,
        tricks=0,
        discard=True,
        needs_option="open_misere",
        field_options=REMIZ_RULE,
    ),
    Bid(
        code="grand_open_misere",
        label="russian.bid.grand_open_misere",
        kind=EXACT,
        fields=_MISERE_FIELDS,
        tricks=0,
        needs_option="grand_open_misere",
        field_options=REMIZ_RULE,
    ),
    Bid(
        code="souverain",
        label="russian.bid.souverain",
        kind=TRICKS,
        fields=_SOUVERAIN_FIELDS,
        tricks=12,
        trumps=ANY_SUIT,
        needs_option="souverain",
        field_options=REMIZ_RULE,
    ),
    Bid(
        code="grand_souverain",
        label="russian.bid.grand_souverain",
        kind=TRICKS,
        fields=_SOUVERAIN_FIELDS,
        tricks=13,
        trumps=ANY_SUIT,
        needs_option="grand_souverain",
        field_options=REMIZ_RULE,
    ),
)


def pay_remiz(deal: Deal) -> None:
    """«С ремизом» (002:108): the dealer who turned an ace pays `remiz` into the basket, after it is formed
    and before anything else, so that an all-pass doubling doubles it (reason `penalty`; not doubled in
    the double tours: it is the table's fixed amount)."""
    remiz = deal.options.remiz
    deal.pay(deal.dealer, POOL, remiz, "penalty")
    deal.pools.feed(remiz)
