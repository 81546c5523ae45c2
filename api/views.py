"""The mobile scorer API, version 1 (`api.md`): one view per path, thin.

A view authenticates (DRF), reads through `ledger.selectors`, checks what `api.md` orders it to check
before the body (the key, the closed session, If-Match, the deal number), and hands the write to one
`ledger.services` function. Refusals are exceptions; `api.errors.exception_handler` shapes them.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from typing import Any
from urllib.parse import unquote

from django.contrib.auth import authenticate
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import selectors, services
from ledger.engine import settle
from ledger.engine.errors import sheet_error
from ledger.exceptions import SessionClosed, VersionMismatch
from ledger.models import DeviceToken, Role, Session

from . import schema
from .authentication import DeviceTokenAuthentication
from .errors import PreconditionRequired
from .idempotency import idempotency_key, idempotent
from .limits import DEVICE_MAX, NAME_MAX, PASSWORD_MAX, REASON_MAX, USERNAME_MAX, VARIANT_MAX, hand_limits, sheet_limits
from .pagination import Pagination
from .parsers import has_unstorable_text
from .presenters import club_json, device_json, hand_json, player_json, revision_json, session_json, timestamp
from .throttling import AnonThrottle, LoginThrottle, LoginUsernameThrottle

MAX_ID = 2**63 - 1


# --- helpers ---------------------------------------------------------------------------------------


class Strict(serializers.Serializer):
    """A request body: a JSON object with these fields and no others."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise ValidationError({name: [f"`{name}` is not a field of this request"] for name in unknown})
        return super().to_internal_value(data)


class Text(serializers.CharField):
    """A JSON string (DRF's CharField would take 5 for "5")."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


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


class Documented(serializers.JSONField):
    """Any JSON, judged by the engine (its errors name the field); the schema says what it takes."""

    def __init__(self, *, schema: dict[str, Any], **kwargs: Any) -> None:
        self.openapi_schema = schema
        super().__init__(**kwargs)


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


def valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def etag(version: int) -> str:
    return f'"{version}"'


def expected_version(request: Request, session: Session) -> int:
    """The version `If-Match` names (428 without one; 412 when it names another than the current)."""
    header = request.headers.get("If-Match")
    if header is None or not header.strip():
        raise PreconditionRequired()
    tags = [tag.strip() for tag in header.split(",")]
    if "*" in tags or etag(session.version) in tags:
        return session.version
    raise VersionMismatch(f"If-Match names {header.strip()}, but the session is at version {session.version}")


def reason(request: Request) -> str:
    """Why a hand was amended or undone: the optional `X-Reason` header (percent-encoded UTF-8)."""
    text = unquote(request.headers.get("X-Reason", ""), errors="replace")
    return "".join(c if c.isprintable() else " " for c in text).strip()[:REASON_MAX]


def paginated(request: Request, view: APIView, queryset: Any, present: Any, headers: dict | None = None) -> Response:
    paginator = Pagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    response = paginator.get_paginated_response([present(item) for item in page])
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


# --- auth ------------------------------------------------------------------------------------------


class TokenView(APIView):
    """Log a device in (a new token for it) or out (revoke the token of this request)."""

    throttle_classes = [LoginThrottle, AnonThrottle]

    class LoginIn(Strict):
        username = Text(max_length=USERNAME_MAX)
        password = Text(max_length=PASSWORD_MAX, trim_whitespace=False)
        device = Text(max_length=DEVICE_MAX)

    def get_authenticators(self) -> list:
        if self.request is not None and self.request.method == "POST":
            return []  # logging in needs no token (and an expired one must not stand in the way)
        return super().get_authenticators()

    def get_permissions(self) -> list:
        return [AllowAny()] if self.request.method == "POST" else super().get_permissions()

    def get_throttles(self) -> list:
        return super().get_throttles() if self.request.method == "POST" else []

    def get_authenticate_header(self, request: Request) -> str:
        return DeviceTokenAuthentication.keyword

    @extend_schema(request=LoginIn, responses={201: schema.TokenOut}, auth=[])
    def post(self, request: Request) -> Response:
        data = valid(self.LoginIn, request.data)
        per_username = LoginUsernameThrottle()
        per_username.attempt(data["username"])  # 429 while this username's failures fill its window
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None:
            raise AuthenticationFailed("wrong username or password")
        per_username.succeeded(data["username"])
        key, token = services.token_issue(user=user, device=data["device"])
        return Response({"token": key, "expires": timestamp(token.expires_at)}, status=201)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        if not isinstance(request.auth, DeviceToken):
            raise ValidationError({"Authorization": ["log out with the device's `Authorization: Token <key>`"]})
        services.token_revoke(token=request.auth)
        return Response(status=204)


class DeviceTokenListView(APIView):
    """The caller's live device tokens (never a key): what `DELETE .../tokens/{id}/` can log out."""

    @extend_schema(responses=schema.page_of(schema.DeviceOut), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request) -> Response:
        valid(ListQuery, dict(request.query_params.items()))
        return paginated(request, self, selectors.token_list(user=request.user), device_json)


