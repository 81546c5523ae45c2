"""The whole table (issue 25): a seat's ✓ or dispute of a deal, the treasurer's word on a dispute, seat
links (one seat of one session, for a player without a login) and board links (the club's room board).

Who may: a player of the club confirms or disputes for his own seat (the seat his player holds); a
seat link for its seat only, through `/api/v1/seat/{key}/...`, where every other path or method
answers 404; a treasurer settles disputes; a scorer issues and revokes seat links; an admin board
links. The live channel itself (server-sent events) is not JSON and lives outside /api/ (`ledger/web/live.py`).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound as DrfNotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import selectors
from ledger.live import live_tag
from ledger.models import DealCheck, SeatLink
from ledger.names import NAME_MAX
from ledger.services.table import (
    REASON_MAX,
    board_link_issue,
    board_link_revoke,
    deal_check,
    dispute_settle,
    seat_link_issue,
    seat_link_revoke,
)

from . import schema
from .common import Strict, Text, Timestamp, Username, actor, paginated
from .sessions import SessionOut
from .throttling import AnonThrottle

KEY_PARAMETER = OpenApiParameter(
    "key", str, OpenApiParameter.PATH, description="the link's key, as issued (24 URL-safe characters)"
)


class CheckOut(serializers.Serializer):
    session = serializers.IntegerField(source="session_id")
    number = serializers.IntegerField(help_text="the deal")
    seat = serializers.IntegerField(min_value=0, max_value=3)
    state = serializers.ChoiceField(choices=DealCheck.State.values)
    reason = serializers.CharField(help_text="a dispute's reason; empty for a ✓")
    by = Username(allow_null=True, help_text="who said it (null: through a seat link)")
    seat_link = serializers.BooleanField(source="by_link_id", help_text="said through a seat link")
    at = Timestamp()
    cleared_at = Timestamp(allow_null=True, help_text="set once an amend, an undo or the seat's next word cleared it")
    outcome = serializers.ChoiceField(
        choices=["", *DealCheck.Outcome.values], help_text="a dispute the treasurer settled: resolved or overruled"
    )
    note = serializers.CharField()
    settled_by = Username(allow_null=True)
    settled_at = Timestamp(allow_null=True)

    def to_representation(self, instance: DealCheck) -> Any:
        data = super().to_representation(instance)
        data["seat_link"] = instance.by_link_id is not None
        return data


def check_response(check: DealCheck) -> Response:
    return Response(CheckOut(check).data)


class DisputeIn(Strict):
    reason = Text(max_length=REASON_MAX, help_text="what is not right, in a few words")


class ConfirmIn(Strict):
    """No field: the seat is the caller's own."""


# --- a member, for his own seat --------------------------------------------------------------------


class ConfirmApi(APIView):
    """✓ for deal `number`, for the caller's own seat (a player of the club seated at the table). Idempotent."""

    InputSerializer = ConfirmIn
    OutputSerializer = CheckOut

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def post(self, request: Request, session_id: int, number: int) -> Response:
        self.InputSerializer(data=request.data).is_valid(raise_exception=True)
        check = deal_check(actor=actor(request), session_id=session_id, number=number, state=DealCheck.State.CONFIRMED)
        return check_response(check)


