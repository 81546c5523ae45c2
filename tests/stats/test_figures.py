"""ledger.stats.figures: the one table of per-variant contract rules, held against the engine."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ledger.engine import settle
from ledger.engine.cards import Hand
from ledger.engine.samples import playable_rules, random_sheet
from ledger.engine.variants import fontainebleau, french, get_variant, russian, variant_names
from ledger.stats.figures import CONTRACTS, contract_outcome, session_figures

NO_BIDDER = {"pass", "last_trick", "misdeal"}


class _Rules(dict[str, dict[str, Any]]):
    """The house rules a variant's random evenings are played under: its `playable_rules` with every
    switch on (Fontainebleau's honours), unless given here with amounts of their own."""

    def __missing__(self, name: str) -> dict[str, Any]:
        variant = get_variant(name)
        return {**playable_rules(name), **dict.fromkeys(variant.switches, True)}


RULES = _Rules(
    french={
        "neuf": {
            "base": {"spades": 10, "clubs": 20, "diamonds": 30, "hearts": 40},
            "extra": {"spades": 2, "clubs": 4, "diamonds": 6, "hearts": 8},
        }
    },
    russian={"nine": {"base": 12, "extra": 3}, "misere": 20},
)


def test_the_table_covers_every_bid_of_every_variant() -> None:
    assert set(CONTRACTS) == set(variant_names())
    for name, rules in CONTRACTS.items():
        variant = get_variant(name)
        assert set(rules.tricks).isdisjoint(rules.exact), name
        assert set(rules.tricks) | set(rules.exact) == set(variant.bids) - NO_BIDDER, name
        assert set(rules.tricks) == set(variant.trick_bids), name
        with_partner = {bid for bid, fields in variant.fields.items() if "partner" in fields}
        assert set(rules.pair) == with_partner, name
        assert all(0 <= n <= 13 for n in (*rules.tricks.values(), *rules.exact.values(), *rules.pair.values()))
    assert CONTRACTS["fontainebleau"].pair["seven"] == 10  # bid + 3 (rules.md §2.5)
    assert CONTRACTS["french"].pair["simple"] == CONTRACTS["russian"].pair["simple"] == 8  # T >= 8
    assert CONTRACTS["fontainebleau"].exact["piccolissimo"] == 1


def _deals(variant: str, sheets: int, seed: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(sheets):
        sheet = random_sheet(variant, rng, 40, rules=RULES[variant], adjust_rate=0.0)
        out += list(zip(sheet["hands"], settle(sheet)["hands"], strict=True))
    return out


def _side_paid(hand: dict[str, Any], settled: dict[str, Any]) -> tuple[bool, bool]:
    """(the side received a contract payment, the side paid one), from the engine's transfers."""
    side = {hand["bidder"], hand.get("partner")} - {None}
    contracts = [t for t in settled["transfers"] if t["reason"] == "contract"]
    received = any(t["to"] in side and t["from"] not in side for t in contracts)
    paid = any(t["from"] in side and t["to"] not in side for t in contracts)
    return received, paid


@pytest.mark.parametrize("variant", variant_names())
def test_made_is_what_the_engine_pays_as_made(variant: str) -> None:
    checked = 0
    for hand, settled in _deals(variant, 60, seed=len(variant)):
        outcome = contract_outcome(variant, hand)
        if hand["bid"] in NO_BIDDER or hand.get("conceded") == "bidder":  # he paid instead of playing
            assert outcome is None
            continue
        assert outcome is not None
        received, paid = _side_paid(hand, settled)
        if hand.get("revoke") is not None:
            if hand["revoke"] in (hand["bidder"], hand.get("partner")):
                assert not outcome.made
                assert not received  # a revoke never pays the revoking side for its contract
            continue
        assert received != paid, (hand, settled["transfers"])
        assert outcome.made == received, (hand, settled["transfers"])
        checked += 1
        if outcome.made:
            assert outcome.shortfall == 0
        else:
            assert outcome.overtricks == 0
        if hand["bid"] in CONTRACTS[variant].exact:
            assert outcome.overtricks == outcome.shortfall == 0
    assert checked > 300


def test_made_agrees_with_the_french_and_russian_modules() -> None:
    for variant, made in (("french", french.is_made), ("russian", russian.Russian.made)):
        for hand, _settled in _deals(variant, 30, seed=7):
            if hand["bid"] in NO_BIDDER or hand.get("revoke") is not None:
                continue
            engine_hand = Hand(
                bid=hand["bid"],
                tricks=tuple(hand["tricks"]),
                bidder=hand["bidder"],
                partner=hand.get("partner"),
                trump=hand.get("trump"),
            )
            assert contract_outcome(variant, hand).made == made(engine_hand), hand


def test_fontainebleau_overtricks_are_the_ones_the_engine_pays() -> None:
    for hand, settled in _deals("fontainebleau", 60, seed=11):
        outcome = contract_outcome("fontainebleau", hand)
        if outcome is None or not outcome.made or hand["bid"] in CONTRACTS["fontainebleau"].exact:
            continue
        if hand.get("revoke") is not None:  # the revoke's penalty replaces the contract's payments (§0.11)
            continue
        paid = [t["counters"] for t in settled["transfers"] if t["reason"] == "overtricks"]
        per_adversary = paid[0] if paid else 0
        assert per_adversary == fontainebleau.EXTRA_TRICK * outcome.overtricks, hand


@pytest.mark.parametrize(
    ("variant", "hand", "made", "over", "short"),
    [
        ("american", {"bid": "seven", "bidder": 0, "trump": "clubs", "tricks": [9, 2, 1, 1]}, True, 2, 0),
        ("american", {"bid": "seven", "bidder": 0, "trump": "clubs", "tricks": [4, 5, 2, 2]}, False, 0, 3),
        ("american", {"bid": "six", "bidder": 1, "trump": "clubs", "conceded": True, "tricks": [0, 1, 0, 0]}, 1, 0, 0),
        ("american", {"bid": "grand_misere", "bidder": 2, "tricks": [4, 4, 2, 3]}, False, 0, 0),
        ("american", {"bid": "little_misere", "bidder": 2, "tricks": [4, 4, 0, 4]}, True, 0, 0),
        ("fontainebleau", {"bid": "piccolissimo", "bidder": 0, "tricks": [1, 4, 4, 3]}, True, 0, 0),
        ("fontainebleau", {"bid": "piccolissimo", "bidder": 0, "tricks": [0, 4, 4, 4]}, False, 0, 0),
        (
            "fontainebleau",
            {"bid": "six", "bidder": 0, "partner": 2, "trump": "hearts", "tricks": [6, 1, 4, 2]},
            1,
            1,
            0,
        ),
        (
            "fontainebleau",
            {"bid": "seven", "bidder": 0, "partner": 1, "trump": "clubs", "tricks": [5, 4, 2, 2]},
            0,
            0,
            1,
        ),
        ("french", {"bid": "simple", "bidder": 0, "partner": 2, "tricks": [3, 1, 5, 4], "revoke": None}, True, 0, 0),
        ("french", {"bid": "simple", "bidder": 0, "tricks": [4, 3, 3, 3]}, False, 0, 1),
        ("french", {"bid": "simple", "bidder": 1, "partner": 3, "tricks": [2, 6, 2, 3], "revoke": 1}, False, 0, 0),
        ("french", {"bid": "independence_six", "bidder": 2, "tricks": [3, 3, 4, 3], "revoke": 0}, False, 0, 2),
        ("french", {"bid": "simple", "bidder": 0, "tricks": [5, 3, 2, 2], "revoke": 2}, True, 0, 0),
        ("russian", {"bid": "solo", "bidder": 2, "tricks": [1, 1, 10, 1], "revoke": 2}, False, 0, 0),
        ("russian", {"bid": "simple", "bidder": 1, "partner": 3, "tricks": [3, 4, 2, 3], "revoke": 3}, False, 0, 1),
        ("russian", {"bid": "nine", "bidder": 0, "tricks": [11, 1, 1, 0]}, True, 2, 0),
    ],
)
def test_outcomes_by_hand(variant: str, hand: dict[str, Any], made: bool, over: int, short: int) -> None:
    outcome = contract_outcome(variant, hand)
    assert (outcome.made, outcome.overtricks, outcome.shortfall) == (bool(made), over, short)


def test_misere_partout_losers() -> None:
    american = {"bid": "pass", "tricks": [5, 5, 1, 2]}
    settled = settle(
        {
            "format": "clubscore-sheet/1",
            "variant": "american",
            "players": ["a", "b", "c", "d"],
            "first_dealer": 0,
            "hands": [american],
            "close": {},
        }
    )
    seats = session_figures("american", [(american, settled["hands"][0])], settled["close"])
    assert [s.misere_partout_played for s in seats] == [1, 1, 1, 1]
    assert [s.misere_partout_lost for s in seats] == [1, 1, 0, 0]  # the two with the most tricks paid
    assert [s.counters for s in seats] == settled["close"]["final"]
    # Fontainebleau with an empty pool (ante 0): nobody takes a share, so nobody lost.
    font = {"bid": "pass", "tricks": [5, 5, 1, 2]}
    sheet = {
        "format": "clubscore-sheet/1",
        "variant": "fontainebleau",
        "rules": {"ante": 0},
        "players": ["a", "b", "c", "d"],
        "first_dealer": 0,
        "hands": [font],
        "close": {},
    }
    settled = settle(sheet)
    seats = session_figures("fontainebleau", [(font, settled["hands"][0])], settled["close"])
    assert [s.misere_partout_lost for s in seats] == [0, 0, 0, 0]
    sheet["rules"] = {}
    settled = settle(sheet)
    seats = session_figures("fontainebleau", [(font, settled["hands"][0])], settled["close"])
    assert [s.misere_partout_lost for s in seats] == [1, 1, 0, 1]  # seat 2 took the 5 alone
    assert seats[2].pools_won == 0  # a misère partout's division is not a pool won


def test_french_and_russian_all_pass_is_no_misere_partout() -> None:
    for variant in ("french", "russian"):
        seed = 3
        sheet = random_sheet(variant, random.Random(seed), 10, rules=RULES[variant])
        while sheet["hands"][0]["bid"] == "misdeal":  # deal 1 of the game is the first hand that is a deal
            seed += 1
            sheet = random_sheet(variant, random.Random(seed), 10, rules=RULES[variant])
        sheet["hands"][0] = {"bid": "pass", "turned": sheet["hands"][0]["turned"]}
        sheet["close"] = {}
        settled = settle(sheet)
        seats = session_figures(variant, zip(sheet["hands"], settled["hands"], strict=True), settled["close"])
        assert all(s.misere_partout_played == 0 for s in seats)