class DeviceTokenDetailView(APIView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, token_id: int) -> Response:
        services.token_revoke_by_id(user=request.user, token_id=token_id)
        return Response(status=204)


# --- clubs and players -----------------------------------------------------------------------------


class ClubListView(APIView):
    class ClubCreate(Strict):
        name = Text(max_length=NAME_MAX)

    @extend_schema(responses=schema.page_of(schema.ClubOut), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request) -> Response:
        clubs = selectors.club_list(user=request.user)
        return paginated(request, self, clubs, lambda c: club_json(c, c.role))

    @extend_schema(request=ClubCreate, responses={201: schema.ClubOut})
    def post(self, request: Request) -> Response:
        data = valid(self.ClubCreate, request.data)
        club = services.club_create(actor=request.user, name=data["name"])
        return Response(club_json(club, Role.ADMIN), status=201)


class PlayerListView(APIView):
    class PlayerCreate(Strict):
        name = Text(max_length=NAME_MAX)

    @extend_schema(responses=schema.page_of(schema.PlayerOut), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request, club_id: int) -> Response:
        players = selectors.player_list(user=request.user, club_id=club_id)
        return paginated(request, self, players, player_json)

    @extend_schema(request=PlayerCreate, responses={201: schema.PlayerOut})
    def post(self, request: Request, club_id: int) -> Response:
        selectors.club_role(user=request.user, club_id=club_id, role=Role.SCORER)
        data = valid(self.PlayerCreate, request.data)
        player = services.player_create(actor=request.user, club_id=club_id, name=data["name"])
        return Response(player_json(player), status=201)


class ListQuery(Strict):
    """A list's query: its page only."""

    page = serializers.CharField(required=False)
    page_size = serializers.CharField(required=False)


# --- sessions --------------------------------------------------------------------------------------


def _session_response(session: Session, status: int = 200) -> Response:
    return Response(session_json(session), status=status, headers={"ETag": etag(session.version)})


