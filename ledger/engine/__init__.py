"""The settlement engine: pure Python, no Django. Rules, tables, replay and settlement maths.

`settle(raw_sheet)` is the whole engine seen from outside: a score sheet (parsed JSON) in, the
settlement JSON out, or an `EngineError` naming the hand, the field and the rule.
"""

from __future__ import annotations

from typing import Any

from .closing import close_session
from .errors import EngineError
from .replay import Replay, replay
from .sheet import SETTLEMENT_FORMAT, SettledHand, Sheet, parse_sheet

__all__ = ["EngineError", "Replay", "Sheet", "parse_sheet", "replay", "settle", "settlement_json"]


def settlement_json(sheet: Sheet, run: Replay, hands: list[SettledHand]) -> dict[str, Any]:
    """The settlement JSON of `scoresheet.md` for a sheet already replayed."""
    result: dict[str, Any] = {
        "format": SETTLEMENT_FORMAT,
        "variant": sheet.variant,
        "hands": hands,
        "balances": list(run.balances),
        "pools": run.pools.as_list(),
    }
    if sheet.close is not None:
        pools, multi_pool = run.pools.as_list(), run.variant.multi_pool
        result["close"] = close_session(
            run.balances, pools, sheet.pools, sheet.close, sheet.stake, multi_pool, run.forfeits
        )
    return result


def settle(raw: Any) -> dict[str, Any]:
    """The settlement JSON of a raw score sheet."""
    sheet = parse_sheet(raw)
    run = Replay(sheet)
    hands = [run.settle_next(raw) for raw in sheet.hands]
    return settlement_json(sheet, run, hands)
