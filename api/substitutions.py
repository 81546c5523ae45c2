"""A substitute mid-game (issue 37; `api.md`): the seat history of a session. Thin: the write is
`ledger.services.substitutions.seat_substitute`.

- `GET /api/v1/sessions/{session}/substitutions/`: who sat where from which deal (members).
- `POST /api/v1/sessions/{session}/substitutions/`: from the next deal, `player` (a player of the club)
  or a new `guest` (by name) takes `seat` (scorers, treasurers and admins of the session's club).
  `Idempotency-Key` required: a retry answers the substitution it made. `number`, the deal the client
  believes is next, makes a race with another device's deal a 409 `stale_number`; another request that
  gave the seat away from the same deal is 409 `seat_changed`; after the close, 409 `session_closed`.
"""

from __future__ import annotations

import uuid

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import selectors
from ledger.i18n import refusals
from ledger.models import Role
from ledger.services.substitutions import seat_substitute

from .common import MAX_ID, Route, Strict, Text, Timestamp, actor, valid
from .idempotency import idempotency_key, idempotent
from .limits import NAME_MAX

# `from` is a Python keyword: the answer's shape is built with type(), as the payments' (api/money.py).
SubstitutionOut = type(
    "SubstitutionOut",
    (serializers.Serializer,),
    {
        "__doc__": "From deal `from` (a hand number), `player` sits at `seat`.",
        "id": serializers.IntegerField(),
        "session": serializers.IntegerField(source="session_id"),
        "seat": serializers.IntegerField(help_text="0-3"),
        "player": serializers.IntegerField(source="player_id", help_text="the substitute"),
        "player_name": serializers.CharField(source="player.name"),
        "from": serializers.IntegerField(source="from_hand", help_text="the first deal he plays (a hand number)"),
        "created_at": Timestamp(),
    },
)


class SubstitutionIn(Strict):
    seat = serializers.IntegerField(min_value=0, max_value=3, help_text="the seat he takes, 0-3")
    player = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID, help_text="a player of the club")
    guest = Text(required=False, max_length=NAME_MAX, help_text="a guest's name: a new player of the club")
    number = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="the deal the client believes is next; lower than the session's: 409 stale_number",
    )

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        if ("player" in attrs) == ("guest" in attrs):
            raise serializers.ValidationError({"player": ["give `player` or `guest`, one of them"]})
        return attrs


class SubstitutionListApi(APIView):
    """The session's seat history: each substitute, his seat and the deal he plays from (members)."""

    OutputSerializer = SubstitutionOut

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        return Response(self.OutputSerializer(selectors.seat_changes(session=session), many=True).data)


class SubstitutionApi(APIView):
    """Seat a substitute from the next deal (scorers, treasurers, admins of the club): the leaver's
    counters are settled up to the deal before, the substitute's from it (docs/decisions.md)."""

    InputSerializer = SubstitutionIn
    OutputSerializer = SubstitutionOut

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer},
        parameters=[OpenApiParameter("Idempotency-Key", OpenApiTypes.UUID, OpenApiParameter.HEADER, required=True)],
    )
    def post(self, request: Request, session_id: int) -> Response:
        key = idempotency_key(request, refusals.IDEMPOTENCY_KEY_REQUIRED_SUBSTITUTE)
        return idempotent(request, self, key, lambda claim: self._seat(request, session_id, key))

    def _seat(self, request: Request, session_id: int, key: uuid.UUID) -> Response:
        selectors.session_get(user=request.user, session_id=session_id, role=Role.SCORER)  # 404/403 first
        data = valid(self.InputSerializer, request.data)
        change = seat_substitute(
            actor=actor(request),
            session_id=session_id,
            seat=data["seat"],
            player_id=data.get("player"),
            name=data.get("guest"),
            number=data.get("number"),
            client_key=key,
        )
        return Response(self.OutputSerializer(change).data, status=201)


class SubstitutionsRoute(Route):
    operations = {"get": SubstitutionListApi, "post": SubstitutionApi}
