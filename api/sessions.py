"""Sessions (`api.md`, "Resources"): list, open, read, import, close, reopen, settlement, sheet, and the
stateless `settle`. One class per operation; `SessionOut` renders a session wherever one is answered
(a 409 `stale_number` included, `session_body`)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import selectors
from ledger.engine import settle
from ledger.engine.errors import sheet_error
from ledger.engine.variants import get_variant
from ledger.exceptions import SessionClosed
from ledger.followup import background_state
from ledger.i18n import bids_said
from ledger.models import Player, Role, Session
from ledger.selectors import session_players
from ledger.services.sessions import session_close, session_import, session_open, session_reopen

from . import schema
from .common import (
    MAX_ID,
    Documented,
    Route,
    Strict,
    Text,
    Timestamp,
    Username,
    VariantField,
    actor,
    etag,
    expected_version,
    paginated,
    query,
    valid,
    variant_choices,
)
from .limits import VARIANT_MAX, sheet_limits
from .parsers import has_unstorable_text
from .throttling import AnonThrottle

# --- the session's shape ---------------------------------------------------------------------------


class NextDeal(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField(min_value=0, max_value=3)
    double = serializers.BooleanField()


class TrickTotal(serializers.Serializer):
    total = serializers.IntegerField(help_text="the tricks in play: 12 for a bid with a discard, else 13")
    exact = serializers.BooleanField(help_text="true: the four counts must add up to the total")


# `label` and `fields` are attributes of a DRF serializer: the shape is built with type().
LegalBid = type(
    "LegalBid",
    (serializers.Serializer,),
    {
        "code": serializers.CharField(),
        "label": serializers.CharField(),
        "fields": serializers.DictField(
            child=serializers.ChoiceField(choices=["required", "optional", "forbidden"]),
            help_text="every hand field -> required, optional or forbidden under this session's rules",
        ),
        "trumps": serializers.ListField(
            child=serializers.CharField(), required=False, help_text="the trumps allowed now (a bid with a trump)"
        ),
        "trumps_turned": serializers.BooleanField(
            required=False, help_text="true: this deal's turned suit is allowed as well (a simple in belle or petite)"
        ),
        "belle_trump": serializers.BooleanField(
            required=False, help_text="true: belle is among the trumps (once known)"
        ),
        "tricks": TrickTotal(help_text="how the bid's tricks add up"),
    },
)


class BelleOf(serializers.Serializer):
    deal = serializers.IntegerField(help_text="the deal whose turned suit is belle; that deal itself has none yet")
    suit = serializers.CharField(allow_null=True, help_text="belle, once that deal is recorded")


class NextLegal(serializers.Serializer):
    number = serializers.IntegerField()
    deal = serializers.IntegerField(
        required=False, help_text="the game's deal, only where a misdeal made it differ from number (rules.md §0.11)"
    )
    bids = LegalBid(many=True, help_text="the bids allowed on this deal, in rank order")
    belle = BelleOf(allow_null=True, help_text="where this deal finds belle; null when no bid is played in belle")


def next_legal(session: Session) -> dict[str, Any] | None:
    """What the next deal may be under the session's own rules (`api.md`, "Additions"): the selector's,
    its labels in the request's language."""
    legal = selectors.next_legal(session=session)
    if legal is not None:
        bids_said(get_variant(session.variant).declaration, legal["bids"])
    return legal


