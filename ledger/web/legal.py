"""What the scorer may offer for a deal under one session's rules: the bids allowed on each deal, each
bid's fields, its allowed trumps and how its tricks add up.

The scorer form offers only these, so a scorer cannot enter what the engine would refuse (a last-trick
hand with the option off, a neuf without its amounts, a French simple in a third suit). Everything is
read from the variant's declaration, the object the engine validates by, under the session's options;
the browser looks it up and never works rules out.
"""

from __future__ import annotations

from typing import Any

from ledger.engine.cards import SUITS
from ledger.engine.variants import get_variant
from ledger.engine.variants.declaration import (
    ALL_PASS,
    BELLE_OR_PETITE,
    FORBIDDEN,
    SUIT_OR_NONE,
    TABLE_FIELDS,
    TRICKS,
)
from ledger.i18n import bids_said, label, prose


def bid_rules(name: str, rules: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each bid's fields under the session's options, its trumps and its trick total."""
    variant = get_variant(name)
    options = variant.parse_options(rules)
    out: dict[str, dict[str, Any]] = {}
    for bid in variant.declaration.bids:
        fields = {f: bid.mode(f, options) for f in TABLE_FIELDS if bid.mode(f, options) != FORBIDDEN}
        trumps: Any = None
        if "trump" in fields:
            if bid.trumps == BELLE_OR_PETITE:
                trumps = "belle_or_turned"
            else:
                trumps = [*SUITS, "none"] if bid.trumps == SUIT_OR_NONE else list(SUITS)
        out[bid.code] = {
            "fields": fields,
            "trumps": trumps,
            "tricks": {"total": 12 if bid.discard else 13, "exact": bid.kind in (ALL_PASS, TRICKS)},
            "partner": "partner" in fields,
        }
    return out


def bids_allowed(name: str, rules: dict[str, Any], number: int) -> list[str]:
    """The bids the engine would take on deal `number` (in rank order): those needing a missing option,
    or refused on that deal by number (American's last-trick hand), are left out."""
    variant = get_variant(name)
    return [bid["code"] for bid in variant.legal_bids(number, variant.parse_options(rules), None)]


def deal_bids(name: str, rules: dict[str, Any], deals: list[dict[str, Any]], first: dict[str, Any] | None) -> None:
    """Add to each deal of the deal table the bids allowed on it, and `legal`: what the session API's
    `next_legal` says for a deal (each bid's fields and trumps, from the declaration), as it would say it
    when that deal comes. The scorer reads `next_legal` for the next deal; this table serves the deals
    it numbers itself (waiting offline) and the deals it amends. `first`: deal 1 as recorded, if it is."""
    variant = get_variant(name)
    options = variant.parse_options(rules)
    state = variant.recall(first)
    for deal in deals:
        deal["legal"] = bids_said(variant.declaration, variant.legal_bids(deal["number"], options, state))
        deal["bids"] = [bid["code"] for bid in deal["legal"]]


def scorer_legal(name: str, rules: dict[str, Any]) -> dict[str, Any]:
    """The scorer page's rules: each bid's details under the session's options, the names of belle and
    petite (старшая, младшая)."""
    declaration = get_variant(name).declaration
    has_belle = any(bid.trumps == BELLE_OR_PETITE for bid in declaration.bids)
    belle, petite = (prose(declaration.name, word) for word in declaration.belle_words) if has_belle else (None, None)
    return {"bid_rules": bid_rules(name, rules), "belle": belle, "petite": petite}


def bids_left_out(name: str, rules: dict[str, Any]) -> list[str]:
    """The bids this session cannot record because a house rule they need was left unset when it was
    opened (a Russian misère without its amount): named on the scorer, so nobody hunts for the button."""
    variant = get_variant(name)
    options = variant.parse_options(rules)
    return [
        label(bid.label)
        for bid in variant.declaration.bids
        if bid.needs_option and getattr(options, bid.needs_option) is None
    ]
