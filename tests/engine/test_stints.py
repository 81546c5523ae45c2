"""A substitute mid-game (issue 37), worked by hand per variant: the leaver's counters are his deals' up to
n-1, the substitute's from n, and the pools' division goes by the variant's custom (`engine.stints`):
American and Russian give a seat's share to whoever held it at the deal that formed the pools standing at
the close; Fontainebleau and French to whoever holds it at the close. Each deal's own deltas are the
engine's (tested by each variant's tables); what is worked here is the split and the division."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.engine import EngineError, settle
from tests.engine.helpers import refusal, sheet

USD = {"currency": "USD", "per_counter": "0.01"}

AM_FAIL = {"bid": "seven", "bidder": 1, "trump": "hearts", "tricks": [4, 5, 2, 2]}
AM_MADE = {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 1, 8, 2]}
AM_PASS = {"bid": "pass", "tricks": [4, 4, 3, 2]}
AMERICAN = {"rules": {"table": "decimal", "ante": 5, "pool_limit": 100}, "stake": USD}

# first dealer 1: deltas [100, 95, -400, 100] pool 105; [0, 0, -5, 110] pool 0; [100, 100, 100, -405]
# pool 105; [205, 210, 210, -840] pool 320.
FONTAINEBLEAU: list[dict[str, Any]] = [
    {"bid": "piccolissimo", "bidder": 2, "conceded": False, "tricks": [4, 4, 3, 1]},
    {"bid": "pass", "tricks": [8, 4, 1, 0]},
    {"bid": "piccolissimo", "bidder": 3, "conceded": False, "tricks": [4, 0, 8, 0]},
    {"bid": "twelve", "bidder": 3, "trump": "spades", "conceded": False, "tricks": [4, 6, 3, 0]},
]
# first dealer 3: [0, 0, 0, -10] pool 10; [-128, 404, -138, -128] pool 0; [0, -10, 0, 0] pool 10;
# [118, 128, 128, -404] pool 40.
FRENCH: list[dict[str, Any]] = [
    {"bid": "pass", "turned": "hearts"},
    {"bid": "grand_spread", "bidder": 1, "turned": "clubs", "tricks": [7, 0, 4, 2]},
    {"bid": "pass", "turned": "diamonds"},
    {"bid": "little_spread", "bidder": 3, "revoke": 3, "turned": "clubs", "tricks": [9, 3, 0, 0]},
]
# first dealer 3 (dealers 3, 2, 1, 0): [-20, -20, -20, -20] basket 80; [-2, 102, -10, -10] basket 0;
# [-124, 12, 20, 12] basket 80; a misdeal by seat 0, basket 80.
RUSSIAN: list[dict[str, Any]] = [
    {"bid": "pass", "turned": "clubs"},
    {
        "bid": "simple",
        "bidder": 1,
        "trump": "clubs",
        "jack": 0,
        "turned": "hearts",
        "ace_turned": False,
        "tricks": [5, 6, 1, 1],
    },
    {"bid": "solo", "bidder": 0, "trump": "hearts", "jack": 2, "turned": "hearts", "tricks": [6, 3, 1, 3]},
    {"bid": "misdeal"},
]


def closed(variant: str, hands: list[dict[str, Any]], seat: int, first: int, **extra: Any) -> dict[str, Any]:
    raw = sheet(variant, hands, close={"pools": "divide"}, **extra)
    raw["substitutions"] = [{"seat": seat, "player": "Eve", "from": first}]
    close: dict[str, Any] = settle(raw)["close"]
    return close


def finals(close: dict[str, Any]) -> dict[str, int]:
    return {s["player"]: s["final"] for s in close["stints"]}


def test_american_a_pool_formed_before_he_rose_keeps_the_leavers_share() -> None:
    # Deltas: [25, -95, 30, 30] pools [10]; [30, -110, 30, 30] [30]; [-15, -15, 5, 20] [35]. The pools
    # were never empty: formed at deal 1, when Ben sat. 35 divided: 8 each, 3 carried; Ben's seat's 8
    # is Ben's.
    close = closed("american", [AM_FAIL, AM_FAIL, AM_PASS], 1, 3, **AMERICAN)
    assert close["division"] == [8, 8, 8, 8] and close["carried"] == [3]
    assert finals(close) == {"Ann": 48, "Ben": -95 - 110 + 8, "Cleo": 73, "Dan": 88, "Eve": -15}
    assert close["money"] == [48, -197, 73, 88, -15] and close["pool_money"] == 3
    assert close["final"] == [48, -212, 73, 88]  # the seats' as always: Ben's and Eve's together


def test_american_a_pool_formed_after_he_rose_is_the_substitutes() -> None:
    # [25, -95, 30, 30] [10]; Cleo's seven takes the pools: [-20, -25, 75, -20] []; [30, -95, 25, 30]
    # [10]: formed at deal 3, Eve's. 10 divided: 2 each, 2 carried.
    close = closed("american", [AM_FAIL, AM_MADE, AM_FAIL], 1, 3, **AMERICAN)
    assert finals(close) == {"Ann": 37, "Ben": -95 - 25, "Cleo": 132, "Dan": 42, "Eve": -95 + 2}
    assert sum(close["money"]) + close["pool_money"] == 0
    # The payments square every stint: the leaver and his substitute each pay their own.
    balance = [*close["money"], close["pool_money"]]
    for p in close["payments"]:
        balance[5 if p["from"] == "pool" else p["from"]] += p["cents"]
        balance[5 if p["to"] == "pool" else p["to"]] -= p["cents"]
    assert balance == [0] * 6


def test_fontainebleau_the_players_at_the_close_divide_the_pool() -> None:
    # Dan rises after deal 3. The pool of 320 was formed at deal 3 (empty after deal 2), Dan's deal, yet
    # the players at the end "divide it amongst themselves" (000:143): Eve gets the seat's 80.
    close = closed("fontainebleau", FONTAINEBLEAU, 3, 4, first_dealer=1)
    assert close["division"] == [80, 80, 80, 80] and close["carried"] == [0]
    assert finals(close) == {"Ann": 485, "Ben": 485, "Cleo": -15, "Dan": 100 + 110 - 405, "Eve": -840 + 80}


def test_french_the_players_at_the_close_divide_the_pool() -> None:
    # Ben rises after deal 3; the pool of 40 (formed at deal 3) divided 10 each, Ben's seat's to Eve.
    close = closed("french", FRENCH, 1, 4, first_dealer=3)
    assert close["division"] == [10, 10, 10, 10]
    assert finals(close) == {"Ann": 0, "Ben": 404 - 10, "Cleo": 0, "Dan": -532, "Eve": 128 + 10}


def test_russian_the_basket_is_his_who_sat_when_it_was_formed() -> None:
    # The basket of 80 was formed at deal 3 (emptied by deal 2's simple). Ann rises after deal 3: the
    # basket still holds what "belongs" to her (002:157), her seat's 20 is hers.
    close = closed("russian", RUSSIAN, 0, 4, first_dealer=3)
    assert finals(close) == {"Ann": -20 - 2 - 124 + 20, "Ben": 114, "Cleo": 10, "Dan": 2, "Eve": 0}
    # Ann rises after deal 2: the basket was formed at Eve's first deal, the share is Eve's.
    close = closed("russian", RUSSIAN, 0, 3, first_dealer=3)
    assert finals(close) == {"Ann": -22, "Ben": 114, "Cleo": 10, "Dan": 2, "Eve": -124 + 20}


def test_russian_a_misdealers_forfeit_is_his_own_not_his_seats() -> None:
    rules = {"rules": {"misdeal_forfeits_share": True}, "first_dealer": 3}
    # Eve misdeals at deal 4, but the basket's share of seat 0 is Ann's (formed at deal 3): Ann keeps it.
    close = closed("russian", RUSSIAN, 0, 4, **rules)
    assert close["division"] == [20, 20, 20, 20] and finals(close)["Ann"] == -126
    # From deal 3 the share is Eve's, and she forfeits it: the other three share 80, 26 each, 2 carried.
    close = closed("russian", RUSSIAN, 0, 3, **rules)
    assert close["division"] == [0, 26, 26, 26] and close["carried"] == [2]
    assert finals(close) == {"Ann": -22, "Ben": 94 + 26, "Cleo": -10 + 26, "Dan": -18 + 26, "Eve": -124}


def test_a_sheet_without_substitutions_is_unchanged_and_an_open_one_has_no_stints() -> None:
    plain = sheet("american", [AM_FAIL, AM_MADE], close={"pools": "divide"}, **AMERICAN)
    close = settle(plain)["close"]
    assert "stints" not in close and len(close["money"]) == 4
    open_sheet = sheet("american", [AM_FAIL], **AMERICAN)
    open_sheet["substitutions"] = [{"seat": 0, "player": "Eve", "from": 2}]
    assert "close" not in settle(open_sheet)


def test_two_substitutions_of_one_seat_and_a_leaver_who_comes_back() -> None:
    raw = sheet("american", [AM_FAIL, AM_MADE, AM_FAIL, AM_PASS], close={"pools": "divide"}, **AMERICAN)
    raw["substitutions"] = [
        {"seat": 1, "player": "Eve", "from": 2},
        {"seat": 1, "player": "Ben", "from": 4},
    ]
    close = settle(raw)["close"]
    assert [(s["player"], s["from"], s["to"]) for s in close["stints"]] == [
        ("Ann", 1, None),
        ("Ben", 1, 1),
        ("Cleo", 1, None),
        ("Dan", 1, None),
        ("Eve", 2, 3),
        ("Ben", 4, None),
    ]
    hands = settle(raw)["hands"]
    # The pools standing at the close were formed at deal 3 (Cleo's seven emptied them at deal 2), while
    # Eve sat: seat 1's share of the division is hers, not Ben's who came back at deal 4.
    eve = hands[1]["deltas"][1] + hands[2]["deltas"][1] + close["division"][1]
    assert close["stints"][4]["final"] == eve and close["stints"][5]["final"] == hands[3]["deltas"][1]
    assert sum(s["final"] for s in close["stints"]) == sum(close["final"])


@pytest.mark.parametrize(
    ("substitutions", "why"),
    [
        ([{"seat": 1, "player": "Eve"}], "a seat, the player who sits there and the deal"),
        ([{"seat": 4, "player": "Eve", "from": 2}], "one of the four seats"),
        ([{"seat": 1, "player": " ", "from": 2}], "the substitute's name"),
        ([{"seat": 1, "player": "Eve", "from": 1}], "between 2 and 3"),
        ([{"seat": 1, "player": "Eve", "from": 4}], "between 2 and 3"),
        ([{"seat": 1, "player": "Cleo", "from": 2}], "Cleo is already seated"),
        ([{"seat": 1, "player": "Eve", "from": 3}, {"seat": 2, "player": "Fay", "from": 2}], "in the order played"),
        ([{"seat": 1, "player": "Eve", "from": 2}, {"seat": 1, "player": "Fay", "from": 2}], "already changes hands"),
        ({"seat": 1}, "each substitution"),
    ],
)
def test_a_wrong_seat_history_is_refused_naming_the_field(substitutions: Any, why: str) -> None:
    raw = sheet("american", [AM_FAIL, AM_MADE], **AMERICAN)
    raw["substitutions"] = substitutions
    error = refusal(raw)
    assert error["code"] == "invalid_sheet" and why in error["fields"]["substitutions"][0]


def test_engine_error_type() -> None:
    raw = sheet("american", [AM_FAIL], substitutions=[{"seat": 0, "player": "Eve", "from": 9}])
    with pytest.raises(EngineError):
        settle(raw)
