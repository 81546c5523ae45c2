"""Clubs and their players (`api.md`, "Resources"): list and create each. One class per operation."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import selectors, zones
from ledger.models import Role
from ledger.services.clubs import club_create, club_payment_set, club_time_zone_set, player_create

from . import schema
from .common import ListQuery, Route, Strict, Text, actor, paginated, query, valid
from .limits import NAME_MAX


class ClubOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=["player", "scorer", "treasurer", "admin"], help_text="the caller's role")
    time_zone = serializers.CharField(
        help_text="the club's time zone (an IANA name): its pages and CSVs show times in it; the API's are UTC"
    )


class ClubCreate(Strict):
    name = Text(max_length=NAME_MAX)
    time_zone = Text(
        max_length=64,
        required=False,
        default=zones.DEFAULT,
        help_text="an IANA name such as Europe/Paris; UTC if left out",
    )


class ClubListApi(APIView):
    """The clubs the caller belongs to, with the caller's role in each."""

    OutputSerializer = ClubOut

    @extend_schema(responses=schema.page_of(OutputSerializer), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request) -> Response:
        clubs = selectors.club_list(user=request.user)  # each annotated with the caller's `role`
        return paginated(request, self, clubs, self.OutputSerializer)


class ClubCreateApi(APIView):
    """Create a club: its creator becomes its admin."""

    InputSerializer = ClubCreate
    OutputSerializer = ClubOut

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request) -> Response:
        data = valid(self.InputSerializer, request.data)
        club = club_create(actor=actor(request), name=data["name"], time_zone=data["time_zone"])
        body = self.OutputSerializer(
            {"id": club.pk, "name": club.name, "role": Role.ADMIN, "time_zone": club.time_zone}
        ).data
        return Response(body, status=201)


class ClubsRoute(Route):
    operations = {"get": ClubListApi, "post": ClubCreateApi}


class ClubTimeZone(Strict):
    time_zone = Text(max_length=64, help_text="an IANA name such as Europe/Paris")


class ClubTimeZoneApi(APIView):
    """Change the club's time zone (admins): its pages and CSVs show times in the new one, and its
    leaderboard's months and years are counted in it; the API's times stay UTC. Idempotent: the same
    zone again answers the same."""

    InputSerializer = ClubTimeZone
    OutputSerializer = ClubOut

    @extend_schema(summary="Change the club's time zone", request=InputSerializer, responses={200: OutputSerializer})
    def put(self, request: Request, club_id: int) -> Response:
        selectors.club_role(user=request.user, club_id=club_id, role=Role.ADMIN)  # 404 / 403 before the body
        data = valid(self.InputSerializer, request.data)
        club = club_time_zone_set(actor=actor(request), club_id=club_id, time_zone=data["time_zone"])
        return Response(
            self.OutputSerializer(
                {"id": club.pk, "name": club.name, "role": Role.ADMIN, "time_zone": club.time_zone}
            ).data
        )


class ClubPayment(Strict):
    payee_name = Text(max_length=70, required=False, allow_blank=True, help_text="who the transfers are made out to")
    iban = Text(max_length=60, required=False, allow_blank=True, help_text="for euros: the club's IBAN (checked)")
    bic = Text(max_length=20, required=False, allow_blank=True)
    ru_account = Text(max_length=40, required=False, allow_blank=True, help_text="for roubles: 20 digits")
    ru_bank_name = Text(max_length=100, required=False, allow_blank=True)
    ru_bik = Text(max_length=20, required=False, allow_blank=True, help_text="9 digits")
    ru_corresp_account = Text(max_length=40, required=False, allow_blank=True, help_text="20 digits")
    payment_instructions = Text(max_length=500, required=False, allow_blank=True, help_text="in any other currency")


PAYMENT_FIELDS = tuple(ClubPayment().fields)


class ClubPaymentApi(APIView):
    """The club's payment details (treasurers, issue 41): what the evening's payment code is made of. The
    IBAN and BIC are checked (schwifty); a wrong one is a 400 naming the field. A field left out is cleared."""

    InputSerializer = ClubPayment
    OutputSerializer = ClubPayment

    @extend_schema(summary="Set the club's payment details", request=InputSerializer, responses={200: OutputSerializer})
    def put(self, request: Request, club_id: int) -> Response:
        selectors.club_role(user=request.user, club_id=club_id, role=Role.TREASURER)  # 404 / 403 before the body
        data = valid(self.InputSerializer, request.data)
        club = club_payment_set(actor=actor(request), club_id=club_id, details=data)
        return Response({key: getattr(club, key) for key in PAYMENT_FIELDS})


class PlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.IntegerField(source="club_id")


class PlayerCreate(Strict):
    name = Text(max_length=NAME_MAX)


class PlayerListApi(APIView):
    """The club's players (a player may or may not have a login); with `looks_like`, only those whose
    name a reader could take for that one (same skeleton, Unicode TR39) without being it."""

    class FilterSerializer(ListQuery):
        looks_like = serializers.CharField(required=False, max_length=NAME_MAX, trim_whitespace=False)

    OutputSerializer = PlayerOut

    @extend_schema(
        responses=schema.page_of(OutputSerializer),
        parameters=[
            OpenApiParameter(
                "looks_like",
                str,
                description="a name: only the players whose name looks like it without being it"
                " (Cyrillic А for Latin A, full-width or mathematical letters, another case)",
            ),
            *schema.PAGE_PARAMETERS,
        ],
    )
    def get(self, request: Request, club_id: int) -> Response:
        filters = valid(self.FilterSerializer, query(request))
        players = selectors.player_list(user=request.user, club_id=club_id, looks_like=filters.get("looks_like"))
        return paginated(request, self, players, self.OutputSerializer)


class PlayerCreateApi(APIView):
    """Add a player to the club (scorers)."""

    InputSerializer = PlayerCreate
    OutputSerializer = PlayerOut

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request, club_id: int) -> Response:
        selectors.club_role(user=request.user, club_id=club_id, role=Role.SCORER)
        data = valid(self.InputSerializer, request.data)
        player = player_create(actor=actor(request), club_id=club_id, name=data["name"])
        return Response(self.OutputSerializer(player).data, status=201)


class PlayersRoute(Route):
    operations = {"get": PlayerListApi, "post": PlayerCreateApi}
