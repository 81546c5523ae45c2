"""The club night (issue 37; `api.md`): nights of a club, check-ins, the draw of the tables, the room's
settlement. One class per operation, thin: the writes are `ledger.nights`'.

- `GET, POST /api/v1/clubs/{club}/nights/`: the club's nights, newest first (members); open the night of
  a date, today in the club's time zone if left out (treasurers): 201 when opened, 200 when it was.
- `GET /api/v1/nights/{night}/`: who is here (arrival order), the tables drawn and who waits (treasurers).
- `POST /api/v1/nights/{night}/check-ins/`: check a player in (`player`; his own: any member; another:
  scorers) or a guest by name (`guest`, scorers): a new player of the club. Checking in twice is once.
- `POST /api/v1/nights/{night}/draw/`: draw the tables (treasurers), once (a second draw is 409
  `night_drawn`: a retry never draws twice); the answer carries each seat's link key, shown once.
- `GET, POST /api/v1/nights/{night}/tables/{number}/cut-in/`: who would cut out for the players who wait
  (treasurers), and the cut-in itself at the game's break: the game closed, the next opened (409
  `game_moved` when the table has moved on).
- `GET /api/v1/nights/{night}/settlement/`: the room's one settlement (treasurers). A transfer is paid
  through `POST /api/v1/clubs/{club}/payments/` with `night`. A night is paid once: once it has a
  payment, its tables' own payments are 409 `settled_by_night`; a table paid on its own first is left
  out of the room (`alone`).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import nights, selectors
from ledger.models import Night, Role
from ledger.money import selectors as money_selectors

from . import schema
from .common import MAX_ID, Documented, ListQuery, Route, Strict, Text, Timestamp, actor, paginated, query, valid
from .idempotency import idempotency_key, idempotent
from .limits import NAME_MAX, VARIANT_MAX
from .sessions import STAKE_SCHEMA, SessionOpen


class NightOut(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    date = serializers.DateField(help_text="a day of the club's time zone")
    draw_method = serializers.CharField(help_text='"lot" or "rating"; "" before the draw')
    draw_seed = serializers.IntegerField(
        allow_null=True, help_text="the draw's seed: random.Random(seed) replays it (ledger.engine.room)"
    )
    drawn_at = Timestamp(allow_null=True)


class NightOpen(Strict):
    date = serializers.DateField(required=False, help_text="YYYY-MM-DD; today in the club's time zone if left out")


class NightListApi(APIView):
    """The club's nights, newest first (members)."""

    OutputSerializer = NightOut

    @extend_schema(responses=schema.page_of(OutputSerializer), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request, club_id: int) -> Response:
        valid(ListQuery, query(request))
        return paginated(request, self, nights.night_list(user=request.user, club_id=club_id), self.OutputSerializer)


class NightOpenApi(APIView):
    """Open the club's night of a date (treasurers): 201 when opened, 200 with the same night when it
    already was (a retry opens nothing twice)."""

    InputSerializer = NightOpen
    OutputSerializer = NightOut

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer, 200: OutputSerializer})
    def post(self, request: Request, club_id: int) -> Response:
        selectors.club_role(user=request.user, club_id=club_id, role=Role.TREASURER)
        data = valid(self.InputSerializer, request.data)
        night, opened = nights.night_open(actor=actor(request), club_id=club_id, date=data.get("date"))
        return Response(self.OutputSerializer(night).data, status=201 if opened else 200)


class NightsRoute(Route):
    operations = {"get": NightListApi, "post": NightOpenApi}


class NightArrivalOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    arrival = serializers.IntegerField(help_text="1 for the first to arrive")
    at = Timestamp()


class NightSeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()


class NightTableOut(serializers.Serializer):
    number = serializers.IntegerField()
    game = serializers.IntegerField(help_text="1 for the draw's game; each cut-in at the table opens the next")
    session = serializers.IntegerField()
    status = serializers.CharField()
    first_dealer = serializers.IntegerField()
    seats = NightSeatOut(many=True)


class NightRoomOut(serializers.Serializer):
    night = NightOut()
    here = NightArrivalOut(many=True, help_text="everyone checked in, in arrival order")
    tables = NightTableOut(many=True, help_text="every game of every table, by number then game")
    waiting = NightArrivalOut(
        many=True,
        help_text="checked in and at no table's current game (after the draw): the waiting line, in arrival "
        "order, a player who cut out at its end; the first cuts in next",
    )


