"""Hands (`api.md`, "Recording a hand", "Amend, undo"): list, record, read, amend, undo, history. One
class per operation; `HandOut` renders a hand wherever one is answered."""

from __future__ import annotations

import uuid
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import selectors
from ledger.exceptions import SessionClosed
from ledger.idempotency import KeyUse, judge_alone
from ledger.models import Hand, Role, Session
from ledger.services.hands import hand_amend, hand_record, hand_undo

from . import schema
from .common import Route, Timestamp, Username, actor, etag, expected_version, paginated, reason
from .idempotency import idempotency_key, idempotent_write, key_use
from .limits import hand_limits
from .sessions import SessionOut, session_response

RECORDED = [name for name in schema.HandIn().get_fields() if name != "number"]


class HandOut(schema.HandIn):
    """The score-sheet hand as recorded (`raw`), its number, the engine's settled fields, who and when."""

    dealer = serializers.IntegerField(source="settled.dealer")
    double = serializers.BooleanField(source="settled.double")
    transfers = schema.Transfer(source="settled.transfers", many=True)
    deltas = serializers.ListField(source="settled.deltas", child=serializers.IntegerField())
    pool_delta = serializers.IntegerField(source="settled.pool_delta")
    balances = serializers.ListField(source="settled.balances", child=serializers.IntegerField())
    pools = serializers.ListField(source="settled.pools", child=serializers.IntegerField())
    recorded_by = Username(allow_null=True)
    recorded_at = Timestamp()
    version = serializers.SerializerMethodField(help_text="the session's current version")

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        for name in RECORDED:  # the score-sheet fields come from the hand as recorded
            fields[name].source = f"raw.{name}"
        return fields

    def recorded(self, instance: Any) -> dict[str, Any]:
        return instance.raw if isinstance(instance.raw, dict) else {}

    def get_version(self, hand: Hand) -> int:
        return int(self.context["version"])


class _HandAnswer(HandOut):
    """`HandOut` but for `version`, which `hand_response` adds: one instance serves every answer of the
    process, since a serializer copies its declared fields anew for each instance, and for one hand that
    copy cost more than rendering it (1.2 ms of a hand's 21 ms in process, bench/README.md "round 5").
    Rendering only reads the fields, so threads may share it."""

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        del fields["version"]
        return fields


_ANSWER = _HandAnswer()


def hand_response(hand: Hand, version: int, status: int = 200) -> Response:
    """The hand, with the session's current `version` in it and as the ETag."""
    data = _ANSWER.to_representation(hand)
    data["version"] = version
    return Response(data, status=status, headers={"ETag": etag(version)})


# --- the session's hands ---------------------------------------------------------------------------


class HandListApi(APIView):
    """The hands so far, in deal order; the session's version as the ETag."""

    OutputSerializer = HandOut

    @extend_schema(
        responses=schema.page_of(OutputSerializer),
        parameters=schema.PAGE_PARAMETERS,
        operation_id="v1_sessions_hands_list",
    )
    def get(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        hands = selectors.hand_list(session=session)
        context = {"version": session.version}
        return paginated(request, self, hands, self.OutputSerializer, {"ETag": etag(session.version)}, context)


class HandRecordApi(APIView):
    """Record the next hand (scorers): `Idempotency-Key` required, safe to retry and safe to race."""

    InputSerializer = schema.HandIn  # documents the body: the engine judges it and names its errors
    OutputSerializer = HandOut

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer},
        parameters=[OpenApiParameter("Idempotency-Key", uuid.UUID, OpenApiParameter.HEADER, required=True)],
    )
    def post(self, request: Request, session_id: int) -> Response:
        use = key_use(request, idempotency_key(request))
        return idempotent_write(request, self, use, lambda: self._record(request, session_id, use), answer)

    def _record(self, request: Request, session_id: int, use: KeyUse) -> Response:
        try:
            hand_limits(request.data)  # parses the body (DRF parses it lazily)
        except Exception:
            judge_alone(use)  # api.md: the key is judged before the body, one that does not parse too
            raise
        # hand_record judges the key under the session's lock, then checks membership, role, an open
        # session and the deal number, and keeps the key with the hand; a retry after a request that
        # died finds the hand by its client key. The answer is rendered once it has returned.
        hand = hand_record(actor=actor(request), session_id=session_id, hand=request.data, client_key=use.key, key=use)
        return answer(hand)


def answer(hand: Hand) -> Response:
    """A recorded hand's answer, the first time and at each replay of its key (the hand as recorded,
    with the session's version then: `ledger.idempotency.recorded_hand`)."""
    return hand_response(hand, hand.session.version, 201)


class HandsRoute(Route):
    operations = {"get": HandListApi, "post": HandRecordApi}


# --- one hand --------------------------------------------------------------------------------------


def writable(request: Request, session_id: int, number: int) -> int:
    """Before the body (api.md): the role, an open session, the hand, then `If-Match`: the version it names."""
    session = selectors.session_get(user=request.user, session_id=session_id, role=Role.SCORER)
    if session.status == Session.Status.CLOSED:
        raise SessionClosed()
    selectors.hand_get(session=session, number=number)
    return expected_version(request, session)


class HandDetailApi(APIView):
    OutputSerializer = HandOut

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, session_id: int, number: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        hand = selectors.hand_get(session=session, number=number)
        return hand_response(hand, session.version)


class HandAmendApi(APIView):
    """Amend a hand (scorers): the session replays from it; nothing changes if a later hand breaks."""

    InputSerializer = schema.HandIn  # documents the body: the engine judges it and names its errors
    OutputSerializer = HandOut

    @extend_schema(request=InputSerializer, responses=OutputSerializer, parameters=[schema.IF_MATCH, schema.X_REASON])
    def put(self, request: Request, session_id: int, number: int) -> Response:
        version = writable(request, session_id, number)
        hand_limits(request.data)
        hand = hand_amend(
            actor=actor(request),
            session_id=session_id,
            number=number,
            hand=request.data,
            expected_version=version,
            reason=reason(request),
        )
        return hand_response(hand, hand.session.version)


class HandUndoApi(APIView):
    """Undo the last hand (scorers); answers the session."""

    OutputSerializer = SessionOut

    @extend_schema(request=None, responses={200: OutputSerializer}, parameters=[schema.IF_MATCH, schema.X_REASON])
    def delete(self, request: Request, session_id: int, number: int) -> Response:
        version = writable(request, session_id, number)
        session = hand_undo(
            actor=actor(request), session_id=session_id, number=number, expected_version=version, reason=reason(request)
        )
        return session_response(session)


class HandRoute(Route):
    operations = {"get": HandDetailApi, "put": HandAmendApi, "delete": HandUndoApi}


class RevisionOut(serializers.Serializer):
    number = serializers.IntegerField()
    action = serializers.ChoiceField(choices=["recorded", "amended", "undone"])
    old = serializers.DictField(allow_null=True)
    new = serializers.DictField(allow_null=True)
    reason = serializers.CharField()
    version = serializers.IntegerField()
    by = Username(allow_null=True)
    at = Timestamp()


class HandHistoryApi(APIView):
    """Every version of the hand: who, when, what changed."""

    OutputSerializer = RevisionOut

    @extend_schema(responses=schema.page_of(OutputSerializer), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request, session_id: int, number: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        revisions = selectors.hand_history(session=session, number=number)
        return paginated(request, self, revisions, self.OutputSerializer, {"ETag": etag(session.version)})
