"""/api/v1/ (`api.md`), the schema and its docs; any other path under /api/ is a JSON 404."""

from __future__ import annotations

from django.urls import include, path, re_path, register_converter
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerSplitView

from . import auth, clubs, hands, money, nights, presets, seasons, sessions, stats, substitutions, table, variants
from .errors import api_not_found
from .schema import Generator


class IdConverter:
    """A database id: digits, at most 18 (so it fits a 64-bit integer)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")


class SeatConverter(IdConverter):
    regex = "[0-3]"


class KeyConverter:
    """A link's key: URL-safe base64 (ledger.services.table.LINK_KEY_BYTES)."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(SeatConverter, "seat")
register_converter(KeyConverter, "key")

v1 = [
    path("auth/token/", auth.TokenRoute.as_view(), name="auth-token"),
    path("auth/tokens/", auth.DeviceTokenListApi.as_view(), name="auth-tokens"),
    path("auth/tokens/<id:token_id>/", auth.DeviceTokenRevokeApi.as_view(), name="auth-token-detail"),
    path("clubs/", clubs.ClubsRoute.as_view(), name="clubs"),
    path("clubs/<id:club_id>/time-zone/", clubs.ClubTimeZoneApi.as_view(), name="club-time-zone"),
    path("clubs/<id:club_id>/payment/", clubs.ClubPaymentApi.as_view(), name="club-payment"),
    path("clubs/<id:club_id>/players/", clubs.PlayersRoute.as_view(), name="club-players"),
    path("clubs/<id:club_id>/presets/", presets.PresetsRoute.as_view(), name="club-presets"),
    path("clubs/<id:club_id>/presets/<id:preset_id>/", presets.PresetRoute.as_view(), name="club-preset"),
    path(
        "clubs/<id:club_id>/presets/<id:preset_id>/versions/",
        presets.PresetVersionListApi.as_view(),
        name="club-preset-versions",
    ),
    path("sessions/", sessions.SessionsRoute.as_view(), name="sessions"),
    path("sessions/import/", sessions.SessionImportApi.as_view(), name="session-import"),
    path("sessions/<id:session_id>/", sessions.SessionDetailApi.as_view(), name="session"),
    path("sessions/<id:session_id>/hands/", hands.HandsRoute.as_view(), name="hands"),
    path("sessions/<id:session_id>/hands/<id:number>/", hands.HandRoute.as_view(), name="hand"),
    path("sessions/<id:session_id>/hands/<id:number>/history/", hands.HandHistoryApi.as_view(), name="hand-history"),
    path("sessions/<id:session_id>/close/", sessions.SessionCloseApi.as_view(), name="session-close"),
    path("sessions/<id:session_id>/reopen/", sessions.SessionReopenApi.as_view(), name="session-reopen"),
    path("sessions/<id:session_id>/settlement/", sessions.SessionSettlementApi.as_view(), name="session-settlement"),
    path("sessions/<id:session_id>/sheet/", sessions.SessionSheetApi.as_view(), name="session-sheet"),
    # The whole table (issue 25): a seat's word on a deal, disputes, seat and board links.
    path("sessions/<id:session_id>/hands/<id:number>/confirm/", table.ConfirmApi.as_view(), name="hand-confirm"),
    path("sessions/<id:session_id>/hands/<id:number>/dispute/", table.DisputeApi.as_view(), name="hand-dispute"),
    path(
        "sessions/<id:session_id>/hands/<id:number>/disputes/<seat:seat>/settle/",
        table.DisputeSettleApi.as_view(),
        name="dispute-settle",
    ),
    path("sessions/<id:session_id>/checks/", table.CheckListApi.as_view(), name="session-checks"),
    path("sessions/<id:session_id>/seat-links/", table.SeatLinkIssueApi.as_view(), name="seat-links"),
    path(
        "sessions/<id:session_id>/substitutions/",
        substitutions.SubstitutionsRoute.as_view(),
        name="session-substitutions",
    ),
    path("sessions/<id:session_id>/seat-links/<id:link_id>/", table.SeatLinkRevokeApi.as_view(), name="seat-link"),
    path("seat/<key:key>/", table.SeatTableApi.as_view(), name="seat-table"),
    path("seat/<key:key>/hands/<id:number>/confirm/", table.SeatConfirmApi.as_view(), name="seat-confirm"),
    path("seat/<key:key>/hands/<id:number>/dispute/", table.SeatDisputeApi.as_view(), name="seat-dispute"),
    path("clubs/<id:club_id>/board-links/", table.BoardLinkIssueApi.as_view(), name="board-links"),
    path("clubs/<id:club_id>/board-links/<id:link_id>/", table.BoardLinkRevokeApi.as_view(), name="board-link"),
    path("players/<id:player_id>/stats/", stats.PlayerStatsApi.as_view(), name="player-stats"),
    path("players/<id:player_id>/ratings/", stats.PlayerRatingsApi.as_view(), name="player-ratings"),
    path("clubs/<id:club_id>/leaderboard/", stats.LeaderboardApi.as_view(), name="club-leaderboard"),
    # Seasons (issue 41): named periods with qualifying rules, and their standings.
    path("clubs/<id:club_id>/seasons/", seasons.SeasonsRoute.as_view(), name="club-seasons"),
    path("clubs/<id:club_id>/seasons/<id:season_id>/", seasons.SeasonRoute.as_view(), name="club-season"),
    path(
        "clubs/<id:club_id>/seasons/<id:season_id>/standings/",
        seasons.StandingsRoute.as_view(),
        name="club-season-standings",
    ),
    path("clubs/<id:club_id>/carried-pools/", money.CarriedPoolListApi.as_view(), name="club-carried-pools"),
    path("clubs/<id:club_id>/settle-up/", money.SettleUpApi.as_view(), name="club-settle-up"),
    path("clubs/<id:club_id>/payments/", money.PaymentsRoute.as_view(), name="club-payments"),
    path("players/<id:player_id>/statement/", money.StatementApi.as_view(), name="player-statement"),
    # The club night (issue 37).
    path("clubs/<id:club_id>/nights/", nights.NightsRoute.as_view(), name="club-nights"),
    path("nights/<id:night_id>/", nights.NightDetailApi.as_view(), name="night"),
    path("nights/<id:night_id>/check-ins/", nights.CheckInApi.as_view(), name="night-check-ins"),
    path("nights/<id:night_id>/draw/", nights.DrawApi.as_view(), name="night-draw"),
    path("nights/<id:night_id>/tables/<id:number>/cut-in/", nights.CutInRoute.as_view(), name="night-cut-in"),
    path("nights/<id:night_id>/settlement/", nights.NightSettlementApi.as_view(), name="night-settlement"),
    path("settle/", sessions.SettleApi.as_view(), name="settle"),
    path("variants/", variants.VariantListApi.as_view(), name="variants"),
    path("variants/<str:name>/", variants.VariantDetailApi.as_view(), name="variant"),
]

urlpatterns = [
    path("v1/", include(v1)),
    path("schema/", SpectacularJSONAPIView.as_view(generator_class=Generator), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    re_path(r"", api_not_found),  # last: unknown paths, and known ones without their trailing slash
]
