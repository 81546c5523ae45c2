from __future__ import annotations

from typing import Any

from django.apps import AppConfig


def session_refresh(sender: Any, *, session_id: int, **kwargs: Any) -> None:
    """The statistics' receiver of `ledger.background.session_changed`. The services (and openskill)
    are imported at the first call, so a process that never settles a session never loads them."""
    from .services import stats_session_refresh

    stats_session_refresh(session_id=session_id)


def seasons_refresh(sender: Any, *, session_id: int, **kwargs: Any) -> None:
    """The seasons' receiver (issue 41), connected after the statistics' so their rows are fresh: a
    stored season that held the session, or whose days hold it, is computed again with a note."""
    from .seasons import seasons_session_refresh

    seasons_session_refresh(session_id=session_id)


class StatsConfig(AppConfig):
    """Player statistics, ratings and leaderboards (`stats.md`): a projection of the closed sessions."""

    name = "ledger.stats"
    label = "stats"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from ledger.background import session_changed

        session_changed.connect(session_refresh, dispatch_uid="stats")
        session_changed.connect(seasons_refresh, dispatch_uid="seasons")
