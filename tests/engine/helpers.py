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