class SessionListView(APIView):
    class SessionFilters(Strict):
        club = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        status = serializers.ChoiceField(required=False, choices=["open", "closed"])
        player = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        date_from = serializers.DateField(required=False, input_formats=["iso-8601"])
        date_to = serializers.DateField(required=False, input_formats=["iso-8601"])
        page = serializers.CharField(required=False)
        page_size = serializers.CharField(required=False)

    class SessionOpen(Strict):
        club = serializers.IntegerField(min_value=1, max_value=MAX_ID)
        variant = Text(max_length=VARIANT_MAX)
        rules = Documented(required=False, schema={"type": "object", "description": "the variant's options"})
        players = FourPlayers(child=serializers.IntegerField(min_value=1, max_value=MAX_ID), min_length=4, max_length=4)
        first_dealer = Documented(schema={"type": "integer", "minimum": 0, "maximum": 3})
        stake = Documented(required=False, allow_null=True, schema=STAKE_SCHEMA)
        carry_pools_from = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)

    @extend_schema(
        parameters=[
            OpenApiParameter("club", int),
            OpenApiParameter("status", str, enum=["open", "closed"]),
            OpenApiParameter("player", int),
            OpenApiParameter("date_from", dt.date),
            OpenApiParameter("date_to", dt.date),
            *schema.PAGE_PARAMETERS,
        ],
        responses=schema.page_of(schema.SessionOut),
        operation_id="v1_sessions_list",
    )
    def get(self, request: Request) -> Response:
        params = {k: v for k, v in request.query_params.items()}
        filters = valid(self.SessionFilters, params)
        filters.pop("page", None)
        filters.pop("page_size", None)
        sessions = selectors.session_list(user=request.user, **filters)
        return paginated(request, self, sessions, session_json)

    @extend_schema(request=SessionOpen, responses={201: schema.SessionOut})
    def post(self, request: Request) -> Response:
        data = valid(self.SessionOpen, request.data)
        session = services.session_open(
            actor=request.user,
            club_id=data["club"],
            variant=data["variant"],
            rules=data.get("rules"),
            player_ids=data["players"],
            first_dealer=data["first_dealer"],
            stake=data.get("stake"),
            carry_pools_from=data.get("carry_pools_from"),
        )
        return _session_response(session, 201)


class SessionDetailView(APIView):
    @extend_schema(responses=schema.SessionOut)
    def get(self, request: Request, session_id: int) -> Response:
        return _session_response(selectors.session_get(user=request.user, session_id=session_id))


class SessionImportView(APIView):
    class SessionImport(Strict):
        club = serializers.IntegerField(min_value=1, max_value=MAX_ID)
        sheet = serializers.JSONField()
        closed_at = serializers.JSONField(
            required=False,
            help_text="when the evening closed: an ISO 8601 date or date and time with offset, not in the future;"
            " only for a sheet with `close` (without it, now)",
        )

    @extend_schema(request=SessionImport, responses={201: schema.SessionOut})
    def post(self, request: Request) -> Response:
        data = valid(self.SessionImport, request.data)
        sheet_limits(data["sheet"])
        session = services.session_import(
            actor=request.user, club_id=data["club"], sheet=data["sheet"], closed_at=data.get("closed_at")
        )
        return _session_response(session, 201)


class SessionCloseView(APIView):
    class SessionClose(Strict):
        pools = serializers.ChoiceField(choices=["divide", "carry"], required=False, default="divide")

    @extend_schema(request=SessionClose, responses=schema.Settlement, parameters=[schema.IF_MATCH])
    def post(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id, role=Role.TREASURER)
        if session.status == Session.Status.CLOSED:
            raise SessionClosed()
        version = expected_version(request, session)
        data = valid(self.SessionClose, request.data)
        session, settlement = services.session_close(
            actor=request.user, session_id=session_id, pools=data["pools"], expected_version=version
        )
        return Response(settlement, headers={"ETag": etag(session.version)})


class SessionReopenView(APIView):
    @extend_schema(request=None, responses=schema.SessionOut, parameters=[schema.IF_MATCH])
    def post(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id, role=Role.TREASURER)
        version = expected_version(request, session)
        session = services.session_reopen(actor=request.user, session_id=session_id, expected_version=version)
        return _session_response(session)


