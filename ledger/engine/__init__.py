"""The settlement engine: pure Python, no Django. Rules, tables, replay and settlement maths.

`settle(raw_sheet)` is the whole engine seen from outside: a score sheet (parsed JSON) in, the
settlement JSON out, or an `EngineError` naming the hand, the field and the rule.
"""

from __future__ import annotations

from typing import Any

from .closing import close_session, close_stints
from .errors import EngineError
from .replay import Replay, replay
from .sheet import SETTLEMENT_FORMAT, SettledHand, Sheet, parse_sheet
from .stints import forfeiting_stints, share_owners, stint_counters, stints
from .variants.table_law import MISDEAL_CODE

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
    if sheet.close is not None and sheet.substitutions:
        result["close"] = close_with_substitutions(sheet, run, hands)
    elif sheet.close is not None:
        pools, multi_pool = run.pools.as_list(), run.variant.multi_pool
        result["close"] = close_session(
            run.balances, pools, sheet.pools, sheet.close, sheet.stake, multi_pool, run.forfeits
        )
    return result


def close_with_substitutions(sheet: Sheet, run: Replay, hands: list[SettledHand]) -> dict[str, Any]:
    """The close of a sheet whose seats changed hands (issue 37): each stint settled on its own hands."""
    assert sheet.close is not None
    all_stints = stints(sheet.players, sheet.substitutions)
    plain = [dict(h) for h in hands]
    misdeals: list[tuple[int, int]] = []
    if getattr(sheet.options, "misdeal_forfeits_share", False):
        misdeals = [
            (h["number"], h["dealer"])
            for h, raw in zip(hands, sheet.hands, strict=True)
            if isinstance(raw, dict) and raw.get("bid") == MISDEAL_CODE
        ]
    return close_stints(
        all_stints,
        stint_counters(all_stints, plain),
        share_owners(run.variant.declaration.pool_share, all_stints, plain),
        forfeiting_stints(all_stints, misdeals),
        run.balances,
        run.pools.as_list(),
        sheet.pools,
        sheet.close,
        sheet.stake,
        run.variant.multi_pool,
    )


def settle(raw: Any) -> dict[str, Any]:
    """The settlement JSON of a raw score sheet."""
    sheet = parse_sheet(raw)
    run = Replay(sheet)
    hands = [run.settle_next(raw) for raw in sheet.hands]
    return settlement_json(sheet, run, hands)