class SessionOut(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    variant = serializers.CharField()
    rules = serializers.DictField()
    players = serializers.SerializerMethodField(help_text="player ids by seat 0-3")
    player_names = serializers.SerializerMethodField()
    first_dealer = serializers.IntegerField()
    stake = serializers.DictField(allow_null=True)
    status = serializers.ChoiceField(choices=["open", "closed"])
    version = serializers.IntegerField()
    balances = serializers.ListField(child=serializers.IntegerField())
    pools = serializers.ListField(child=serializers.IntegerField())
    next = NextDeal(
        source="next_deal", allow_null=True, help_text="the deal that may be recorded next; null when none may"
    )
    next_legal = serializers.SerializerMethodField(
        help_text="what is legal for that deal under the session's rules; null when none may follow"
    )
    hands = serializers.IntegerField(source="hands_count", help_text="how many deals are recorded")
    carried_in = serializers.ListField(source="pools_in", child=serializers.IntegerField())
    carry_pools_from = serializers.IntegerField(source="carry_pools_from_id", allow_null=True)
    preset = serializers.IntegerField(
        source="preset_version.preset_id", allow_null=True, help_text="the preset it was opened from, or null"
    )
    preset_version = serializers.IntegerField(
        source="preset_version.version", allow_null=True, help_text="the version of that preset it plays"
    )
    close = serializers.DictField(source="closing", allow_null=True, help_text="the settlement's `close` once closed")
    opened_by = Username(allow_null=True)
    opened_at = Timestamp()
    closed_by = Username(allow_null=True)
    closed_at = Timestamp(allow_null=True)
    background = serializers.SerializerMethodField(
        help_text="the background work of the last close or reopen (the money ledger, the statistics): "
        "`pending` until a worker has run it",
    )

    def to_representation(self, instance: Session) -> Any:
        self._seated: list[Player] = session_players(session=instance)  # one query for ids and names
        return super().to_representation(instance)

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_players(self, session: Session) -> list[int]:
        return [p.pk for p in self._seated]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_player_names(self, session: Session) -> list[str]:
        return [p.name for p in self._seated]

    @extend_schema_field(NextLegal(allow_null=True))
    def get_next_legal(self, session: Session) -> dict[str, Any] | None:
        return next_legal(session)

    @extend_schema_field(serializers.ChoiceField(choices=["pending", "done"]))
    def get_background(self, session: Session) -> str:
        return background_state(session)


def session_body(session: Session) -> dict[str, Any]:
    """The session's shape as plain JSON (an error body carries it: 409 `stale_number`)."""
    return dict(SessionOut(session).data)


def session_response(session: Session, status: int = 200) -> Response:
    return Response(SessionOut(session).data, status=status, headers={"ETag": etag(session.version)})


# --- list and open ---------------------------------------------------------------------------------

STAKE_SCHEMA = {
    "type": "object",
    "nullable": True,
    "required": ["currency", "per_counter"],
    "additionalProperties": False,
    "properties": {
        "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
        "per_counter": {"type": "string", "pattern": "^[0-9]{1,9}(\\.[0-9]{1,6})?$"},
    },
}


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
        "minItems": 4,
        "maxItems": 4,
        "uniqueItems": True,
        "description": "four different players of the club, by seat 0-3",
    }
)
class FourPlayers(serializers.ListField):
    """A session's players (their being four different players of the club is the service's to check)."""


class SessionOpen(Strict):
    club = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    variant = Text(max_length=VARIANT_MAX, required=False, help_text="required unless `preset` is given")
    rules = Documented(required=False, schema={"type": "object", "description": "the variant's options"})
    players = FourPlayers(child=serializers.IntegerField(min_value=1, max_value=MAX_ID), min_length=4, max_length=4)
    first_dealer = Documented(schema={"type": "integer", "minimum": 0, "maximum": 3})
    stake = Documented(required=False, allow_null=True, schema=STAKE_SCHEMA)
    carry_pools_from = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    preset = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        help_text="a preset of the club: the session plays its current version's variant, rules and stake "
        "(then leave `variant`, `rules` and `stake` out) and keeps that version",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("preset") is not None:
            given = [name for name in ("variant", "rules", "stake") if name in attrs]
            if given:
                message = "a session opened from a preset takes its variant, rules and stake from it"
                raise serializers.ValidationError({name: [message] for name in given})
        elif "variant" not in attrs:
            raise serializers.ValidationError({"variant": ["choose a variant, or give a `preset`"]})
        return attrs


class SessionListApi(APIView):
    """The sessions the caller can see, newest first."""

    class FilterSerializer(Strict):
        club = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        status = serializers.ChoiceField(required=False, choices=["open", "closed"])
        variant = VariantField(required=False)
        player = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        date_from = serializers.DateField(required=False, input_formats=["iso-8601"])
        date_to = serializers.DateField(required=False, input_formats=["iso-8601"])
        page = serializers.CharField(required=False)
        page_size = serializers.CharField(required=False)

    OutputSerializer = SessionOut

    @extend_schema(
        parameters=[
            OpenApiParameter("club", int),
            OpenApiParameter("status", str, enum=["open", "closed"]),
            OpenApiParameter("variant", str, enum=variant_choices(), description="a code or one of its aliases"),
            OpenApiParameter("player", int),
            OpenApiParameter("date_from", dt.date),
            OpenApiParameter("date_to", dt.date),
            *schema.PAGE_PARAMETERS,
        ],
        responses=schema.page_of(OutputSerializer),
        operation_id="v1_sessions_list",
    )
    def get(self, request: Request) -> Response:
        filters = valid(self.FilterSerializer, query(request))
        filters.pop("page", None)
        filters.pop("page_size", None)
        sessions = selectors.session_list(user=request.user, **filters)
        return paginated(request, self, sessions, self.OutputSerializer)


