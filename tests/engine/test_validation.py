"""Every validation rule of rules.md §0.10 and §1 gives its code, hand, field and a message in words."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.helpers import refusal, sheet

SIX = {"bid": "six", "bidder": 0, "trump": "clubs", "tricks": [6, 3, 2, 2]}


def _with(**changes: Any) -> dict[str, Any]:
    raw = sheet("american", [SIX])
    raw.update(changes)
    return raw


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        (["not", "a", "sheet"], "sheet", "JSON object"),
        (_with(format="clubscore-sheet/2"), "format", "clubscore-sheet/1"),
        (_with(variant="bridge"), "variant", "choose a variant: american, fontainebleau, french, russian"),
        (_with(players=["Ann", "Ben", "Cleo"]), "players", "give the names of the four players, by seat"),
        (_with(players=["Ann", "Ben", "Cleo", 4]), "players", "give the names of the four players, by seat"),
        (_with(first_dealer=4), "first_dealer", "choose the first dealer, one of the four players"),
        (_with(first_dealer=True), "first_dealer", "choose the first dealer, one of the four players"),
        (_with(pools=[-5]), "pools", "0 or more"),
        (_with(pools="10"), "pools", "list"),
        (_with(pools=[True]), "pools", "whole counter"),
        (
            _with(stake={"currency": "usd", "per_counter": "0.01"}),
            "stake",
            "the stake's currency is three capital letters, such as EUR",
        ),
        (
            _with(stake={"currency": "USD", "per_counter": "1e-2"}),
            "stake",
            "the value of one counter is a decimal such as 0.01: digits 0-9, a",
        ),
        (
            _with(stake={"currency": "USD", "per_counter": "0.0000001"}),
            "stake",
            "the value of one counter is a decimal such as 0.01: digits 0-9, a",
        ),
        (_with(stake={"currency": "USD", "per_counter": "0"}), "stake", "the value of one counter must be more than 0"),
        (
            _with(stake={"currency": "USD", "per_counter": 0.01}),
            "stake",
            "the value of one counter is a decimal such as 0.01: digits 0-9, a",
        ),
        (_with(stake={"currency": "USD"}), "stake", "exactly"),
        (_with(close={"pools": "split"}), "close", "divide"),
        (_with(close={"pool": "divide"}), "close", "closing takes the pools divided or carried"),
        (_with(hands={"bid": "six"}), "hands", "list"),
        (_with(tables=3), "tables", "tables is not part of a score sheet: leave it out"),
    ],
)
def test_sheet_fields(raw: Any, field: str, words: str) -> None:
    error = refusal(raw)
    assert error["code"] == "invalid_sheet"
    assert "hand" not in error
    assert list(error["fields"]) == [field]
    assert words in error["fields"][field][0]


@pytest.mark.parametrize("missing", ["format", "variant", "players", "first_dealer", "hands"])
def test_required_sheet_fields(missing: str) -> None:
    raw = _with()
    del raw[missing]
    error = refusal(raw)
    assert error["code"] == "invalid_sheet" and error["fields"] == {missing: [f"the score sheet needs its {missing}"]}


@pytest.mark.parametrize(
    ("rules", "field", "words"),
    [
        ({"tabel": "classic"}, "rules.tabel", "not a house rule"),
        ({"table": "modern"}, "rules.table", "one of"),
        ({"ante": -1}, "rules.ante", "0 or more"),
        ({"ante": True}, "rules.ante", "whole number"),
        ({"pool_limit": 0}, "rules.pool_limit", "1 or more"),
        ({"last_trick_hand": 1}, "rules.last_trick_hand", "Last-trick hand: say yes or no"),
    ],
)
def test_options(rules: dict[str, Any], field: str, words: str) -> None:
    error = refusal(_with(rules=rules))
    assert error["code"] == "invalid_option"
    assert list(error["fields"]) == [field] and words in error["fields"][field][0]


def test_carried_pool_above_the_limit() -> None:
    error = refusal(_with(rules={"pool_limit": 50}, pools=[60]))
    assert error["code"] == "invalid_sheet" and "pool limit of 50" in error["fields"]["pools"][0]


def test_sheet_fields_are_checked_before_rules() -> None:
    assert refusal(_with(rules={"x": 1}, stake={"currency": "US"}))["code"] == "invalid_sheet"


@pytest.mark.parametrize(
    ("hand", "field", "words"),
    [
        ({**SIX, "bid": "sixty"}, "bid", "choose a bid: boston, six"),
        ({**SIX, "bidder": None}, "bidder", "choose who bid"),
        ({**SIX, "bidder": 4}, "bidder", "choose one of the four players"),
        ({**SIX, "bidder": True}, "bidder", "choose one of the four players"),
        ({**SIX, "trump": "stars"}, "trump", "choose the trump: clubs, diamonds, hearts or spades"),
        ({**SIX, "trump": "none"}, "trump", "choose the trump: clubs, diamonds, hearts or spades"),
        ({**SIX, "turned": "moons"}, "turned", "choose the suit of the turned card: clubs"),
        ({**SIX, "tricks": [6, 3, 2]}, "tricks", "enter four whole numbers of tricks"),
        ({**SIX, "tricks": [6, 3, 2, 14]}, "tricks", "from 0 to 13"),
        ({**SIX, "tricks": [6, 3, 2, 1]}, "tricks", "must add up to 13, not 12"),
        ({"bid": "little_misere", "bidder": 1, "tricks": [4, 0, 5, 4]}, "tricks", "at most 12"),
        ({"bid": "grand_misere", "bidder": 1, "tricks": [4, 0, 5, 5]}, "tricks", "at most 13, not 14"),
        ({"bid": "pass", "tricks": [4, 3, 3, 2]}, "tricks", "must add up to 13, not 12"),
        (
            {"bid": "grand_misere", "bidder": 1, "trump": "hearts", "tricks": [4, 1, 4, 4]},
            "trump",
            "grand misère is played without trumps",
        ),
        ({**SIX, "partner": 2}, "partner", "American Boston has no partners"),
        ({**SIX, "honours": 3}, "honours", "do not count"),
        ({**SIX, "honours": False}, "honours", "do not count"),
        ({"bid": "pass", "tricks": [4, 3, 3, 3], "conceded": 0}, "conceded", "nobody concedes"),
        ({**SIX, "jack": 1}, "jack", "the jack earns nothing in American Boston"),
        ({"bid": "pass", "tricks": [4, 3, 3, 3], "revoke": 1}, "revoke", "does not use the revoke: leave it empty"),
        ({**SIX, "conceded": "yes"}, "conceded", "or bidder when the bidder paid instead of playing"),
        ({"bid": "pass", "tricks": [4, 3, 3, 3], "conceded": True}, "conceded", "nobody concedes"),
        ({**SIX, "last_trick": 1}, "last_trick", "13th deal"),
        ({"bid": "last_trick", "last_trick": 1}, "bid", "a last trick is only the last deal"),
        ({**SIX, "number": 3}, "number", "this is deal 2"),
        ({**SIX, "number": "2"}, "number", "this is deal 2"),
        ({**SIX, "score": 7}, "score", "score is not part of a hand"),
        ({**SIX, "adjustments": {"from": 0}}, "adjustments", "each adjustment needs who pays"),
        (
            {**SIX, "adjustments": [{"from": 0, "to": 1, "counters": 5, "note": "x", "reason": "r"}]},
            "adjustments",
            "adjustment 1 needs exactly who pays, who receives, how many counters",
        ),
        ({**SIX, "adjustments": [{"from": 0, "to": 0, "counters": 5, "note": "x"}]}, "adjustments", "must differ"),
        (
            {**SIX, "adjustments": [{"from": 0, "to": 5, "counters": 5, "note": "x"}]},
            "adjustments",
            "choose a player or the pool on each end",
        ),
        (
            {**SIX, "adjustments": [{"from": 0, "to": 1, "counters": 0, "note": "x"}]},
            "adjustments",
            "a whole number of counters, more than 0",
        ),
        ({**SIX, "adjustments": [{"from": 0, "to": 1, "counters": 2, "note": " "}]}, "adjustments", "say why"),
        ("six", "hands", "this deal is not a hand"),
    ],
)
def test_hand_fields(hand: Any, field: str, words: str) -> None:
    error = refusal(sheet("american", [SIX, hand]))
    assert error["code"] == "invalid_hand"
    assert error["hand"] == 2
    assert field in error["fields"], error
    assert any(words in msg for msg in error["fields"][field]), error["fields"][field]
    assert error["message"].startswith("hand 2: ")


def test_every_broken_field_of_the_hand_is_listed() -> None:
    error = refusal(sheet("american", [{"bid": "six", "bidder": 9, "trump": "stars", "tricks": [1], "partner": 1}]))
    assert set(error["fields"]) == {"bidder", "trump", "tricks", "partner"}


def test_a_thirteenth_deal_needs_the_option() -> None:
    error = refusal(sheet("american", [SIX] * 13))
    assert error["hand"] == 13 and list(error["fields"]) == ["hands"]


def test_the_game_limit_comes_before_the_hand_fields() -> None:
    error = refusal(sheet("american", [SIX] * 12 + [{"bid": "nonsense"}]))
    assert list(error["fields"]) == ["hands"]


def test_with_the_option_deal_13_must_be_the_last_trick_and_there_is_no_14th() -> None:
    error = refusal(sheet("american", [SIX] * 13, rules={"last_trick_hand": True}))
    assert error["hand"] == 13 and list(error["fields"]) == ["bid"]
    last = {"bid": "last_trick", "last_trick": 0}
    error = refusal(sheet("american", [SIX] * 12 + [last, last], rules={"last_trick_hand": True}))
    assert error["hand"] == 14 and list(error["fields"]) == ["hands"]


def test_an_adjustment_cannot_take_more_than_the_pools_hold() -> None:
    hand = {**SIX, "adjustments": [{"from": "pool", "to": 1, "counters": 6, "note": "refund"}]}
    error = refusal(sheet("american", [hand], pools=[]))  # the six took the ante's pool of 5
    assert error == {
        "code": "invalid_hand",
        "message": "hand 1: adjustment 1 takes 6 from the pool, which holds 0",
        "fields": {"adjustments": ["adjustment 1 takes 6 from the pool, which holds 0"]},
        "hand": 1,
    }


def test_the_first_broken_hand_is_reported() -> None:
    error = refusal(sheet("american", [SIX, {**SIX, "bidder": 7}, {**SIX, "trump": "x"}]))
    assert error["hand"] == 2
