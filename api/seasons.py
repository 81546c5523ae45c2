"""A club's seasons and their standings (issue 41; `ledger.stats.seasons` says how they are computed).

- `GET /api/v1/clubs/{club}/seasons/` (members), `POST` (treasurers and admins; `Idempotency-Key`).
- `GET /api/v1/clubs/{club}/seasons/{id}/` (members), `PUT` with `If-Match: "<version>"` (treasurers).
- `GET /api/v1/clubs/{club}/seasons/{id}/standings/` (members): JSON, or CSV (`?format=csv`,
  `Accept: text/csv`; a request with `Accept-Language` gets the pages' CSV in that language, as the
  statistics' CSVs). `POST` there stores the table as it stands now (treasurers and admins).

A bad field is 400 `invalid_request` naming it; another club's season is 404; a player or a scorer
who writes is 403.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.models import Role
from ledger.selectors import club_role
from ledger.stats import seasons
from ledger.stats.models import Season

from . import schema
from .common import ListQuery, Route, Strict, Timestamp, actor, etag, if_match, paginated, query, valid
from .formats import FORMATS, for_people
from .idempotency import idempotency_key, idempotent
from .stats import CSVRenderer, StatsView, _money

HEADERS = {
    "rank": _("Rank"),
    "player_id": _("Player id"),
    "player": _("Player"),
    "played": _("Evenings played"),
    "counted": _("Evenings counted"),
    "qualified": _("Qualified"),
    "sum": _("Best evenings"),
    "handicap": _("Handicap an evening"),
    "total": _("Total"),
}


class SeasonCSVRenderer(CSVRenderer):
    """The statistics' CSV writer with the standings' headers in words."""

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        if for_people((renderer_context or {}).get("request")) and data:
            data = [[str(HEADERS.get(h, h)) for h in data[0]], *data[1:]]
        return super().render(data, accepted_media_type, renderer_context)


class SeasonOut(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    name = serializers.CharField()
    starts_on = serializers.DateField(help_text="its first day, the club's calendar day")
    ends_on = serializers.DateField(help_text="its last day (included)")
    variants = serializers.ListField(child=serializers.CharField(), help_text="the variants it counts")
    measure = serializers.ChoiceField(
        choices=Season.Measure.values, help_text="an evening's result: counters (close.final) or money (close.money)"
    )
    currency = serializers.CharField(allow_blank=True, help_text="with measure=money; blank otherwise")
    min_evenings = serializers.IntegerField(help_text="evenings played to qualify")
    best_of = serializers.IntegerField(allow_null=True, help_text="the best N evenings count; null: all count")
    handicap_percent = serializers.IntegerField(
        help_text="this share of the previous season's average evening, sign turned, added for each counted evening"
    )
    version = serializers.IntegerField()
    stored = serializers.SerializerMethodField(help_text="whether its table is stored (ended, or on demand)")
    updated_at = Timestamp()

    def get_stored(self, season: Season) -> bool:
        return season.standings is not None


class SeasonIn(Strict):
    name = serializers.CharField(trim_whitespace=False, allow_blank=True)
    starts_on = serializers.CharField(help_text="YYYY-MM-DD")
    ends_on = serializers.CharField(help_text="YYYY-MM-DD")
    variants = serializers.JSONField(help_text='variant codes, e.g. ["american"]; one with measure=counters')
    measure = serializers.CharField(required=False, default=Season.Measure.COUNTERS, help_text="counters or money")
    currency = serializers.CharField(required=False, default="", allow_blank=True, help_text="with measure=money")
    min_evenings = serializers.JSONField(required=False, help_text="a whole number, 0 to 366")
    best_of = serializers.JSONField(required=False, help_text="a whole number 1 to 366, or null")
    handicap_percent = serializers.JSONField(required=False, help_text="0 (none) to 100")


def season_response(season: Season, status: int = 200) -> Response:
    return Response(SeasonOut(season).data, status=status, headers={"ETag": etag(season.version)})


class SeasonListApi(APIView):
    """The club's seasons, the newest first (members)."""

    OutputSerializer = SeasonOut

    @extend_schema(
        responses=schema.page_of(OutputSerializer),
        parameters=schema.PAGE_PARAMETERS,
        operation_id="v1_clubs_seasons_list",
    )
    def get(self, request: Request, club_id: int) -> Response:
        valid(ListQuery, query(request))
        return paginated(request, self, seasons.season_list(user=request.user, club_id=club_id), self.OutputSerializer)


class SeasonCreateApi(APIView):
    """Define a season (treasurers and admins). An optional `Idempotency-Key` makes a retry answer the
    first create again."""

    InputSerializer = SeasonIn
    OutputSerializer = SeasonOut

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer},
        parameters=[OpenApiParameter("Idempotency-Key", OpenApiTypes.UUID, OpenApiParameter.HEADER, required=False)],
    )
    def post(self, request: Request, club_id: int) -> Response:
        club_role(user=request.user, club_id=club_id, role=Role.TREASURER)  # 404 / 403 before the body
        if request.headers.get("Idempotency-Key") is None:
            return self._create(request, club_id)
        key = idempotency_key(request)
        return idempotent(request, self, key, lambda claim: self._create(request, club_id))

    def _create(self, request: Request, club_id: int) -> Response:
        data = valid(self.InputSerializer, request.data)
        return season_response(seasons.season_create(actor=actor(request), club_id=club_id, **data), 201)


