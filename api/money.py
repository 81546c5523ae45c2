"""The club's money (`ledger.money`: its services write, its selectors read): carried pools, settle-up,
payments, and each player's statement.

- `GET /api/v1/clubs/{club}/carried-pools/`: the club's closed sessions whose carried pools nobody has
  claimed yet (members), oldest first: what `carry_pools_from` may name when opening a session.
- `GET /api/v1/clubs/{club}/settle-up/`: per currency, everyone's open balance and the fewest transfers
  that square them (treasurers).
- `GET, POST /api/v1/clubs/{club}/payments/`: the recorded payments and write-offs, newest first; record
  one (treasurers; `Idempotency-Key` required, as for a hand: a payment is never recorded twice).
- `GET /api/v1/players/{id}/statement/`: the player's entries, oldest first, each with the running
  balance in its currency (the player themself, and the club's treasurers). JSON, paginated, or the
  whole statement as CSV with `?format=csv` or `Accept: text/csv`. Refusals are always JSON.

Amounts are integers in the currency's minor unit (`scoresheet.md`, "Money"); a balance above zero is
money owed to the party, below zero money it owes. A party is a player's id or `"pool"` (the club's pool
account: the money of the pools its tables carried over).
"""

from __future__ import annotations

import csv
import io
import uuid
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import display, money, selectors
from ledger.display import party_name
from ledger.engine.variants import get_variant
from ledger.models import MoneyEntry, MoneyTransaction, Role, Session
from ledger.money import selectors as money_selectors
from ledger.money import services as money_services
from ledger.money.selectors import party

from . import schema
from .formats import FORMATS, JsonOrCsvView
from .idempotency import idempotency_key, idempotent
from .pagination import Pagination
from .presenters import player_json, timestamp
from .views import MAX_ID, ListQuery, Strict, Text, paginated, valid

STATEMENT_COLUMNS = [
    "date",
    "transaction",
    "kind",
    "session",
    "close_version",
    "currency",
    "amount_minor",
    "amount",
    "balance_minor",
    "balance",
    "description",
    "note",
]


KIND_HELP = "one of " + ", ".join(MoneyTransaction.Kind.values)


# --- shapes ----------------------------------------------------------------------------------------


def transaction_json(tx: MoneyTransaction) -> dict[str, Any]:
    entries = sorted(tx.entries.all(), key=lambda e: e.pk)
    out: dict[str, Any] = {
        "id": tx.pk,
        "club": tx.club_id,
        "kind": tx.kind,
        "currency": tx.currency,
        "session": tx.session_id,
        "close_version": tx.close_version,
        "reverses": tx.reverses_id,
        "note": tx.note,
        "recorded_by": tx.created_by.get_username() if tx.created_by_id else None,
        "recorded_at": timestamp(tx.created_at),
        "entries": [{"party": party(e.account), "name": party_name(e.account), "amount": e.amount} for e in entries],
    }
    if tx.kind in MoneyTransaction.PAYMENT_KINDS:
        payer = next(e for e in entries if e.amount > 0)
        payee = next(e for e in entries if e.amount < 0)
        out.update({"from": party(payer.account), "to": party(payee.account), "cents": payer.amount})
    return out


def entry_json(entry: MoneyEntry) -> dict[str, Any]:
    tx = entry.transaction
    return {
        "transaction": tx.pk,
        "at": timestamp(tx.created_at),
        "kind": tx.kind,
        "currency": tx.currency,
        "amount": entry.amount,
        "balance": entry.balance,  # type: ignore[attr-defined]
        "session": tx.session_id,
        "close_version": tx.close_version,
        "reverses": tx.reverses_id,
        "counterparties": display.counterparties(entry),
        "description": display.describe(entry),
        "note": tx.note,
    }


def carried_json(session: Session) -> dict[str, Any]:
    carried = session.closing["carried"]
    return {
        "session": session.pk,
        "variant": session.variant,
        "multi_pool": get_variant(session.variant).multi_pool,
        "carried": carried,
        "counters": sum(carried),
        "stake": session.stake,
        "closed_at": timestamp(session.closed_at),
    }


@extend_schema_field({"oneOf": [{"type": "integer"}, {"type": "string", "enum": ["pool"]}]})
class PartyField(serializers.Field):
    """A player's id (an integer) or "pool"."""

    default_error_messages = {"invalid": 'a party is a player id or "pool"'}

    def to_internal_value(self, data: Any) -> int | str:
        if data == money.POOL:
            return money.POOL
        if type(data) is int and 1 <= data <= MAX_ID:
            return data
        self.fail("invalid")

    def to_representation(self, value: Any) -> Any:
        return value


