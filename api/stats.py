"""Player statistics, ratings and leaderboards (`stats.md`): three read-only views, thin.

- `GET /api/v1/players/{id}/stats/`: filters `variant`, `date_from`, `date_to`.
- `GET /api/v1/players/{id}/ratings/`: the rating after each session, paginated; the same filters.
- `GET /api/v1/clubs/{club}/leaderboard/`: `period`, `by`, `month`, `year`, `currency` and the filters.

Each also answers CSV, chosen by `?format=csv` or by `Accept: text/csv` (`docs/stats.md` gives the
columns); `?format=json` or any JSON `Accept` answers JSON. Errors are always the JSON error body.
A bad filter is 400 `invalid_request` naming the field; another club's player or club is 404.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.fields import SkipField
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from ledger.csvfile import Amount, csv_text
from ledger.stats import selectors
from ledger.stats.selectors import BOARDS, PERIODS, Filters

from . import schema
from .common import Number, Strict, Timestamp, VariantField, paginated, query, valid, variant_choices
from .formats import FORMATS, JsonOrCsvView, for_people

# Dates far enough from datetime's limits that no time zone takes a day's bounds past them.
FIRST_YEAR, LAST_YEAR = 1000, 9998


# --- CSV -------------------------------------------------------------------------------------------

# A person's CSV (`formats.for_people`): headers in words, figures rounded as a page shows them.
HEADERS = {
    "figure": _("Figure"),
    "variant": _("Variant"),
    "currency": _("Currency"),
    "bid": _("Bid"),
    "role": _("Role"),
    "value": _("Value"),
    "session": _("Session"),
    "closed_at": _("Closed"),
    "mu": _("Skill (μ)"),
    "sigma": _("Uncertainty (σ)"),
    "ordinal": _("Rating"),
    "rank": _("Rank"),
    "player_id": _("Player id"),
    "player": _("Player"),
    "sessions": _("Sessions"),
}
FIGURE_DECIMALS = 2  # a rating or a rate as the pages show it (never 17 digits)


class CSVRenderer(BaseRenderer):
    """Rows (lists, the first the header's codes) by the one CSV writer (`ledger.csvfile`): the data
    CSV of `docs/stats.md`, or for a person (`formats.for_people`) the pages' CSV in their language."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        people = for_people((renderer_context or {}).get("request"))
        header, *rows = data
        if people:
            header = [str(HEADERS.get(h, h)) for h in header]
        return csv_text(header, [[_figure(v, people) for v in row] for row in rows], for_people=people).encode("utf-8")


def _figure(value: Any, people: bool) -> Any:
    """A float as a number cell: exact for data (as `repr` writes it), rounded for a person."""
    if isinstance(value, float):
        return Decimal(f"{value:.{FIGURE_DECIMALS}f}") if people else Decimal(repr(value))
    return value


def _money(cents: Any, currency: Any, people: bool) -> Any:
    """Minor units (data) or, for a person, the amount in money (`12,50`)."""
    return Amount(cents, currency) if people and isinstance(cents, int) and isinstance(currency, str) else cents


class StatsView(JsonOrCsvView):
    """JSON or CSV; refusals always in JSON."""

    renderer_classes = [JSONRenderer, CSVRenderer]

    @staticmethod
    def wants_csv(request: Request) -> bool:
        return getattr(request.accepted_renderer, "format", None) == "csv"

    @staticmethod
    def csv_response(rows: list[list[Any]], filename: str) -> Response:
        return Response(rows, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


# --- filters ---------------------------------------------------------------------------------------

MONTH = re.compile(r"^([0-9]{4})-(0[1-9]|1[0-2])$")
YEAR = re.compile(r"^[0-9]{4}$")
CURRENCY = re.compile(r"^[A-Z]{3}$")


class StatsFilters(Strict):
    variant = VariantField(required=False)
    date_from = serializers.DateField(required=False, input_formats=["iso-8601"])
    date_to = serializers.DateField(required=False, input_formats=["iso-8601"])
    format = serializers.ChoiceField(required=False, choices=list(FORMATS))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        variant = self.fields["variant"]
        assert isinstance(variant, VariantField)
        variant.choices = variant_choices()  # the variants named now, as `VARIANTS` lists them

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        for name in ("date_from", "date_to"):
            if name in attrs and not FIRST_YEAR <= attrs[name].year <= LAST_YEAR:
                raise ValidationError({name: [f"`{name}` must be a date from the year {FIRST_YEAR} to {LAST_YEAR}"]})
        if "date_from" in attrs and "date_to" in attrs and attrs["date_from"] > attrs["date_to"]:
            raise ValidationError({"date_to": ["`date_to` must not be before `date_from`"]})
        return attrs


class RatingFilters(StatsFilters):
    page = serializers.CharField(required=False)
    page_size = serializers.CharField(required=False)


class LeaderboardFilters(StatsFilters):
    period = serializers.ChoiceField(required=False, choices=list(PERIODS))
    by = serializers.ChoiceField(required=False, choices=list(BOARDS), default="rating")
    month = serializers.RegexField(MONTH, required=False, error_messages={"invalid": "`month` must be YYYY-MM"})
    year = serializers.RegexField(YEAR, required=False, error_messages={"invalid": "`year` must be YYYY"})
    currency = serializers.RegexField(
        CURRENCY, required=False, error_messages={"invalid": "`currency` must be three capital letters (ISO 4217)"}
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        period = attrs.get("period")
        for name in ("month", "year"):
            if name in attrs:
                if period is None:
                    period = name
                elif period != name:
                    raise ValidationError({name: [f"`{name}` goes with period={name}, not period={period}"]})
        for name, year in (("month", attrs.get("month", "")[:4]), ("year", attrs.get("year"))):
            if year and not FIRST_YEAR <= int(year) <= LAST_YEAR:
                raise ValidationError({name: [f"`{name}` must be in the years {FIRST_YEAR} to {LAST_YEAR}"]})
        attrs["period"] = period or "all"
        return attrs


def filters_of(data: dict[str, Any]) -> Filters:
    return Filters(variant=data.get("variant"), date_from=data.get("date_from"), date_to=data.get("date_to"))


FILTER_PARAMETERS = [
    OpenApiParameter(
        "variant", str, enum=variant_choices(), description="only sessions of this variant (a code or an alias)"
    ),
    OpenApiParameter(
        "date_from",
        dt.date,
        description="only sessions closed on this date or later (ISO date, the club's calendar day)",
    ),
    OpenApiParameter(
        "date_to",
        dt.date,
        description="only sessions closed on this date or earlier (ISO date, the club's calendar day)",
    ),
    OpenApiParameter(
        "format",
        str,
        enum=list(FORMATS),
        description="`csv` answers CSV (as does `Accept: text/csv`); default JSON",
    ),
]
CSV_RESPONSE = OpenApiResponse(OpenApiTypes.STR, description="the same figures as CSV (docs/stats.md)")


# --- the answers' shapes -------------------------------------------------------------------------


class StatsPlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.IntegerField()


class ContractOut(serializers.Serializer):
    bid = serializers.CharField(help_text="the variant's bid code")
    role = serializers.ChoiceField(choices=["bidder", "partner"])
    played = serializers.IntegerField()
    made = serializers.IntegerField(help_text="conceded counts as made; a revoke by the side as not made")
    rate = Number(help_text="made / played, rounded to 4 decimals")
    overtricks = serializers.IntegerField()
    shortfall = serializers.IntegerField()


class SessionCountersOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="the session")
    counters = serializers.IntegerField(help_text="the player's close.final there")


class PoolsWonOut(serializers.Serializer):
    count = serializers.IntegerField()
    counters = serializers.IntegerField()


class MiserePartoutOut(serializers.Serializer):
    played = serializers.IntegerField()
    lost = serializers.IntegerField()


class EventOut(serializers.Serializer):
    count = serializers.IntegerField()
    rate = serializers.FloatField(help_text="count / deals, rounded to 4 decimals; 0.0 with no deal")


class TableLawOut(serializers.Serializer):
    revokes = EventOut(help_text="deals where the player revoked")
    misdeals = EventOut(help_text='misdeals (`bid: "misdeal"`) the player dealt')
    concessions = EventOut(help_text='contracts the player paid instead of playing (`conceded: "bidder"`)')


class VariantStatsOut(serializers.Serializer):
    sessions = serializers.IntegerField()
    deals = serializers.IntegerField()
    counters = serializers.IntegerField(help_text="sum of close.final")
    best_session = SessionCountersOut()
    worst_session = SessionCountersOut()
    pools_won = PoolsWonOut()
    misere_partout = MiserePartoutOut(allow_null=True, help_text="null in French and Russian Boston")
    table_law = TableLawOut(help_text="table law (rules.md §0.11): each event against its culprit")
    contracts = ContractOut(many=True)


class StreakOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["win", "loss"], allow_null=True, help_text="null: no current run")
    length = serializers.IntegerField()


class RatingOut(serializers.Serializer):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu - 3 sigma")
    sessions = serializers.IntegerField()
    ranked = serializers.BooleanField(help_text="at least RATING_MIN_SESSIONS closed sessions")


class PlayerStatsOut(serializers.Serializer):
    player = StatsPlayerOut()
    sessions = serializers.IntegerField()
    deals = serializers.IntegerField()
    money = serializers.DictField(child=serializers.IntegerField(), help_text="minor units per currency")
    variants = serializers.DictField(child=VariantStatsOut(), help_text="per variant code")
    streak = StreakOut()
    rating = RatingOut(allow_null=True, help_text="current; not filtered; null before the first closed session")


class RatingEntryOut(serializers.Serializer):
    session = serializers.IntegerField(source="session_id")
    closed_at = Timestamp()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class BoardPlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class LeaderboardRowOut(serializers.Serializer):
    rank = serializers.IntegerField(help_text="ties share a rank (1, 2, 2, 4)")
    value = Number(help_text="money: minor units; rating: ordinal; success: made / played")
    sessions = serializers.IntegerField(help_text="the player's closed sessions in the period")
    mu = serializers.FloatField(required=False, help_text="by=rating")
    sigma = serializers.FloatField(required=False, help_text="by=rating")
    played = serializers.IntegerField(required=False, help_text="by=success: contracts played")
    made = serializers.IntegerField(required=False, help_text="by=success: contracts made")
    player = BoardPlayerOut()


class LeftOutOrNull(serializers.CharField):
    """Left out of the answer when the board has no such key; null when it has one that is null."""

    def get_attribute(self, instance: Any) -> Any:
        if self.source not in instance:
            raise SkipField()
        return instance[self.source]


class LeaderboardOut(serializers.Serializer):
    period = serializers.ChoiceField(choices=list(PERIODS))
    by = serializers.ChoiceField(choices=list(BOARDS))
    month = serializers.CharField(required=False, help_text="YYYY-MM, with period=month")
    year = serializers.CharField(required=False, help_text="YYYY, with period=year")
    currency = LeftOutOrNull(required=False, allow_null=True, help_text="with by=money")
    time_zone = serializers.CharField(
        help_text="the club's IANA time zone: a month, a year, date_from and date_to are its calendar days"
    )
    rows = LeaderboardRowOut(many=True)


# --- views -----------------------------------------------------------------------------------------


class PlayerStatsApi(StatsView):
    """A player's statistics (`stats.md`) over his closed sessions, all variants and per variant.

    CSV (`?format=csv` or `Accept: text/csv`): one figure a line, `figure,variant,currency,bid,role,value`.
    """

    FilterSerializer = StatsFilters
    OutputSerializer = PlayerStatsOut

    @extend_schema(
        summary="A player's statistics",
        parameters=FILTER_PARAMETERS,
        responses={(200, "application/json"): OutputSerializer, (200, "text/csv"): CSV_RESPONSE},
    )
    def get(self, request: Request, player_id: int) -> Response:
        data = valid(self.FilterSerializer, query(request))
        stats = selectors.player_stats(user=request.user, player_id=player_id, filters=filters_of(data))
        if self.wants_csv(request):
            return self.csv_response(stats_rows(stats, for_people(request)), f"player-{player_id}-stats.csv")
        return Response(self.OutputSerializer(stats).data)


class PlayerRatingsApi(StatsView):
    """The player's rating after each of his closed sessions, oldest first (paginated).

    CSV: the whole history, unpaginated, `session,closed_at,mu,sigma,ordinal`.
    """

    FilterSerializer = RatingFilters
    OutputSerializer = RatingEntryOut

    @extend_schema(
        summary="A player's rating after each of his closed sessions",
        parameters=[
            *FILTER_PARAMETERS,
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int, description="at most 200"),
        ],
        responses={(200, "application/json"): schema.page_of(OutputSerializer), (200, "text/csv"): CSV_RESPONSE},
    )
    def get(self, request: Request, player_id: int) -> Response:
        data = valid(self.FilterSerializer, query(request))
        _, entries = selectors.player_ratings(user=request.user, player_id=player_id, filters=filters_of(data))
        if self.wants_csv(request):  # the whole history: an export is not paginated
            columns = list(self.OutputSerializer().fields)
            rows: list[list[Any]] = [columns]
            for entry in entries.iterator():
                e = self.OutputSerializer(entry).data
                rows.append([e[name] for name in columns])
            return self.csv_response(rows, f"player-{player_id}-ratings.csv")
        return paginated(request, self, entries, self.OutputSerializer)


