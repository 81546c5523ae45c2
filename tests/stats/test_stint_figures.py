"""The statistics of a session whose seat changed hands (issue 37): each player is credited with the deals
he played and the contracts he bid in them, nothing of his seat's other stints; a player who left and came
back has his two stints added up."""

from __future__ import annotations

from typing import Any

from ledger.engine import settle
from ledger.stats.figures import merged, session_figures, stint_figures
from tests.engine.helpers import sheet

SEVEN_BY_1 = {"bid": "seven", "bidder": 1, "trump": "hearts", "tricks": [4, 5, 2, 2]}  # failed
SEVEN_BY_2 = {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 1, 8, 2]}  # made


def figures(hands: list[dict[str, Any]], substitutions: list[dict[str, Any]]) -> tuple[list[Any], dict[str, Any]]:
    raw = sheet("american", hands, close={"pools": "divide"}, stake={"currency": "USD", "per_counter": "0.01"})
    raw["substitutions"] = substitutions
    settled = settle(raw)
    pairs = list(zip(hands, settled["hands"], strict=True))
    return stint_figures("american", pairs, settled["close"]), settled["close"]


def test_each_stint_is_credited_with_its_own_deals_and_contracts() -> None:
    stints, close = figures([SEVEN_BY_1, SEVEN_BY_1, SEVEN_BY_1], [{"seat": 1, "player": "Eve", "from": 3}])
    ben, eve = stints[1], stints[4]
    assert (ben.seat, ben.deals, ben.bidder_played, ben.bidder_made) == (1, 2, 2, 0)
    assert (eve.seat, eve.deals, eve.bidder_played, eve.bidder_made) == (1, 1, 1, 0)
    assert stints[0].deals == 3
    assert [f.counters for f in stints] == [s["final"] for s in close["stints"]]
    assert [f.money for f in stints] == close["money"] and {f.currency for f in stints} == {"USD"}


def test_a_player_who_comes_back_has_his_two_stints_added_up() -> None:
    hands = [SEVEN_BY_1, SEVEN_BY_2, SEVEN_BY_1, SEVEN_BY_1]
    stints, close = figures(hands, [{"seat": 1, "player": "Eve", "from": 2}, {"seat": 1, "player": "Ben", "from": 4}])
    ben = merged(stints[1], stints[5])
    assert (ben.deals, ben.bidder_played, ben.counters) == (2, 2, stints[1].counters + stints[5].counters)
    assert ben.money == close["money"][1] + close["money"][5]
    assert stints[4].deals == 2 and stints[4].bidder_played == 1


def test_without_substitutions_the_seats_figures_are_unchanged() -> None:
    raw = sheet("american", [SEVEN_BY_1, SEVEN_BY_2], close={"pools": "divide"})
    settled = settle(raw)
    pairs = list(zip(raw["hands"], settled["hands"], strict=True))
    assert stint_figures("american", pairs, settled["close"]) == session_figures("american", pairs, settled["close"])