def _table(table: Any, players: list[Any]) -> dict[str, Any]:
    return {
        "number": table.number,
        "game": table.game,
        "session": table.session_id,
        "status": table.session.status,
        "first_dealer": table.session.first_dealer,
        "seats": [{"seat": i, "player": p.pk, "name": p.name} for i, p in enumerate(players)],
    }


def _room(night: Night) -> dict[str, Any]:
    room = nights.night_room(night=night)
    tables = [_table(table, players) for table, players in room.tables]
    return {"night": night, "here": room.here, "tables": tables, "waiting": room.waiting}


class NightDetailApi(APIView):
    """Who is here (arrival order), the tables drawn (each a session) and who waits (treasurers)."""

    OutputSerializer = NightRoomOut

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, night_id: int) -> Response:
        night = nights.night_get(user=request.user, night_id=night_id, role=Role.TREASURER)
        return Response(self.OutputSerializer(_room(night)).data)


class NightCheckInIn(Strict):
    player = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID, help_text="a player of the club")
    guest = Text(required=False, max_length=NAME_MAX, help_text="a guest's name: a new player of the club")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("player" in attrs) == ("guest" in attrs):
            raise serializers.ValidationError({"player": ["give `player` or `guest`, one of them"]})
        return attrs


class CheckInApi(APIView):
    """Check a player in (his own: any member; another: scorers), or a guest by name (scorers): a new
    player of the club under its name rules. Checking in twice keeps the first arrival (200)."""

    InputSerializer = NightCheckInIn
    OutputSerializer = NightArrivalOut

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer, 200: OutputSerializer})
    def post(self, request: Request, night_id: int) -> Response:
        night = nights.night_get(user=request.user, night_id=night_id)  # 404 before the body
        data = valid(self.InputSerializer, request.data)
        if "guest" in data:
            arrival = nights.guest_check_in(actor=actor(request), night_id=night_id, name=data["guest"])
            fresh = True
        else:
            before = {c.player_id for c in nights.night_room(night=night).here}
            arrival = nights.check_in(actor=actor(request), night_id=night_id, player_id=data["player"])
            fresh = arrival.player_id not in before
        return Response(self.OutputSerializer(arrival).data, status=201 if fresh else 200)


class NightDrawIn(Strict):
    method = serializers.ChoiceField(choices=["lot", "rating"], required=False, default="lot")
    preset = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        help_text="a preset of the club: every table plays its current version (then leave `variant`, `rules` "
        "and `stake` out)",
    )
    variant = Text(max_length=VARIANT_MAX, required=False, help_text="required unless `preset` is given")
    rules = Documented(required=False, schema={"type": "object", "description": "the variant's options"})
    stake = Documented(required=False, allow_null=True, schema=STAKE_SCHEMA)
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=nights.SEED_MAX - 1, help_text="drawn by the server if left out"
    )

    validate = SessionOpen.validate  # a preset, or a variant (with its rules and stake): as a session's


class NightLinkOut(serializers.Serializer):
    seat = serializers.IntegerField()
    id = serializers.IntegerField()
    key = serializers.CharField(help_text="shown once; kept only as its SHA-256")
    url = serializers.CharField()


class NightDrawnTableOut(NightTableOut):
    seat_links = NightLinkOut(many=True)


class NightDrawOut(serializers.Serializer):
    night = NightOut()
    tables = NightDrawnTableOut(many=True)
    waiting = NightArrivalOut(many=True)


class DrawApi(APIView):
    """Draw the night's tables (treasurers), once: tables of four from the players checked in (arrival
    order; the last arrivals wait), by lot or by the club's ratings, seats and first dealers by lot, from
    `seed`; each table a session opened from the club's `preset` (or of `variant` at `stake`), with a
    link for each seat (its key shown here only). A second draw, a retry included, is 409 `night_drawn`:
    the night's GET shows the tables, and a lost seat link is issued again at `/sessions/{id}/seat-links/`."""

    InputSerializer = NightDrawIn
    OutputSerializer = NightDrawOut

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request, night_id: int) -> Response:
        nights.night_get(user=request.user, night_id=night_id, role=Role.TREASURER)
        data = valid(self.InputSerializer, request.data)
        drawn = nights.night_draw(
            actor=actor(request),
            night_id=night_id,
            method=data["method"],
            variant=data.get("variant", ""),
            rules=data.get("rules"),
            stake=data.get("stake"),
            seed=data.get("seed"),
            preset_id=data.get("preset"),
        )
        room = _room(drawn.night)
        for table in room["tables"]:
            table["seat_links"] = [
                {"seat": seat, "id": link.pk, "key": key, "url": f"/s/{key}/"}
                for seat, key, link in drawn.links[table["session"]]
            ]
        return Response(self.OutputSerializer(room).data, status=201)


