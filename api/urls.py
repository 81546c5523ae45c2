"""/api/v1/ (`api.md`), the schema and its docs; any other path under /api/ is a JSON 404."""

from __future__ import annotations

from django.urls import include, path, re_path, register_converter
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerView

from . import money, stats, variants, views
from .errors import api_not_found


class IdConverter:
    """A database id: digits, at most 18 (so it fits a 64-bit integer)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")

v1 = [
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("auth/tokens/", views.DeviceTokenListView.as_view(), name="auth-tokens"),
    path("auth/tokens/<id:token_id>/", views.DeviceTokenDetailView.as_view(), name="auth-token-detail"),
    path("clubs/", views.ClubListView.as_view(), name="clubs"),
    path("clubs/<id:club_id>/players/", views.PlayerListView.as_view(), name="club-players"),
    path("sessions/", views.SessionListView.as_view(), name="sessions"),
    path("sessions/import/", views.SessionImportView.as_view(), name="session-import"),
    path("sessions/<id:session_id>/", views.SessionDetailView.as_view(), name="session"),
    path("sessions/<id:session_id>/hands/", views.HandListView.as_view(), name="hands"),
    path("sessions/<id:session_id>/hands/<id:number>/", views.HandDetailView.as_view(), name="hand"),
    path("sessions/<id:session_id>/hands/<id:number>/history/", views.HandHistoryView.as_view(), name="hand-history"),
    path("sessions/<id:session_id>/close/", views.SessionCloseView.as_view(), name="session-close"),
    path("sessions/<id:session_id>/reopen/", views.SessionReopenView.as_view(), name="session-reopen"),
    path("sessions/<id:session_id>/settlement/", views.SessionSettlementView.as_view(), name="session-settlement"),
    path("sessions/<id:session_id>/sheet/", views.SessionSheetView.as_view(), name="session-sheet"),
    path("players/<id:player_id>/stats/", stats.PlayerStatsView.as_view(), name="player-stats"),
    path("players/<id:player_id>/ratings/", stats.PlayerRatingsView.as_view(), name="player-ratings"),
    path("clubs/<id:club_id>/leaderboard/", stats.LeaderboardView.as_view(), name="club-leaderboard"),
    path("clubs/<id:club_id>/carried-pools/", money.CarriedPoolListView.as_view(), name="club-carried-pools"),
    path("clubs/<id:club_id>/settle-up/", money.SettleUpView.as_view(), name="club-settle-up"),
    path("clubs/<id:club_id>/payments/", money.PaymentListView.as_view(), name="club-payments"),
    path("players/<id:player_id>/statement/", money.StatementView.as_view(), name="player-statement"),
    path("settle/", views.SettleView.as_view(), name="settle"),
    path("variants/", variants.VariantListView.as_view(), name="variants"),
    path("variants/<str:name>/", variants.VariantDetailView.as_view(), name="variant"),
]

urlpatterns = [
    path("v1/", include(v1)),
    path("schema/", SpectacularJSONAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    re_path(r"", api_not_found),  # last: unknown paths, and known ones without their trailing slash
]
