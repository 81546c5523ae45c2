"""Random valid score sheets for any variant: property tests, the engine benchmark and demo data.

The generator knows no variant's rules. It draws a hand from the variant's own bid codes and field
table and keeps it only if the engine accepts it as the next deal, so whatever it produces is valid
by construction, and a new variant is covered the day it lands.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import SUITS
from .errors import EngineError
from .replay import Replay
from .sheet import SHEET_FORMAT, parse_sheet
from .variants import get_variant
from .variants.base import Variant
from .variants.declaration import OPTIONAL

PLAYERS = ["Ann", "Ben", "Cleo", "Dan"]


def playable_rules(variant_name: str) -> dict[str, Any]:
    """House rules under which every bid of the variant may be played (its declaration's)."""
    return dict(get_variant(variant_name).declaration.playable_rules)


def _tricks(rng: random.Random, total: int, bidder: int | None, variant: Variant, bid: str) -> list[int]:
    """A split of `total` tricks, the bidder's share spread so contracts are made and failed."""
    tricks = [0, 0, 0, 0]
    left = total
    if bidder is not None:
        if bid in variant.trick_bids or rng.random() < 0.3:
            tricks[bidder] = min(left, rng.choice((rng.randint(0, 13), rng.randint(5, 13), rng.randint(7, 13))))
        elif rng.random() < 0.7:
            tricks[bidder] = 0
        else:
            tricks[bidder] = min(left, rng.randint(0, 3))
        left -= tricks[bidder]
    seats = [s for s in range(4) if s != bidder]
    for seat in seats[:-1]:
        take = rng.randint(0, left)
        tricks[seat] = take
        left -= take
    tricks[seats[-1]] += left
    rng.shuffle(seats)
    return tricks


def random_hand(variant: Variant, rng: random.Random, adjust_rate: float = 0.05) -> dict[str, Any]:
    bid = rng.choice(variant.bids)
    table = variant.declaration.bid[bid].fields
    hand: dict[str, Any] = {"bid": bid}
    for name, mode in table.items():
        if mode == OPTIONAL and rng.random() < 0.6:
            continue
        if name in ("bidder", "jack", "last_trick") or name == "partner":
            hand[name] = rng.randrange(4)
        elif name == "revoke":
            hand[name] = hand.get("bidder", rng.randrange(4)) if rng.random() < 0.7 else rng.randrange(4)
        elif name == "trump":
            hand[name] = rng.choice(SUITS + (("none",) if variant.no_trump else ()))
        elif name == "turned":
            hand[name] = rng.choice(SUITS)
        elif name == "honours":
            hand[name] = rng.choice((0, 0, 3, 4))
        elif name == "ace_turned":
            hand[name] = rng.random() < 0.3
        elif name == "conceded":
            hand[name] = rng.random() < 0.15
            if bid in variant.declaration.pays_instead and rng.random() < 0.3:
                hand[name] = "bidder"  # he pays instead of playing (rules.md §0.11)
    if "partner" in hand and "bidder" in hand and hand["partner"] == hand["bidder"]:
        hand["partner"] = (hand["bidder"] + rng.choice((1, 2, 3))) % 4
    if "tricks" in table:
        total = 12 if variant.declaration.bid[bid].discard else 13
        if (hand.get("conceded") or "revoke" in hand) and rng.random() < 0.5:
            total = rng.randint(0, total)
        hand["tricks"] = _tricks(rng, total, hand.get("bidder"), variant, bid)
        if "partner" in hand and rng.random() < 0.5:
            # Give the pair a fair chance at its contract.
            need = rng.randint(0, 4)
            move = min(need, 13 - hand["tricks"][hand["partner"]])
            donors = [s for s in range(4) if s not in (hand["bidder"], hand["partner"])]
            for donor in donors:
                give = min(move, hand["tricks"][donor])
                hand["tricks"][donor] -= give
                hand["tricks"][hand["partner"]] += give
                move -= give
    if rng.random() < adjust_rate:
        frm = rng.randrange(4)
        to = rng.choice([s for s in range(4) if s != frm] + ["pool"])
        hand["adjustments"] = [{"from": frm, "to": to, "counters": rng.randint(1, 20), "note": "ruling"}]
    return hand


def random_sheet(
    variant_name: str,
    rng: random.Random,
    deals: int,
    rules: dict[str, Any] | None = None,
    pools: list[int] | None = None,
    stake: dict[str, str] | None = None,
    close: dict[str, str] | None = None,
    adjust_rate: float = 0.05,
) -> dict[str, Any]:
    """A sheet of up to `deals` valid deals (fewer when the variant's game ends first)."""
    variant = get_variant(variant_name)
    sheet: dict[str, Any] = {
        "format": SHEET_FORMAT,
        "variant": variant_name,
        "rules": dict(rules or {}),
        "players": list(PLAYERS),
        "first_dealer": rng.randrange(4),
        "pools": list(pools or []),
        "hands": [],
    }
    run = Replay(parse_sheet(sheet))
    for _ in range(deals):
        if run.next_deal() is None:
            break
        for _attempt in range(1000):
            hand = random_hand(variant, rng, adjust_rate)
            try:
                run.settle_next(hand)  # a refused hand changes nothing
            except EngineError:
                continue
            sheet["hands"].append(hand)
            break
        else:  # pragma: no cover - the variants always admit some hand
            raise RuntimeError(f"no valid {variant_name} hand found for deal {run.number + 1}")
    if stake is not None:
        sheet["stake"] = stake
    if close is not None:
        sheet["close"] = close
    return sheet