class NightPartyAmount(serializers.Serializer):
    party = serializers.JSONField(help_text='a player id, or "pool" (the club\'s pool account)')
    name = serializers.CharField()
    cents = serializers.IntegerField(help_text="minor units: above 0 the party is owed, below it owes")


class NightRoomTransferOut(serializers.Serializer):
    payer = serializers.JSONField(help_text='a player id or "pool"')
    payee = serializers.JSONField(help_text='a player id or "pool"')
    payer_name = serializers.CharField()
    payee_name = serializers.CharField()
    cents = serializers.IntegerField()
    paid = serializers.IntegerField(help_text="what the payments tied to this night's transfer add up to")


class NightRoomSettlementOut(serializers.Serializer):
    night = serializers.IntegerField()
    ready = serializers.BooleanField(help_text="false until every table is closed, or when currencies differ")
    refusal = serializers.CharField(help_text='why not ready ("" when ready)')
    currency = serializers.CharField(help_text='"" when no table played for money')
    tables = serializers.ListField(child=serializers.IntegerField(), help_text="the tables' sessions")
    totals = NightPartyAmount(many=True, help_text="each party's results added up over every table")
    transfers = NightRoomTransferOut(many=True, help_text="the fewest payments that square the room")
    alone = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="the tables' sessions paid on their own (a payment tied to the session): left out of the room",
    )


class NightSettlementApi(APIView):
    """The room's one settlement (treasurers): each player's results added up over every table, and the
    fewest transfers that square everyone; each table's own settlement stays at its session's. A
    transfer is recorded as paid at `/clubs/{club}/payments/` with `night`; from then on the tables' own
    transfers are refused there (409 `settled_by_night`). A table with a payment of its own is left out
    of the sums and transfers (`alone`): it is settled on its own."""

    OutputSerializer = NightRoomSettlementOut

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, night_id: int) -> Response:
        night = nights.night_get(user=request.user, night_id=night_id, role=Role.TREASURER)
        room = money_selectors.night_settlement(night_id=night.pk)
        body = {
            "night": night.pk,
            "ready": room.ready,
            "refusal": room.refusal,
            "currency": room.currency,
            "tables": [s.pk for s in room.tables],
            "alone": room.alone,
            "totals": [{"party": p, "name": n, "cents": c} for p, n, c in room.totals],
            "transfers": [
                {
                    "payer": t.payer,
                    "payee": t.payee,
                    "payer_name": t.payer_name,
                    "payee_name": t.payee_name,
                    "cents": t.cents,
                    "paid": t.paid,
                }
                for t in room.transfers
            ],
        }
        return Response(self.OutputSerializer(body).data)


# --- cut-ins (issue 37) -----------------------------------------------------------------------------


class CutInQuery(Strict):
    method = serializers.ChoiceField(
        choices=["longest", "lot"],
        required=False,
        default="longest",
        help_text="who cuts out: the longest seated at the table (a tie by lot), or by lot",
    )
    count = serializers.IntegerField(
        required=False, default=1, min_value=1, max_value=4, help_text="how many of the waiting line cut in"
    )


class CutInIn(CutInQuery):
    game = serializers.IntegerField(
        min_value=1, max_value=32767, help_text="the table's game the cut-in closes (as read): another is 409"
    )
    pools = serializers.ChoiceField(
        choices=["divide", "carry"],  # as the close's own (api/sessions.py): one enum in the schema
        required=False,
        default="carry",
        help_text="the closed game's pools: carried into the next game (the default), or divided",
    )


class CutPlayerOut(serializers.Serializer):
    player = serializers.IntegerField(source="pk")
    name = serializers.CharField()


class CutInProposalOut(serializers.Serializer):
    number = serializers.IntegerField(help_text="the table")
    game = serializers.IntegerField(help_text="its current game, the one a cut-in closes")
    session = serializers.IntegerField()
    ready = serializers.BooleanField(help_text="whether the game is at its break (or closed): a cut-in may be made")
    played = serializers.IntegerField(allow_null=True, help_text="deals of the game played; null: the game is over")
    break_deal = serializers.IntegerField(help_text="the deal after which players cut out: 12, or 40 (the partie)")
    method = serializers.CharField()
    seed = serializers.IntegerField(help_text="the lot's seed, derived from the night's draw seed, table and game")
    out = CutPlayerOut(many=True, help_text="who cuts out (joins the end of the waiting line)")
    into = CutPlayerOut(many=True, help_text="who cuts in (the head of the waiting line)")
    seats = CutPlayerOut(many=True, help_text="the next game's players in seat order, drawn by lot")
    first_dealer = serializers.IntegerField(help_text="the next game's first dealer's seat, drawn by lot")