class DisputeApi(APIView):
    """ "That's not right" for deal `number`, with a short reason, for the caller's own seat. Idempotent.

    The deal is marked disputed on every phone; an amend clears it and asks again; a close waits until
    the treasurer has resolved or overruled it."""

    InputSerializer = DisputeIn
    OutputSerializer = CheckOut

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def post(self, request: Request, session_id: int, number: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        check = deal_check(
            actor=actor(request),
            session_id=session_id,
            number=number,
            state=DealCheck.State.DISPUTED,
            reason=serializer.validated_data["reason"],
        )
        return check_response(check)


class CheckListApi(APIView):
    """Every seat's live check of the session's deals (`history=true`: the cleared ones too); the ETag is
    the live tag `"<version>.<checks version>"`."""

    class FilterSerializer(Strict):
        history = serializers.BooleanField(required=False, default=False)
        page = serializers.CharField(required=False)
        page_size = serializers.CharField(required=False)

    OutputSerializer = CheckOut

    @extend_schema(
        parameters=[OpenApiParameter("history", bool), *schema.PAGE_PARAMETERS],
        responses=schema.page_of(OutputSerializer),
    )
    def get(self, request: Request, session_id: int) -> Response:
        filters = self.FilterSerializer(data=dict(request.query_params.items()))
        filters.is_valid(raise_exception=True)
        session = selectors.session_get(user=request.user, session_id=session_id)
        checks = selectors.deal_checks(session=session, history=filters.validated_data["history"])
        tag = f'"{live_tag(session.version, session.checks_version)}"'
        return paginated(request, self, checks, self.OutputSerializer, {"ETag": tag})


class DisputeSettleIn(Strict):
    outcome = serializers.ChoiceField(choices=DealCheck.Outcome.values)
    note = Text(required=False, default="", allow_blank=True, max_length=REASON_MAX)


class DisputeSettleApi(APIView):
    """The treasurer's word on seat `seat`'s open dispute of deal `number`: resolved or overruled (who and
    when are kept). Idempotent for the same outcome."""

    InputSerializer = DisputeSettleIn
    OutputSerializer = CheckOut

    @extend_schema(
        request=InputSerializer,
        responses=OutputSerializer,
        parameters=[OpenApiParameter("seat", int, OpenApiParameter.PATH, description="0-3")],
    )
    def post(self, request: Request, session_id: int, number: int, seat: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        check = dispute_settle(
            actor=actor(request),
            session_id=session_id,
            number=number,
            seat=seat,
            outcome=serializer.validated_data["outcome"],
            note=serializer.validated_data["note"],
        )
        return check_response(check)


# --- seat links --------------------------------------------------------------------------------------


class SeatLinkOut(serializers.Serializer):
    id = serializers.IntegerField()
    session = serializers.IntegerField(source="session_id")
    seat = serializers.IntegerField(min_value=0, max_value=3)
    created_by = Username(allow_null=True)
    created_at = Timestamp()


class SeatLinkIssued(SeatLinkOut):
    key = serializers.CharField(help_text="shown once: only its hash is kept")
    url = serializers.CharField(help_text="the page the player opens (`/s/<key>/`)")


class SeatLinkIn(Strict):
    seat = serializers.IntegerField(min_value=0, max_value=3)


class SeatLinkIssueApi(APIView):
    """A seat link for one seat of this open session (scorers): it reads this session only, confirms or
    disputes for its seat only, stops working 24 hours after the close, and can be revoked."""

    InputSerializer = SeatLinkIn
    OutputSerializer = SeatLinkIssued

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        key, link = seat_link_issue(actor=actor(request), session_id=session_id, seat=serializer.validated_data["seat"])
        data = {**SeatLinkOut(link).data, "key": key, "url": f"/s/{key}/"}
        return Response(data, status=201)


class SeatLinkRevokeApi(APIView):
    """Revoke a seat link (scorers): it answers 404 from then on."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, session_id: int, link_id: int) -> Response:
        seat_link_revoke(actor=actor(request), session_id=session_id, link_id=link_id)
        return Response(status=204)


# --- through a seat link: its session, its seat, nothing else -------------------------------------------


class LinkView(APIView):
    """A view reached by a link's key, without a login. A method it does not take answers 404, like any
    other path under the link: a seat link confirms and disputes, and does nothing else."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonThrottle]

    def http_method_not_allowed(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        raise DrfNotFound()


class SeatSessionOut(SessionOut):
    """The session as a seat link reads it: no login name of the club's members (issue 38, item 10). A
    link's holder may have no account; who opened or closed the session is the club's business."""

    opened_by = None  # type: ignore[assignment]
    closed_by = None  # type: ignore[assignment]


class SeatCheckOut(CheckOut):
    """A check as a seat link reads it: who said it or settled it by seat and outcome, no login name."""

    by = None  # type: ignore[assignment]
    settled_by = None  # type: ignore[assignment]


class SeatTableOut(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3, help_text="the link's seat")
    tag = serializers.CharField(help_text="the live tag: `<version>.<checks version>`")
    session = SeatSessionOut()
    checks = SeatCheckOut(many=True, help_text="every seat's live checks")


class SeatTableApi(LinkView):
    """What a seat link reads: its session and every seat's live checks."""

    http_method_names = ["get", "head"]
    OutputSerializer = SeatTableOut

    @extend_schema(responses=OutputSerializer, auth=[], parameters=[KEY_PARAMETER])
    def get(self, request: Request, key: str) -> Response:
        link = selectors.seat_link_get(key=key)
        session = link.session
        data = {
            "seat": link.seat,
            "tag": live_tag(session.version, session.checks_version),
            "session": session,
            "checks": list(selectors.deal_checks(session=session)),
        }
        return Response(self.OutputSerializer(data).data, headers={"ETag": f'"{data["tag"]}"'})


def _link_check(key: str, number: int, state: str, reason: str = "") -> Response:
    link: SeatLink = selectors.seat_link_get(key=key)
    check = deal_check(session_id=link.session_id, number=number, state=state, reason=reason, link=link)
    return Response(SeatCheckOut(check).data)


class SeatConfirmApi(LinkView):
    """✓ for deal `number`, for the link's seat. Idempotent."""

    http_method_names = ["post"]
    InputSerializer = ConfirmIn
    OutputSerializer = SeatCheckOut

    @extend_schema(request=InputSerializer, responses=OutputSerializer, auth=[], parameters=[KEY_PARAMETER])
    def post(self, request: Request, key: str, number: int) -> Response:
        selectors.seat_link_get(key=key)  # a dead link is 404 before its body is read
        self.InputSerializer(data=request.data).is_valid(raise_exception=True)
        return _link_check(key, number, DealCheck.State.CONFIRMED)


class SeatDisputeApi(LinkView):
    """ "That's not right" for deal `number`, for the link's seat, with a short reason. Idempotent."""

    http_method_names = ["post"]
    InputSerializer = DisputeIn
    OutputSerializer = SeatCheckOut

    @extend_schema(request=InputSerializer, responses=OutputSerializer, auth=[], parameters=[KEY_PARAMETER])
    def post(self, request: Request, key: str, number: int) -> Response:
        selectors.seat_link_get(key=key)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return _link_check(key, number, DealCheck.State.DISPUTED, serializer.validated_data["reason"])


# --- board links -------------------------------------------------------------------------------------


class BoardLinkOut(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    name = serializers.CharField(source="label", help_text="which screen it is for")
    created_by = Username(allow_null=True)
    created_at = Timestamp()


class BoardLinkIssued(BoardLinkOut):
    key = serializers.CharField(help_text="shown once: only its hash is kept")
    url = serializers.CharField(help_text="the board's page for the room's screen (`/b/<key>/`)")


class BoardLinkIn(Strict):
    name = Text(required=False, default="", allow_blank=True, max_length=NAME_MAX, help_text="which screen")


class BoardLinkIssueApi(APIView):
    """A read-only, revocable link to the club's room board, for a screen with no login (admins)."""

    InputSerializer = BoardLinkIn
    OutputSerializer = BoardLinkIssued

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request, club_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        key, link = board_link_issue(actor=actor(request), club_id=club_id, label=serializer.validated_data["name"])
        return Response({**BoardLinkOut(link).data, "key": key, "url": f"/b/{key}/"}, status=201)


class BoardLinkRevokeApi(APIView):
    """Revoke a board link (admins): its screen shows 404 from then on."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, club_id: int, link_id: int) -> Response:
        board_link_revoke(actor=actor(request), club_id=club_id, link_id=link_id)
        return Response(status=204)