class WholeNumber(serializers.IntegerField):
    """A JSON integer (DRF's IntegerField would take "5" and 5.0 too): money is never a guess."""

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


# `from` is a Python keyword: the request and answer shapes are built with type().
PaymentIn = type(
    "PaymentIn",
    (Strict,),
    {
        "__doc__": "A payment: `from` pays `to` (`written_off`: `to` gives the amount up).",
        "from": PartyField(help_text='the party that owes: a player id or "pool"'),
        "to": PartyField(help_text='the party that is owed: a player id or "pool"'),
        "currency": serializers.RegexField(
            r"^[A-Z]{3}$", error_messages={"invalid": "`currency` must be three capital letters (ISO 4217)"}
        ),
        "cents": WholeNumber(min_value=1, max_value=money.MAX_CENTS, help_text="minor units"),
        "status": serializers.ChoiceField(choices=list(money.PAYMENT_STATUSES)),
        "note": Text(required=False, allow_blank=True, max_length=money.NOTE_MAX),
    },
)


class EntryOut(serializers.Serializer):
    party = serializers.JSONField(help_text='a player id or "pool"')
    name = serializers.CharField()
    amount = serializers.IntegerField(help_text="minor units: above 0 the party is owed more, below it owes more")


TransactionOut = type(
    "MoneyTransactionOut",
    (serializers.Serializer,),
    {
        "id": serializers.IntegerField(),
        "club": serializers.IntegerField(),
        "kind": serializers.CharField(help_text=KIND_HELP),
        "currency": serializers.CharField(),
        "session": serializers.IntegerField(allow_null=True),
        "close_version": serializers.IntegerField(allow_null=True),
        "reverses": serializers.IntegerField(allow_null=True),
        "note": serializers.CharField(),
        "recorded_by": serializers.CharField(allow_null=True),
        "recorded_at": serializers.DateTimeField(),
        "entries": EntryOut(many=True),
        "from": serializers.JSONField(required=False, help_text="payments: the payer"),
        "to": serializers.JSONField(required=False, help_text="payments: the payee"),
        "cents": serializers.IntegerField(required=False, help_text="payments: the amount"),
    },
)


class StatementEntryOut(serializers.Serializer):
    transaction = serializers.IntegerField()
    at = serializers.DateTimeField()
    kind = serializers.CharField(help_text=KIND_HELP)
    currency = serializers.CharField()
    amount = serializers.IntegerField()
    balance = serializers.IntegerField(help_text="the running balance in this currency after this entry")
    session = serializers.IntegerField(allow_null=True)
    close_version = serializers.IntegerField(allow_null=True)
    reverses = serializers.IntegerField(allow_null=True)
    counterparties = serializers.ListField(child=serializers.CharField())
    description = serializers.CharField()
    note = serializers.CharField()


class CurrencyBalance(serializers.Serializer):
    currency = serializers.CharField()
    balance = serializers.IntegerField()


class StatementOut(serializers.Serializer):
    player = serializers.DictField()
    balances = CurrencyBalance(many=True)
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = StatementEntryOut(many=True)


class PartyBalance(serializers.Serializer):
    party = serializers.JSONField()
    name = serializers.CharField()
    balance = serializers.IntegerField()


TransferOut = type(
    "MoneyTransferOut",
    (serializers.Serializer,),
    {
        "from": serializers.JSONField(),
        "from_name": serializers.CharField(),
        "to": serializers.JSONField(),
        "to_name": serializers.CharField(),
        "cents": serializers.IntegerField(),
    },
)


class CurrencyPlanOut(serializers.Serializer):
    currency = serializers.CharField()
    balances = PartyBalance(many=True)
    transfers = TransferOut(many=True)


class SettleUpOut(serializers.Serializer):
    club = serializers.IntegerField()
    currencies = CurrencyPlanOut(many=True)


class CarriedPoolOut(serializers.Serializer):
    session = serializers.IntegerField()
    variant = serializers.CharField()
    multi_pool = serializers.BooleanField()
    carried = serializers.ListField(child=serializers.IntegerField())
    counters = serializers.IntegerField()
    stake = serializers.DictField(allow_null=True)
    closed_at = serializers.DateTimeField()


# --- views -----------------------------------------------------------------------------------------