class SessionSettlementView(APIView):
    @extend_schema(responses=schema.Settlement)
    def get(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        return Response(selectors.session_settlement(session=session), headers={"ETag": etag(session.version)})


class SessionSheetView(APIView):
    @extend_schema(responses=schema.Sheet)
    def get(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        return Response(selectors.session_sheet(session=session), headers={"ETag": etag(session.version)})


# --- hands -----------------------------------------------------------------------------------------


class HandListView(APIView):
    @extend_schema(
        responses=schema.page_of(schema.HandOut),
        parameters=schema.PAGE_PARAMETERS,
        operation_id="v1_sessions_hands_list",
    )
    def get(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        hands = selectors.hand_list(session=session)
        return paginated(request, self, hands, lambda h: hand_json(h, session.version), {"ETag": etag(session.version)})

    @extend_schema(
        request=schema.HandIn,
        responses={201: schema.HandOut},
        parameters=[OpenApiParameter("Idempotency-Key", uuid.UUID, OpenApiParameter.HEADER, required=True)],
    )
    def post(self, request: Request, session_id: int) -> Response:
        key = idempotency_key(request)
        return idempotent(request, self, key, lambda claim: self._record(request, session_id, key))

    def _record(self, request: Request, session_id: int, key: uuid.UUID) -> tuple[Response, bool]:
        # hand_record checks membership, role, an open session and the deal number under the lock, and
        # returns the hand already recorded with this key (a retry): the answer is rendered again.
        hand_limits(request.data)
        new = services.hand_record(actor=request.user, session_id=session_id, hand=request.data, client_key=key)
        version = new.session.version
        return Response(hand_json(new, version), status=201, headers={"ETag": etag(version)}), False


class HandDetailView(APIView):
    @extend_schema(responses=schema.HandOut)
    def get(self, request: Request, session_id: int, number: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        hand = selectors.hand_get(session=session, number=number)
        return Response(hand_json(hand, session.version), headers={"ETag": etag(session.version)})

    def _writable(self, request: Request, session_id: int, number: int) -> tuple[Session, int]:
        session = selectors.session_get(user=request.user, session_id=session_id, role=Role.SCORER)
        if session.status == Session.Status.CLOSED:
            raise SessionClosed()
        selectors.hand_get(session=session, number=number)
        return session, expected_version(request, session)

    @extend_schema(request=schema.HandIn, responses=schema.HandOut, parameters=[schema.IF_MATCH, schema.X_REASON])
    def put(self, request: Request, session_id: int, number: int) -> Response:
        _, version = self._writable(request, session_id, number)
        hand_limits(request.data)
        hand = services.hand_amend(
            actor=request.user,
            session_id=session_id,
            number=number,
            hand=request.data,
            expected_version=version,
            reason=reason(request),
        )
        return Response(hand_json(hand, hand.session.version), headers={"ETag": etag(hand.session.version)})

    @extend_schema(request=None, responses=schema.SessionOut, parameters=[schema.IF_MATCH, schema.X_REASON])
    def delete(self, request: Request, session_id: int, number: int) -> Response:
        _, version = self._writable(request, session_id, number)
        session = services.hand_undo(
            actor=request.user, session_id=session_id, number=number, expected_version=version, reason=reason(request)
        )
        return _session_response(session)


class HandHistoryView(APIView):
    @extend_schema(responses=schema.page_of(schema.RevisionOut), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request, session_id: int, number: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        revisions = selectors.hand_history(session=session, number=number)
        return paginated(request, self, revisions, revision_json, {"ETag": etag(session.version)})


# --- stateless -------------------------------------------------------------------------------------


class SettleView(APIView):
    """A score sheet in, its settlement out (the `settle` command's JSON); stores nothing."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonThrottle]

    @extend_schema(request=schema.Sheet, responses=schema.Settlement, auth=[])
    def post(self, request: Request) -> Response:
        try:
            sheet = json.loads(request.body)
        except (ValueError, RecursionError):
            raise sheet_error("sheet", "the score sheet is not valid JSON") from None
        if has_unstorable_text(sheet):  # the answer echoes names and keys: it could not be encoded
            raise sheet_error("sheet", "strings must not contain NUL or lone surrogates (\\u0000, \\ud800)")
        sheet_limits(sheet)
        return Response(settle(sheet))
