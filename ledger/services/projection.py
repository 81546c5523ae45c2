"""The engine's projection: a session's sheet replayed through the engine, and what of it is stored
(each hand's settled JSON, the session's balances, pools and next deal, its version). The engine computes
every counter; nothing here does arithmetic on counters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from ledger.engine import EngineError, Replay, parse_sheet
from ledger.engine.sheet import SettledHand
from ledger.models import (
    Hand,
    Seat,
    Session,
)
from ledger.selectors import (
    seat_changes,
    sheet_of,
    substitutions_of,
)

# The database stores amounts as 64-bit integers; the engine's integers are unbounded.
MAX_AMOUNT = 10**15


def without_number(hand: Any) -> Any:
    if isinstance(hand, dict):
        return {k: v for k, v in hand.items() if k != "number"}
    return hand


# Names play no part in settling a deal: recording one replays the sheet under these (a query less).
SEAT_NAMES = ["seat 0", "seat 1", "seat 2", "seat 3"]


def replay(
    session: Session, hands: list[Any], close: dict[str, Any] | None = None, names: list[str] | None = None
) -> tuple[Any, Replay, list]:
    """Settle the session's sheet with these hands; raises the engine's error naming the deal."""
    substitutions = None
    if names is None:
        names = list(Seat.objects.filter(session=session).order_by("seat").values_list("player__name", flat=True))
        substitutions = substitutions_of(seat_changes(session=session))
    sheet = parse_sheet(sheet_of(session=session, players=names, hands=hands, close=close, substitutions=substitutions))
    run = Replay(sheet)
    settled = list(run)
    return sheet, run, settled


def check_hand_amounts(result: SettledHand) -> None:
    """A hand's movements must fit the 64-bit columns they reach (the statistics, the money ledger)."""
    for t in result["transfers"]:
        if t["counters"] > MAX_AMOUNT:
            raise EngineError(
                "invalid_hand", {"adjustments": [f"a movement above {MAX_AMOUNT} counters"]}, result["number"]
            )


def check_close_amounts(closing: dict[str, Any]) -> None:
    """The close's division and payments must fit them too: refused here, not in the background."""
    amounts = [*closing["division"], *(p["cents"] for p in closing.get("payments", []))]
    if any(amount > MAX_AMOUNT for amount in amounts):
        raise EngineError("invalid_sheet", {"stake": [f"an amount above {MAX_AMOUNT} cannot be stored"]})


def write_projection(
    session: Session,
    hands: list[Hand],
    settled: list[SettledHand],
    run: Replay,
    *,
    bump: bool = True,
    fresh: Sequence[Hand] = (),
) -> None:
    """Store the replay: each hand's settled JSON, the session's state; version + 1.

    Only what the replay changed is written: a hand's settled JSON when it differs (`fresh` hands,
    just created, already hold theirs). Rewriting every hand made each write cost as much as the
    whole evening (bench/README.md); the projection still equals a replay, because every hand whose
    result changed is rewritten.
    """
    fresh_ids = {h.pk for h in fresh}
    changed: list[Hand] = []
    for hand, result in zip(hands, settled, strict=True):
        if hand.pk in fresh_ids:
            check_hand_amounts(result)
            continue
        if hand.settled != result:
            check_hand_amounts(result)
            hand.settled = result
            changed.append(hand)
    if changed:
        Hand.objects.bulk_update(changed, ["settled"])
    store_state(session, run, len(hands), bump=bump)


STATE_FIELDS = ["hands_count", "balances", "pools", "next_deal", "version", "updated_at"]


def store_state(session: Session, run: Replay, hands_count: int, *, bump: bool = True) -> None:
    """The session's row after the replay (`project_state`), saved whole: callers may have set other
    fields (a close, a reopen)."""
    project_state(session, run, hands_count, bump=bump)
    session.save()


def project_state(session: Session, run: Replay, hands_count: int, *, bump: bool = True) -> dict[str, Any]:
    """The session's row after the replay: the engine's state and, for a change, version + 1. Returns
    the projection's columns (`STATE_FIELDS`), all that a recorded hand changes, for its UPDATE."""
    session.hands_count = hands_count
    session.balances = list(run.balances)
    session.pools = run.pools.as_list()
    session.next_deal = run.next_deal()
    if bump:
        session.version += 1
    session.updated_at = timezone.now()
    return {name: getattr(session, name) for name in STATE_FIELDS}


def followup_request(session: Session) -> None:
    """Inside the writing transaction: the session's background work is due, and goes to Celery once the
    transaction commits (`ledger.tasks.followup_request`). Imported at the first write that needs it, so a
    process that never closes a session never imports Celery (clubscore/__init__.py)."""
    from ledger.tasks import followup_request as due

    due(session=session)
