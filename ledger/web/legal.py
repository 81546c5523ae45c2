"""What the scorer may offer for a deal under one session's rules: the bids allowed on each deal, each
bid's fields, its allowed trumps and how its tricks add up.

The scorer form offers only these, so a scorer cannot enter what the engine would refuse (a last-trick
hand with the option off, a neuf without its amounts, a French simple in a third suit). Everything is
read from the engine's variant (its field tables, `required_option`, `check_hand`, the option values);
the browser looks it up and never works rules out. It gives way to the variant declarations and the
session's `next` once the API serves them.
"""

from __future__ import annotations

from typing import Any

from ledger.engine.sheet import SUITS, Hand
from ledger.engine.variants import get_variant
from ledger.engine.variants.base import DISCARD_BIDS, R

# The bids whose trump must be belle/старшая or this deal's turned suit (the simple of both games).
BELLE_OR_TURNED = {"french": {"simple"}, "russian": {"simple"}}
# The suit fixed by deal 1's turned card, and what the table calls it.
BELLE_NAME = {"french": "belle", "russian": "старшая (belle)"}
MODES = {R: "required", "O": "optional"}


def bid_rules(name: str, rules: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each bid's fields under the session's options, its trumps and its trick total."""
    variant = get_variant(name)
    options = variant.parse_options(rules)
    out: dict[str, dict[str, Any]] = {}
    for bid in variant.bids:
        table = dict(variant.fields[bid])
        if name == "fontainebleau" and not getattr(options, "honours", False):
            table.pop("honours", None)  # honours count only with the house rule on
        trumps: Any = None
        if "trump" in table:
            trumps = "belle_or_turned" if bid in BELLE_OR_TURNED.get(name, set()) else list(SUITS)
            if variant.no_trump and trumps != "belle_or_turned":
                trumps = [*trumps, "none"]
        exact = bid == "pass" or bid in variant.trick_bids
        out[bid] = {
            "fields": {f: MODES[m] for f, m in table.items()},
            "trumps": trumps,
            "tricks": {"total": 12 if bid in DISCARD_BIDS else 13, "exact": exact},
            "partner": "partner" in table,
        }
    return out


def bids_allowed(name: str, rules: dict[str, Any], number: int) -> list[str]:
    """The bids the engine would take on deal `number` (in rank order): those needing a missing option,
    or refused on that deal by number (American's last-trick hand), are left out."""
    variant = get_variant(name)
    options = variant.parse_options(rules)
    allowed = []
    for bid in variant.bids:
        probe = Hand(bid, bidder=0, trump="spades", turned="spades")
        if variant.required_option(probe, options) is not None:
            continue
        if name == "american" and "bid" in variant.check_hand(probe, number, options, None):
            continue
        allowed.append(bid)
    return allowed


def deal_bids(name: str, rules: dict[str, Any], deals: list[dict[str, Any]]) -> None:
    """Add to each deal of the deal table the bids allowed on it (the scorer numbers deals offline too)."""
    for deal in deals:
        deal["bids"] = bids_allowed(name, rules, deal["number"])


def scorer_legal(name: str, rules: dict[str, Any]) -> dict[str, Any]:
    """The scorer page's rules: each bid's details under the session's options, belle's name."""
    return {
        "bid_rules": bid_rules(name, rules),
        "belle": BELLE_NAME.get(name),
    }
