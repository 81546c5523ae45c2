"""What the scorer may offer for a deal under one session's rules: the bids allowed on each deal, each
bid's fields, its allowed trumps and how its tricks add up.

The scorer form offers only these, so a scorer cannot enter what the engine would refuse (a last-trick
hand with the option off, a neuf without its amounts, a French simple in a third suit). Everything is
read from the variant's declaration, the object the engine validates by, under the session's options;
the browser looks it up and never works rules out.
"""

from __future__ import annotations

from typing import Any

from ledger import selectors
from ledger.engine.variants import get_variant
from ledger.engine.variants.base import SEAT_FIELDS
from ledger.engine.variants.declaration import (
    BELLE_OR_PETITE,
    TABLE_FIELDS,
)
from ledger.engine.variants.table_law import OPTIONAL_BIDS
from ledger.i18n import bids_said, label, prose

SUIT_FIELDS = frozenset({"trump", "turned"})  # the hand fields that name a suit (the engine's suit domains)


def bids_allowed(name: str, rules: dict[str, Any], number: int) -> list[str]:
    """The bids the engine would take on deal `number` (in rank order): those needing a missing option,
    or refused on that deal by number (American's last-trick hand), are left out."""
    return [bid["code"] for bid in selectors.deal_legal(variant=name, rules=rules, number=number, first=None)["bids"]]


def deal_bids(name: str, rules: dict[str, Any], deals: list[dict[str, Any]], first: dict[str, Any] | None) -> None:
    """Add to each deal of the deal table `legal`, what the session API's `next_legal` says of a deal
    (`selectors.deal_legal`, the one reader), as it would say it when that deal comes, and the codes of
    its bids. The scorer reads `next_legal` for the next deal; this table serves the deals it numbers
    itself (waiting offline) and the deals it amends. `first`: deal 1 as recorded, if it is."""
    declaration = get_variant(name).declaration
    for deal in deals:
        shape = selectors.deal_legal(variant=name, rules=rules, number=deal["number"], first=first)
        deal["legal"] = bids_said(declaration, shape["bids"])
        deal["bids"] = [bid["code"] for bid in deal["legal"]]
        deal["belle"] = shape["belle"]


def scorer_legal(name: str, rules: dict[str, Any]) -> dict[str, Any]:
    """The scorer page's words of the game beside the deal table: the names of belle and petite
    (старшая, младшая), and which hand fields name a seat and which a suit (the engine's own sets), so
    that the script keeps no rule of Boston of its own."""
    declaration = get_variant(name).declaration
    has_belle = any(bid.trumps == BELLE_OR_PETITE for bid in declaration.bids)
    belle, petite = (prose(word) for word in declaration.belle_words) if has_belle else (None, None)
    return {
        "belle": belle,
        "petite": petite,
        "seat_fields": [f for f in TABLE_FIELDS if f in SEAT_FIELDS],
        "suit_fields": [f for f in TABLE_FIELDS if f in SUIT_FIELDS],
    }


def bids_left_out(name: str, rules: dict[str, Any]) -> list[str]:
    """The bids this session cannot record because a house rule they need was left unset when it was
    opened (a Russian misère without its amount): named on the scorer, so nobody hunts for the button. The
    optional bids a table agrees before play (rules.md §0.11) are not named: unset, they are not played."""
    variant = get_variant(name)
    options = variant.parse_options(rules)
    return [
        label(bid.label)
        for bid in variant.declaration.bids
        if bid.needs_option and getattr(options, bid.needs_option) is None and bid.code not in OPTIONAL_BIDS
    ]