class SessionOpenApi(APIView):
    """Open a session (scorers): version 1, its carried-in pools claimed from `carry_pools_from`."""

    InputSerializer = SessionOpen
    OutputSerializer = SessionOut

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request) -> Response:
        data = valid(self.InputSerializer, request.data)
        session = session_open(
            actor=actor(request),
            club_id=data["club"],
            variant=data.get("variant", ""),
            rules=data.get("rules"),
            player_ids=data["players"],
            first_dealer=data["first_dealer"],
            stake=data.get("stake"),
            carry_pools_from=data.get("carry_pools_from"),
            preset_id=data.get("preset"),
        )
        return session_response(session, 201)


class SessionsRoute(Route):
    operations = {"get": SessionListApi, "post": SessionOpenApi}


# --- one session -----------------------------------------------------------------------------------


class SessionDetailApi(APIView):
    OutputSerializer = SessionOut

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, session_id: int) -> Response:
        return session_response(selectors.session_get(user=request.user, session_id=session_id))


class SessionImport(Strict):
    club = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    sheet = serializers.JSONField()
    closed_at = serializers.JSONField(
        required=False,
        help_text="when the evening closed: an ISO 8601 date or date and time with offset, not in the future;"
        " only for a sheet with `close` (without it, now)",
    )


class SessionImportApi(APIView):
    """A finished or unfinished session from a score sheet; players matched by name, created when missing
    (a name that looks like a club player's without being it is refused, 400 `players`)."""

    InputSerializer = SessionImport
    OutputSerializer = SessionOut

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request) -> Response:
        data = valid(self.InputSerializer, request.data)
        sheet_limits(data["sheet"])
        session = session_import(
            actor=actor(request), club_id=data["club"], sheet=data["sheet"], closed_at=data.get("closed_at")
        )
        return session_response(session, 201)


class SessionClose(Strict):
    pools = serializers.ChoiceField(choices=["divide", "carry"], required=False, default="divide")


class SessionCloseApi(APIView):
    """End the session (treasurers): settle it, dividing or carrying its pools; answers the settlement."""

    InputSerializer = SessionClose
    OutputSerializer = schema.Settlement

    @extend_schema(request=InputSerializer, responses=OutputSerializer, parameters=[schema.IF_MATCH])
    def post(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id, role=Role.TREASURER)
        if session.status == Session.Status.CLOSED:
            raise SessionClosed()
        version = expected_version(request, session)
        data = valid(self.InputSerializer, request.data)
        session, settlement = session_close(
            actor=actor(request), session_id=session_id, pools=data["pools"], expected_version=version
        )
        return Response(self.OutputSerializer(settlement).data, headers={"ETag": etag(session.version)})


class SessionReopenApi(APIView):
    """Open a closed session again (treasurers); the money ledger reverses that close."""

    OutputSerializer = SessionOut

    @extend_schema(request=None, responses=OutputSerializer, parameters=[schema.IF_MATCH])
    def post(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id, role=Role.TREASURER)
        version = expected_version(request, session)
        session = session_reopen(actor=actor(request), session_id=session_id, expected_version=version)
        return session_response(session)


class SessionSettlementApi(APIView):
    """Exactly what `settle` answers for the session's score sheet; before closing it has no `close`."""

    OutputSerializer = schema.Settlement

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        settlement = selectors.session_settlement(session=session)
        return Response(self.OutputSerializer(settlement).data, headers={"ETag": etag(session.version)})


class SessionSheetApi(APIView):
    """The whole session as a score sheet, re-importable."""

    OutputSerializer = schema.Sheet

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        sheet = selectors.session_sheet(session=session)
        return Response(self.OutputSerializer(sheet).data, headers={"ETag": etag(session.version)})


# --- stateless -------------------------------------------------------------------------------------


class SettleApi(APIView):
    """A score sheet in, its settlement out (the `settle` command's JSON); stores nothing."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonThrottle]
    OutputSerializer = schema.Settlement

    @extend_schema(request=schema.Sheet, responses=OutputSerializer, auth=[])
    def post(self, request: Request) -> Response:
        # The engine judges the sheet and names its errors: it is read as JSON, not through a serializer.
        try:
            sheet = json.loads(request.body)
        except ValueError:
            raise sheet_error("sheet", "the score sheet is not valid JSON") from None
        except RecursionError:  # the C decoder's own limit (about 1,000 levels); no sheet is that deep
            raise sheet_error("sheet", "the score sheet is nested too deeply to be read") from None
        if has_unstorable_text(sheet):  # the answer echoes names and keys: it could not be encoded
            raise sheet_error("sheet", "strings must not contain NUL or lone surrogates (\\u0000, \\ud800)")
        sheet_limits(sheet)
        return Response(self.OutputSerializer(settle(sheet)).data)
