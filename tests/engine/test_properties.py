"""Properties of every variant over random valid sessions (Hypothesis drives the random generator).

Counters are conserved in every hand and at every point; settling is deterministic; closing pays
exactly the money amounts with at most three payments among the four seats, plus the pool's.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.engine import settle
from ledger.engine.samples import random_sheet
from ledger.engine.variants import find_variant, variant_names
from tests.engine.helpers import assert_conserved

STAKES = [
    None,
    {"currency": "USD", "per_counter": "0.01"},
    {"currency": "JPY", "per_counter": "3"},
    {"currency": "EUR", "per_counter": "0.005"},
]
HOUSE_RULES: dict[str, list[dict[str, Any]]] = {
    "american": [
        {},
        {"table": "classic"},
        {"ante": 0, "pool_limit": None},
        {"pool_limit": 30, "ante": 10},
        {"last_trick_hand": True, "table": "classic", "pool_limit": 60},
        {"misdeal_penalty": 0, "pay_instead_short": 13, "table": "classic"},  # table law (rules.md §0.11)
    ],
    "fontainebleau": [
        {},
        {"honours": True, "slam_table": 2},
        {"suit_order": "french", "ante": 0},
        {"misdeal_penalty": 25, "pay_instead_short": 3, "honours": True},
    ],
    "french": [
        {},
        {
            "neuf": {
                "base": dict.fromkeys(("spades", "clubs", "diamonds", "hearts"), 20),
                "extra": dict.fromkeys(("spades", "clubs", "diamonds", "hearts"), 5),
            }
        },
    ],
    "russian": [
        {},
        {"nine": {"base": 30, "extra": 5}, "misere": 40, "third_suit_rate": "starshaya"},
        {  # table law (rules.md §0.11): every condition agreed before play
            "remiz": 2,
            "labet": False,
            "solo": False,
            "misdeal_penalty": 3,
            "misdeal_forfeits_share": True,
            "open_misere": 30,
            "grand_open_misere": 20,
            "souverain": {"made": 50, "failed": 40},
            "grand_souverain": {"made": 80, "failed": 60},
        },
        {"remiz": 5, "open_misere": 10, "souverain": {"made": 1, "failed": 0}, "misdeal_forfeits_share": True},
    ],
}


def _rules(variant: str, index: int) -> dict:
    options = HOUSE_RULES.get(variant, [{}])
    return options[index % len(options)]


@pytest.mark.parametrize("variant", variant_names())
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rules_index=st.integers(0, 10),
    stake_index=st.integers(0, 3),
    carried=st.lists(st.integers(0, 30), max_size=1),
    carry=st.booleans(),
)
def test_random_sessions_conserve_counters(variant, seed, rules_index, stake_index, carried, carry) -> None:
    rng = random.Random(seed)
    raw = random_sheet(
        variant,
        rng,
        find_variant(variant).declaration.evening + 4,  # past the game's end, when it has one
        rules=_rules(variant, rules_index),
        pools=carried,
        stake=STAKES[stake_index],
        close={"pools": "carry" if carry else "divide"},
    )
    result = settle(raw)
    carried_in = sum(carried)
    assert_conserved(result, carried_in)
    for hand in result["hands"]:
        assert all(t["counters"] > 0 and t["from"] != t["to"] for t in hand["transfers"])
        keys = [(t["from"], t["to"], t["reason"]) for t in hand["transfers"]]
        assert len(keys) == len(set(keys)), "at most one transfer per (from, to, reason)"
    assert settle(json.loads(json.dumps(raw))) == result, "settling is deterministic"
    close = result["close"]
    assert close["final"] == [b + d for b, d in zip(result["balances"], close["division"], strict=True)]
    assert sum(close["final"]) + sum(close["carried"]) == carried_in
    if "money" in close:
        balance = [*close["money"], close["pool_money"]]
        assert sum(balance) == 0
        for p in close["payments"]:
            payer = 4 if p["from"] == "pool" else p["from"]
            payee = 4 if p["to"] == "pool" else p["to"]
            balance[payer] += p["cents"]
            balance[payee] -= p["cents"]
        assert balance == [0] * 5
        seat_payments = [p for p in close["payments"] if "pool" not in (p["from"], p["to"])]
        assert len(seat_payments) <= 3
        assert len(close["payments"]) <= 4