class LeaderboardApi(StatsView):
    """The club's leaderboard by money, rating or success over a month, a year or all time.

    Ties share a rank (1, 2, 2, 4), ordered by name. CSV: `rank,player_id,player,value,sessions`.
    """

    FilterSerializer = LeaderboardFilters
    OutputSerializer = LeaderboardOut

    @extend_schema(
        summary="The club's leaderboard",
        parameters=[
            OpenApiParameter("period", str, enum=list(PERIODS), description="default all"),
            OpenApiParameter("by", str, enum=list(BOARDS), description="default rating"),
            OpenApiParameter(
                "month", str, description="YYYY-MM, with period=month (default: this month), in the club's time zone"
            ),
            OpenApiParameter(
                "year", str, description="YYYY, with period=year (default: this year), in the club's time zone"
            ),
            OpenApiParameter("currency", str, description="by=money: required when the period has several"),
            *FILTER_PARAMETERS,
        ],
        responses={(200, "application/json"): OutputSerializer, (200, "text/csv"): CSV_RESPONSE},
    )
    def get(self, request: Request, club_id: int) -> Response:
        data = valid(self.FilterSerializer, query(request))
        month = MONTH.match(data["month"]) if "month" in data else None
        board = selectors.leaderboard(
            user=request.user,
            club_id=club_id,
            by=data["by"],
            period=data["period"],
            month=(int(month.group(1)), int(month.group(2))) if month else None,
            year=int(data["year"]) if "year" in data else None,
            currency=data.get("currency"),
            filters=filters_of(data),
        )
        if self.wants_csv(request):
            rows: list[list[Any]] = [["rank", "player_id", "player", "value", "sessions"]]
            for r in board["rows"]:
                value = (
                    _money(r["value"], board.get("currency"), for_people(request))
                    if data["by"] == "money"
                    else r["value"]
                )
                rows.append([r["rank"], r["player"]["id"], r["player"]["name"], value, r["sessions"]])
            return self.csv_response(rows, f"club-{club_id}-leaderboard-{board['by']}.csv")
        return Response(self.OutputSerializer(board).data)