class CarriedPoolListView(APIView):
    @extend_schema(responses=schema.page_of(CarriedPoolOut), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request, club_id: int) -> Response:
        valid(ListQuery, dict(request.query_params.items()))
        sessions = money_selectors.carried_pools(user=request.user, club_id=club_id)
        return paginated(request, self, sessions, carried_json)


class SettleUpView(APIView):
    @extend_schema(responses=SettleUpOut)
    def get(self, request: Request, club_id: int) -> Response:
        plans = money_selectors.settle_up_plan(user=request.user, club_id=club_id)
        return Response(
            {
                "club": club_id,
                "currencies": [
                    {
                        "currency": plan.currency,
                        "balances": [
                            {"party": party(a), "name": party_name(a), "balance": amount} for a, amount in plan.balances
                        ],
                        "transfers": [
                            {
                                "from": party(t.payer),
                                "from_name": party_name(t.payer),
                                "to": party(t.payee),
                                "to_name": party_name(t.payee),
                                "cents": t.cents,
                            }
                            for t in plan.transfers
                        ],
                    }
                    for plan in plans
                ],
            }
        )


class PaymentListView(APIView):
    @extend_schema(responses=schema.page_of(TransactionOut), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request, club_id: int) -> Response:
        valid(ListQuery, dict(request.query_params.items()))
        payments = money_selectors.payment_list(user=request.user, club_id=club_id)
        return paginated(request, self, payments, transaction_json)

    @extend_schema(
        request=PaymentIn,
        responses={201: TransactionOut},
        parameters=[OpenApiParameter("Idempotency-Key", OpenApiTypes.UUID, OpenApiParameter.HEADER, required=True)],
    )
    def post(self, request: Request, club_id: int) -> Response:
        key = idempotency_key(request)
        return idempotent(request, self, key, lambda claim: self._record(request, club_id, key))

    def _record(self, request: Request, club_id: int, key: uuid.UUID) -> tuple[Response, bool]:
        # payment_record returns the payment already recorded with this key (a retry): rendered again.
        selectors.club_role(user=request.user, club_id=club_id, role=Role.TREASURER)
        data = valid(PaymentIn, request.data)
        tx = money_services.payment_record(
            actor=request.user,
            club_id=club_id,
            payer=data["from"],
            payee=data["to"],
            currency=data["currency"],
            cents=data["cents"],
            status=data["status"],
            note=data.get("note", ""),
            client_key=key,
        )
        return Response(transaction_json(tx), status=201), False


def _cell(value: Any) -> Any:
    """A spreadsheet cell: text a spreadsheet would run as a formula gets a leading '."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r") and not _number(value):
        return "'" + value
    return value


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


class CSVRenderer(BaseRenderer):
    """Rows of dicts (`STATEMENT_COLUMNS`) as RFC 4180 CSV in UTF-8, with a header line."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=STATEMENT_COLUMNS, lineterminator="\r\n")
        writer.writeheader()
        for row in data:
            writer.writerow({k: _cell(v) for k, v in row.items()})
        return buffer.getvalue().encode("utf-8")


class StatementQuery(ListQuery):
    format = serializers.ChoiceField(required=False, choices=list(FORMATS))


class StatementView(JsonOrCsvView):
    """JSON (paginated) or CSV (the whole statement); refusals always in JSON."""

    renderer_classes = [JSONRenderer, CSVRenderer]

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=list(FORMATS), description="`csv`: the whole statement"),
            *schema.PAGE_PARAMETERS,
        ],
        responses={
            (200, "application/json"): StatementOut,
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="columns: " + ", ".join(STATEMENT_COLUMNS)
            ),
        },
    )
    def get(self, request: Request, player_id: int) -> Response:
        valid(StatementQuery, dict(request.query_params.items()))
        player = money_selectors.statement_player(user=request.user, player_id=player_id)
        if getattr(request.accepted_renderer, "format", None) == "csv":
            filename = f"statement-player-{player.pk}.csv"
            rows = list(display.statement_rows(player=player))
            return Response(rows, headers={"Content-Disposition": f'attachment; filename="{filename}"'})
        paginator = Pagination()
        page = paginator.paginate_queryset(money_selectors.statement_entries(player=player), request, view=self)
        response = paginator.get_paginated_response([entry_json(e) for e in page])
        response.data = {
            "player": player_json(player),
            "balances": [
                {"currency": c, "balance": b} for c, b in money_selectors.statement_balances(player=player).items()
            ],
            **response.data,
        }
        return response
