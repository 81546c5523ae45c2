from django.apps import AppConfig


class StatsConfig(AppConfig):
    """Player statistics, ratings and leaderboards (`stats.md`): a projection of the closed sessions."""

    name = "ledger.stats"
    label = "stats"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from ledger.background import on_session_change

        from .services import stats_session_refresh

        def refresh(session_id: int) -> None:
            stats_session_refresh(session_id=session_id)

        on_session_change("stats")(refresh)