def stats_rows(stats: dict[str, Any], people: bool = False) -> list[list[Any]]:
    """A player's statistics as one figure a line: figure, variant, currency, bid, role, value."""
    rows: list[list[Any]] = [["figure", "variant", "currency", "bid", "role", "value"]]
    rows.append(["sessions", None, None, None, None, stats["sessions"]])
    rows.append(["deals", None, None, None, None, stats["deals"]])
    for currency, amount in stats["money"].items():
        rows.append(["money", None, currency, None, None, _money(amount, currency, people)])
    for name, v in stats["variants"].items():
        for figure in ("sessions", "deals", "counters"):
            rows.append([figure, name, None, None, None, v[figure]])
        for which in ("best_session", "worst_session"):
            rows.append([f"{which}.id", name, None, None, None, v[which]["id"]])
            rows.append([f"{which}.counters", name, None, None, None, v[which]["counters"]])
        rows.append(["pools_won.count", name, None, None, None, v["pools_won"]["count"]])
        rows.append(["pools_won.counters", name, None, None, None, v["pools_won"]["counters"]])
        if v["misere_partout"] is not None:
            rows.append(["misere_partout.played", name, None, None, None, v["misere_partout"]["played"]])
            rows.append(["misere_partout.lost", name, None, None, None, v["misere_partout"]["lost"]])
        for event, figures in v["table_law"].items():
            rows.append([f"{event}.count", name, None, None, None, figures["count"]])
            rows.append([f"{event}.rate", name, None, None, None, figures["rate"]])
        for c in v["contracts"]:
            for figure in ("played", "made", "rate", "overtricks", "shortfall"):
                rows.append([f"contract.{figure}", name, None, c["bid"], c["role"], c[figure]])
    streak = stats["streak"]
    rows.append(["streak.kind", None, None, None, None, streak["kind"]])
    rows.append(["streak.length", None, None, None, None, streak["length"]])
    if stats["rating"] is not None:
        for figure in ("mu", "sigma", "ordinal", "sessions", "ranked"):
            rows.append([f"rating.{figure}", None, None, None, None, stats["rating"][figure]])
    return rows