def _proposal(p: nights.CutProposal) -> dict[str, Any]:
    return {
        "number": p.table.number,
        "game": p.table.game,
        "session": p.table.session_id,
        "ready": p.ready,
        "played": p.played,
        "break_deal": p.break_deal,
        "method": p.method,
        "seed": p.seed,
        "out": p.out,
        "into": p.into,
        "seats": p.seats,
        "first_dealer": p.first_dealer,
    }


class CutInProposalApi(APIView):
    """Who would cut out at the table for the players who wait, and who cuts in (treasurers; nothing is
    written). Refused (400) before the draw, for a table the night has not, or when nobody waits."""

    FilterSerializer = CutInQuery
    OutputSerializer = CutInProposalOut

    @extend_schema(
        responses=OutputSerializer,
        parameters=[OpenApiParameter("method", str, enum=["longest", "lot"]), OpenApiParameter("count", int)],
    )
    def get(self, request: Request, night_id: int, number: int) -> Response:
        night = nights.night_get(user=request.user, night_id=night_id, role=Role.TREASURER)
        data = valid(self.FilterSerializer, query(request))
        proposal = nights.cut_in_proposal(night=night, number=number, method=data["method"], count=data["count"])
        return Response(self.OutputSerializer(_proposal(proposal)).data)


class CutInOut(serializers.Serializer):
    cut = CutInProposalOut(help_text="the proposal the cut-in followed")
    closed = serializers.IntegerField(help_text="the game's session, closed (its settlement at its own URL)")
    table = NightDrawnTableOut(help_text="the next game: its seat links' keys shown once")
    waiting = NightArrivalOut(many=True)


def _without_keys(body: Any) -> Any:
    """The answer kept for a replay: the seat links' keys left out (they are kept only hashed)."""
    links = [{**link, "key": None, "url": None} for link in body["table"]["seat_links"]]
    return {**body, "table": {**body["table"], "seat_links": links}}


class CutInApi(APIView):
    """Cut in at the table's break (treasurers), in one write: its game `game` closed with the pools
    carried, the next game opened with the waiting players seated (the same variant, rules and stake; seats
    and first dealer by lot), as game `game + 1`, a link for each seat; who cut out joins the end of the
    waiting line. Before the break: 400 naming `table`. `game` no longer the table's: 409 `game_moved`.
    An optional `Idempotency-Key` answers a retry with the first answer, the links' keys left out (issue
    them again at `/sessions/{id}/seat-links/`)."""

    InputSerializer = CutInIn
    OutputSerializer = CutInOut

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer},
        parameters=[OpenApiParameter("Idempotency-Key", OpenApiTypes.UUID, OpenApiParameter.HEADER, required=False)],
    )
    def post(self, request: Request, night_id: int, number: int) -> Response:
        nights.night_get(user=request.user, night_id=night_id, role=Role.TREASURER)  # 404 / 403 before the body
        if request.headers.get("Idempotency-Key") is None:
            return self._cut(request, night_id, number)
        key = idempotency_key(request)
        return idempotent(request, self, key, lambda claim: self._cut(request, night_id, number), kept=_without_keys)

    def _cut(self, request: Request, night_id: int, number: int) -> Response:
        data = valid(self.InputSerializer, request.data)
        done = nights.night_cut_in(
            actor=actor(request),
            night_id=night_id,
            number=number,
            game=data["game"],
            method=data["method"],
            count=data["count"],
            pools=data["pools"],
        )
        opened = done.opened
        table = _table(opened, done.proposal.seats)
        table["seat_links"] = [
            {"seat": seat, "id": link.pk, "key": key, "url": f"/s/{key}/"} for seat, key, link in done.links
        ]
        room = nights.night_room(night=done.night)
        body = {"cut": _proposal(done.proposal), "closed": done.closed.pk, "table": table, "waiting": room.waiting}
        return Response(self.OutputSerializer(body).data, status=201)


class CutInRoute(Route):
    operations = {"get": CutInProposalApi, "post": CutInApi}
