"""Small builders for engine tests."""

from __future__ import annotations

from typing import Any

from ledger.engine import EngineError, settle


def sheet(variant: str, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "format": "clubscore-sheet/1",
        "variant": variant,
        "players": ["Ann", "Ben", "Cleo", "Dan"],
        "first_dealer": 0,
        "hands": hands,
    }
    base.update(extra)
    return base


def refusal(raw: dict[str, Any]) -> dict[str, Any]:
    """The error body of a sheet the engine must refuse."""
    try:
        settle(raw)
    except EngineError as exc:
        return exc.as_json()["error"]
    raise AssertionError("the engine accepted a sheet it must refuse")


def one_deal(variant: str, hand: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return settle(sheet(variant, [hand], **extra))["hands"][0]


def assert_conserved(result: dict[str, Any], carried_in: int) -> None:
    """Conservation, told from the transfers alone: each seat's delta is what its transfers moved, and the
    pools hold what they held plus what the transfers put in, deal by deal."""
    pools = carried_in
    for hand in result["hands"]:
        flow: dict[Any, int] = {party: 0 for party in (0, 1, 2, 3, "pool")}
        for t in hand["transfers"]:
            flow[t["from"]] -= t["counters"]
            flow[t["to"]] += t["counters"]
        assert hand["deltas"] == [flow[0], flow[1], flow[2], flow[3]], hand["number"]
        assert sum(hand["pools"]) == pools + flow["pool"], hand["number"]
        pools = sum(hand["pools"])
        assert sum(hand["balances"]) + pools == carried_in, hand["number"]
