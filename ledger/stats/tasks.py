"""Celery tasks of the statistics: thin wrappers around `ledger.stats.services`."""

from __future__ import annotations

from clubscore.celery import app

from . import services


@app.task
def stats_rebuild(club_id: int | None = None) -> dict[str, int]:
    """Recompute every figure and rating (of one club, or of all) from the hands."""
    result = services.stats_rebuild(club_id=club_id)
    return {"clubs": result.clubs, "sessions": result.sessions, "rating_entries": result.rating_entries}


@app.task
def stats_session_refresh(session_id: int) -> None:
    """The incremental handler as a task of its own (the session follow-up task calls the handler itself)."""
    services.stats_session_refresh(session_id=session_id)
