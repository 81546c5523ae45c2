"""A deal's table-law event in words (rules.md §0.11, issue 42): what happened and what it cost each seat.

One function, `deal_note`, read by every page that shows a deal (the follower's card, the score sheet and
its print, the sheet's CSV, the treasurer's disputes), so that a player checks a revoke, a misdeal, a
bidder paying instead of playing or the ace turned before tapping ✓, in the same words everywhere. The
words come from the hand as recorded and the engine's settlement (its transfers), never from a template:
what a seat paid is the engine's number, summed per seat, not worked out again here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from ledger.elision import elide
from ledger.engine.variants import get_variant
from ledger.engine.variants.table_law import MISDEAL_CODE, OPTIONAL_BIDS

from .catalog import bid_label, pool_label

NBSP = "\u00a0"  # between a party and its amount: a phone wraps between parties, never inside one
MINUS = "\u2212"  # the sign of a negative amount, as the pages write it (`num`)
PAYS_INSTEAD = "bidder"  # `conceded: "bidder"`: the bidder paid instead of playing (rules.md §0.11)
KINDS = ("revoke", "misdeal", "pays_instead", "ace_turned", "optional_bid", "forfeit")


@dataclass(frozen=True)
class DealNote:
    """One event of a deal: `kind` (one of KINDS), its words, and what it moved per party (`seats`: four
    counter amounts, + received, − paid; `pool`: what went into the pool) as the engine settled it."""

    kind: str
    event: str
    seats: tuple[int, int, int, int]
    pool: int
    costs: str  # `seats` and `pool` in words: "Cleo −65 · Ann +20 · pool +5", or "nothing to pay"

    @property
    def text(self) -> str:
        """The event and its costs in one line: the score sheet's note, its CSV's column."""
        return gettext("%(event)s — %(costs)s") % {"event": self.event, "costs": self.costs}


def signed(n: int) -> str:
    """A counter amount with its sign, as the pages show it: +20, −65."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def _costs(variant: str, names: list[str], seats: list[int], pool: int, first: int | None, nothing: str) -> str:
    """Each party's net in the event, the culprit first, then the seats in order, then the pool."""
    order = ([first] if first is not None else []) + [s for s in range(4) if s != first]
    parts = [f"{names[s]}{NBSP}{signed(seats[s])}" for s in order if seats[s]]  # "Ann +20" never split
    if pool:
        parts.append(f"{pool_label(variant).lower()}{NBSP}{signed(pool)}")
    return " · ".join(parts) if parts else nothing


def _net(transfers: list[dict[str, Any]]) -> tuple[list[int], int]:
    seats, pool = [0, 0, 0, 0], 0
    for t in transfers:
        n = t["counters"]
        if t["from"] == "pool":
            pool -= n
        else:
            seats[t["from"]] -= n
        if t["to"] == "pool":
            pool += n
        else:
            seats[t["to"]] += n
    return seats, pool


def _note(
    kind: str,
    event: str,
    variant: str,
    names: list[str],
    moved: list[dict[str, Any]],
    first: int | None,
    nothing: str = "",
) -> DealNote:
    """`nothing`: what to say when the event moved no counter (default: "nothing to pay")."""
    seats, pool = _net(moved)
    costs = _costs(variant, names, seats, pool, first, nothing or gettext("nothing to pay"))
    return DealNote(kind, elide(event), (seats[0], seats[1], seats[2], seats[3]), pool, elide(costs))