class SeasonsRoute(Route):
    operations = {"get": SeasonListApi, "post": SeasonCreateApi}


class SeasonDetailApi(APIView):
    """One season (members); `ETag` is its version."""

    OutputSerializer = SeasonOut

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, club_id: int, season_id: int) -> Response:
        return season_response(seasons.season_get(user=request.user, club_id=club_id, season_id=season_id))


class SeasonUpdateApi(APIView):
    """Edit a season (treasurers) with `If-Match: "<version>"`. A stored table whose rules change is
    computed again, and a note says what changed."""

    InputSerializer = SeasonIn
    OutputSerializer = SeasonOut

    @extend_schema(
        request=InputSerializer,
        responses={200: OutputSerializer},
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=True)],
    )
    def put(self, request: Request, club_id: int, season_id: int) -> Response:
        found = seasons.season_get(user=request.user, club_id=club_id, season_id=season_id, role=Role.TREASURER)
        version = if_match(request, found.version, "season")
        data = valid(self.InputSerializer, request.data)
        season = seasons.season_update(
            actor=actor(request), club_id=club_id, season_id=season_id, expected_version=version, **data
        )
        return season_response(season)


class SeasonRoute(Route):
    operations = {"get": SeasonDetailApi, "put": SeasonUpdateApi}


# --- standings -------------------------------------------------------------------------------------


class EveningOut(serializers.Serializer):
    session = serializers.IntegerField(help_text="the evening's session (GET /api/v1/sessions/{id}/)")
    date = serializers.DateField(help_text="its closing day, the club's calendar day")
    value = serializers.IntegerField(help_text="the player's result: counters, or money in minor units")
    counts = serializers.BooleanField(help_text="one of his best evenings (false: dropped)")


class PlayerRefOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class LineOut(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="ties share a place; null: not qualified")
    player = PlayerRefOut()
    played = serializers.IntegerField()
    counted = serializers.IntegerField()
    qualified = serializers.BooleanField()
    sum = serializers.IntegerField(help_text="the counted evenings' results")
    handicap = serializers.IntegerField(help_text="added for each counted evening")
    total = serializers.IntegerField(help_text="sum + handicap x counted")
    evenings = EveningOut(many=True, help_text="in closing order")


class ChangeOut(serializers.Serializer):
    reason = serializers.ChoiceField(choices=["evening", "rules", "handicap", "recompute"])
    at = Timestamp()
    changes = serializers.DictField(
        help_text="players (each with his line's rank, total, played, counted and qualified before and after), "
        "sessions_added, sessions_removed, evenings_changed"
    )


class StandingsOut(serializers.Serializer):
    season = SeasonOut()
    computed_at = serializers.CharField()
    stored = serializers.BooleanField(help_text="the stored table (shown as it was) or computed now")
    ended = serializers.BooleanField()
    lines = LineOut(many=True)
    notes = ChangeOut(many=True, help_text="what changed each time a stored table was computed again, newest first")


class StandingsQuery(Strict):
    format = serializers.ChoiceField(required=False, choices=list(FORMATS))


class StandingsApi(StatsView):
    """The season's standings (members). CSV: `rank,player_id,player,played,counted,qualified,sum,
    handicap,total`."""

    renderer_classes = [JSONRenderer, SeasonCSVRenderer]
    OutputSerializer = StandingsOut

    @extend_schema(
        summary="A season's standings",
        parameters=[OpenApiParameter("format", str, enum=list(FORMATS), description="`csv` answers CSV")],
        responses={
            (200, "application/json"): OutputSerializer,
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="one line a player"),
        },
    )
    def get(self, request: Request, club_id: int, season_id: int) -> Response:
        valid(StandingsQuery, query(request))
        table = seasons.season_standings(user=request.user, club_id=club_id, season_id=season_id)
        if self.wants_csv(request):
            money = table.season.measure == Season.Measure.MONEY
            people = for_people(request)
            rows: list[list[Any]] = [list(HEADERS)]
            for line in table.lines:
                amount = (lambda v: _money(v, table.season.currency, people)) if money else (lambda v: v)
                rows.append(
                    [
                        line["rank"],
                        line["player"]["id"],
                        line["player"]["name"],
                        line["played"],
                        line["counted"],
                        (gettext("yes") if line["qualified"] else gettext("no")) if people else line["qualified"],
                        amount(line["sum"]),
                        amount(line["handicap"]),
                        amount(line["total"]),
                    ]
                )
            return self.csv_response(rows, f"club-{club_id}-season-{season_id}.csv")
        return Response(
            self.OutputSerializer(
                {
                    "season": table.season,
                    "computed_at": table.computed_at,
                    "stored": table.stored,
                    "ended": table.ended,
                    "lines": table.lines,
                    "notes": table.notes,
                }
            ).data
        )


class StandingsStoreApi(APIView):
    """Store the season's table as it stands now (treasurers and admins); a stored one is computed
    again, with a note when it changed."""

    @extend_schema(request=None, responses={200: SeasonOut})
    def post(self, request: Request, club_id: int, season_id: int) -> Response:
        return season_response(seasons.season_store(actor=actor(request), club_id=club_id, season_id=season_id))


class StandingsRoute(Route):
    operations = {"get": StandingsApi, "post": StandingsStoreApi}