def deal_notes(
    *,
    variant: str,
    rules: dict[str, Any] | None,
    first_dealer: int,
    raw: dict[str, Any],
    settled: dict[str, Any],
    names: list[str],
    forfeits: frozenset[int] = frozenset(),
    options: Any = None,
) -> list[DealNote]:
    """The table-law events of one deal (rules.md §0.11), each with what it cost each seat: a deal with
    none has an empty list. `raw` is the hand as recorded, `settled` the engine's settlement of it;
    `forfeits`, the dealers of the game's earlier misdeals under Russian `misdeal_forfeits_share`;
    `options`, the rules parsed once by a caller that words every deal of a sheet (else parsed here)."""
    bid = raw.get("bid", "")
    transfers: list[dict[str, Any]] = list(settled.get("transfers") or [])
    dealer = settled["dealer"]
    options = options if options is not None else get_variant(variant).parse_options(rules or {})
    notes: list[DealNote] = []
    if bid == MISDEAL_CODE:
        after = get_variant(variant).dealer(first_dealer, settled["number"] + 1)
        words = gettext("Misdeal by %(dealer)s: the deal passes to %(next)s") % {
            "dealer": names[dealer],
            "next": names[after],
        }
        moved = [t for t in transfers if t["reason"] == "penalty"]
        return [_note("misdeal", words, variant, names, moved, dealer)]
    remiz = getattr(options, "remiz", 0) or 0
    if raw.get("ace_turned") and remiz:  # «с ремизом» (002:108): paid before anything else
        taken = next(
            (t for t in transfers if t == {"from": dealer, "to": "pool", "counters": remiz, "reason": "penalty"}),
            None,
        )
        moved = [taken] if taken else []
        if taken:
            transfers.remove(taken)
        words = gettext("The dealer turned an ace: remiz into the basket")
        notes.append(_note("ace_turned", words, variant, names, moved, dealer))
    revoker = raw.get("revoke")
    bidder = raw.get("bidder")
    if isinstance(revoker, int) and 0 <= revoker < 4:
        moved = [t for t in transfers if t["reason"] == "penalty" and t["from"] == revoker]
        words = gettext("Revoke by %(name)s") % {"name": names[revoker]}
        nothing = ""
        if not moved and revoker in (bidder, raw.get("partner")):  # Russian: the buyer's side (002:194)
            words = gettext("Revoke by %(name)s: the bidder's side wins nothing") % {"name": names[revoker]}
            moved = [t for t in transfers if t["reason"] not in ("ante", "jack") and t["from"] == revoker]
            nothing = gettext("the contract is not paid")
        notes.append(_note("revoke", words, variant, names, moved, revoker, nothing))
    if raw.get("conceded") == PAYS_INSTEAD and isinstance(bidder, int):
        short = int(getattr(options, "pay_instead_short", 1) or 1)
        words = ngettext(
            "%(name)s pays instead of playing: as a failure by %(n)s trick",
            "%(name)s pays instead of playing: as a failure by %(n)s tricks",
            short,
        ) % {"name": names[bidder], "n": short}
        moved = [t for t in transfers if t["from"] == bidder and t["reason"] != "ante"]
        notes.append(_note("pays_instead", words, variant, names, moved, bidder))
    if bid in OPTIONAL_BIDS and isinstance(bidder, int):
        words = gettext("%(bid)s, a bid agreed before play") % {"bid": bid_label(variant, bid)}
        played = ("contract", "pool", "overtricks", "division")
        moved = [t for t in transfers if t["reason"] in played and bidder in (t["from"], t["to"])]
        notes.append(_note("optional_bid", words, variant, names, moved, bidder))
    divided = [t for t in transfers if t["reason"] == "division"]
    side = {seat for seat in (raw.get("bidder"), raw.get("partner")) if isinstance(seat, int)}  # never divides
    left_out = sorted(s for s in forfeits - side if divided and all(t["to"] != s for t in divided))
    for seat in left_out:  # 002:33 «лишали его доли в кассе»: the others divided the basket without him
        words = gettext("No share of the basket for %(name)s: a misdeal earlier in the game") % {"name": names[seat]}
        notes.append(_note("forfeit", words, variant, names, divided, None))
    return notes


def forfeiting(
    hands: dict[int, dict[str, Any]], rules: dict[str, Any] | None, dealers: dict[int, int]
) -> dict[int, frozenset[int]]:
    """Under Russian `misdeal_forfeits_share` (002:33), each hand's forfeiting seats: the dealers of the
    misdeals before it (`dealers`: each hand's dealer, by number)."""
    if (rules or {}).get("misdeal_forfeits_share") is not True:
        return {}
    out, seen = {}, frozenset[int]()
    for number in sorted(hands):
        out[number] = seen
        if hands[number].get("bid") == MISDEAL_CODE:
            seen = seen | {dealers[number]}
    return out


def game_deals(hands: dict[int, dict[str, Any]]) -> dict[int, int]:
    """Each hand's deal of the game (rules.md §0.2, §0.11): a misdeal is a hand of the sheet, not a deal of
    the game, so the hands after one are a deal behind their number. A misdeal's own entry is the deal it
    stands before. `hands`: each hand as recorded, by its number."""
    out, deals = {}, 0
    for number in sorted(hands):
        out[number] = deals + 1
        if hands[number].get("bid") != MISDEAL_CODE:
            deals += 1
    return out


def claims_lapse(rules: dict[str, Any] | None) -> bool:
    """Whether the table plays Russian `claims_lapse` (002:189): a deal stands once the next is recorded."""
    return (rules or {}).get("claims_lapse") is True


def lapsed_words(number: int) -> str:
    """Why a deal can no longer be amended, and what the treasurer can do instead (the amend's refusal,
    409 `claim_lapsed`, said before anyone asks)."""
    return gettext(
        "Claims on deal %(n)s lapsed when deal %(next)s was recorded (house rule “Claims lapse”): it can no "
        "longer be amended. A treasurer can record the correction as an adjustment into the basket on the "
        "next deal."
    ) % {"n": number, "next": number + 1}


def open_claim_words(number: int) -> str:
    """The last deal under `claims_lapse`: its claims close when the next deal is recorded."""
    return pgettext("claims lapse", "Claims on deal %(n)s lapse once deal %(next)s is recorded: check it now.") % {
        "n": number,
        "next": number + 1,
    }
