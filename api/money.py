"""The club's money (`ledger.money`: its services write, its selectors read): carried pools, settle-up,
payments, and each player's statement.

- `GET /api/v1/clubs/{club}/carried-pools/`: the club's closed sessions whose carried pools nobody has
  claimed yet (members), oldest first: what `carry_pools_from` may name when opening a session.
- `GET /api/v1/clubs/{club}/settle-up/`: per currency, everyone's open balance and the fewest transfers
  that square them (treasurers).
- `GET, POST /api/v1/clubs/{club}/payments/`: the recorded payments and write-offs, newest first; record
  one (treasurers; `Idempotency-Key` required, as for a hand: a payment is never recorded twice).
  `session` ties it to that evening's transfer `from` -> `to`; beyond what is owed it is refused (400,
  field `cents`, saying what it does to both balances) unless `overpay` is true. `night` ties it to a
  night's room transfer; a table of a night whose room has a payment refuses its own: 409
  `settled_by_night` (docs/decisions.md, "Paid once").
- `GET /api/v1/players/{id}/statement/`: the player's entries, oldest first, each with the running
  balance in its currency (the player themself, and the club's treasurers). JSON, paginated, or the
  whole statement as CSV with `?format=csv` or `Accept: text/csv`. Refusals are always JSON.

Amounts are integers in the currency's minor unit (`scoresheet.md`, "Money"); a balance above zero is
money owed to the party, below zero money it owes. A party is a player's id or `"pool"` (the club's pool
account: the money of the pools its tables carried over).
"""

from __future__ import annotations

import uuid
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.fields import SkipField
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import display, money, selectors
from ledger.csvfile import csv_text
from ledger.display import party_name
from ledger.engine.variants import get_variant
from ledger.i18n import refusals
from ledger.models import MoneyEntry, MoneyTransaction, Role, Session
from ledger.money import selectors as money_selectors
from ledger.money import services as money_services
from ledger.money.selectors import party

from . import schema
from .clubs import PlayerOut
from .common import MAX_ID, ListQuery, Route, Strict, Text, Timestamp, Username, actor, paginated, query, valid
from .formats import FORMATS, JsonOrCsvView, for_people
from .idempotency import idempotency_key, idempotent
from .pagination import Pagination

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


class AccountParty(serializers.JSONField):
    """A money account, rendered as its party: a player's id or "pool"."""

    def to_representation(self, value: Any) -> Any:
        return party(value)


class AccountName(serializers.CharField):
    """A money account, rendered as its player's name or "pool"."""

    def to_representation(self, value: Any) -> str:
        return party_name(value)


def payment_sides(tx: MoneyTransaction) -> tuple[MoneyEntry, MoneyEntry]:
    """A payment's two entries: the payer's (above 0: owed less) and the payee's."""
    entries = tx.entries.all()
    return next(e for e in entries if e.amount > 0), next(e for e in entries if e.amount < 0)


class PaymentOnly(serializers.Field):
    """A field of payments only: left out of a transaction of another kind."""

    def get_attribute(self, instance: Any) -> Any:
        if instance.kind not in MoneyTransaction.PAYMENT_KINDS:
            raise SkipField()
        return payment_sides(instance)


class PaymentParty(PaymentOnly, serializers.JSONField):
    def __init__(self, side: int, **kwargs: Any) -> None:
        self.side = side
        super().__init__(source="*", required=False, **kwargs)

    def to_representation(self, value: Any) -> Any:
        return party(value[self.side].account)


def reversal_of(tx: MoneyTransaction) -> MoneyTransaction | None:
    """The transaction that reverses this one, if any (`reversed_by`, one-to-one)."""
    try:
        return tx.reversed_by
    except MoneyTransaction.DoesNotExist:
        return None


class ReversedBy(serializers.IntegerField):
    """The id of the transaction that reverses this one, or null: a reversed payment says so (issue 38)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", allow_null=True, read_only=True, **kwargs)

    def to_representation(self, value: Any) -> Any:
        reversal = reversal_of(value)
        return None if reversal is None else reversal.pk

    def get_attribute(self, instance: Any) -> Any:
        return instance


class ReversedAt(Timestamp):
    """When the transaction was reversed, or null."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", allow_null=True, read_only=True, **kwargs)

    def get_attribute(self, instance: Any) -> Any:
        reversal = reversal_of(instance)
        return None if reversal is None else reversal.created_at


class PaymentCents(PaymentOnly, serializers.IntegerField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", required=False, **kwargs)

    def to_representation(self, value: Any) -> int:
        return int(value[0].amount)


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
        "session": serializers.IntegerField(
            required=False,
            min_value=1,
            max_value=MAX_ID,
            help_text="the evening whose transfer `from` -> `to` this pays (the settlement's record link); "
            "left out: a free payment. A table of a night whose room settlement has a payment: 409 settled_by_night",
        ),
        "night": serializers.IntegerField(
            required=False,
            min_value=1,
            max_value=MAX_ID,
            help_text="the club night whose room transfer `from` -> `to` this pays (issue 37); not with `session`",
        ),
        "overpay": serializers.BooleanField(
            required=False,
            default=False,
            help_text="true: record it even beyond what is owed (the refusal says what it does to both balances)",
        ),
    },
)


class EntryOut(serializers.Serializer):
    party = AccountParty(source="account", help_text='a player id or "pool"')
    name = AccountName(source="account")
    amount = serializers.IntegerField(help_text="minor units: above 0 the party is owed more, below it owes more")


class Entries(serializers.Serializer):
    # `MoneyTransactionOut.entries`: a transaction's entries in the order they were written.

    @extend_schema_field(EntryOut(many=True))
    def get_entries(self, tx: MoneyTransaction) -> Any:
        return EntryOut(sorted(tx.entries.all(), key=lambda e: e.pk), many=True).data


# `from` is a Python keyword: the answer's shape is built with type().
TransactionOut = type(
    "MoneyTransactionOut",
    (Entries,),
    {
        "id": serializers.IntegerField(),
        "club": serializers.IntegerField(source="club_id"),
        "kind": serializers.CharField(help_text=KIND_HELP),
        "currency": serializers.CharField(),
        "session": serializers.IntegerField(source="session_id", allow_null=True),
        "close_version": serializers.IntegerField(allow_null=True),
        "reverses": serializers.IntegerField(source="reverses_id", allow_null=True),
        "note": serializers.CharField(),
        "for_session": serializers.IntegerField(
            source="for_session_id", allow_null=True, help_text="payments: the evening whose transfer it pays"
        ),
        "for_night": serializers.IntegerField(
            source="for_night_id", allow_null=True, help_text="payments: the club night whose room transfer it pays"
        ),
        "recorded_by": Username(source="created_by", allow_null=True),
        "recorded_at": Timestamp(source="created_at"),
        "entries": serializers.SerializerMethodField(),
        "from": PaymentParty(0, help_text="payments: the payer"),
        "to": PaymentParty(1, help_text="payments: the payee"),
        "cents": PaymentCents(help_text="payments: the amount"),
        "reversed_by": ReversedBy(help_text="the transaction that reverses this one (a payment undone), or null"),
        "reversed_at": ReversedAt(help_text="when it was reversed, or null"),
    },
)


class StatementEntryOut(serializers.Serializer):
    transaction = serializers.IntegerField(source="transaction_id")
    at = Timestamp(source="transaction.created_at")
    kind = serializers.CharField(source="transaction.kind", help_text=KIND_HELP)
    currency = serializers.CharField(source="transaction.currency")
    amount = serializers.IntegerField()
    balance = serializers.IntegerField(help_text="the running balance in this currency after this entry")
    session = serializers.IntegerField(source="transaction.session_id", allow_null=True)
    close_version = serializers.IntegerField(source="transaction.close_version", allow_null=True)
    reverses = serializers.IntegerField(source="transaction.reverses_id", allow_null=True)
    counterparties = serializers.SerializerMethodField()
    description = serializers.SerializerMethodField()
    note = serializers.CharField(source="transaction.note")

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_counterparties(self, entry: MoneyEntry) -> list[str]:
        return display.counterparties(entry)

    @extend_schema_field(serializers.CharField())
    def get_description(self, entry: MoneyEntry) -> str:
        return display.describe(entry)


class CurrencyBalance(serializers.Serializer):
    currency = serializers.CharField()
    balance = serializers.IntegerField()


class StatementOut(serializers.Serializer):
    player = PlayerOut()
    balances = CurrencyBalance(many=True)
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = StatementEntryOut(many=True)


class PartyBalance(serializers.Serializer):
    party = AccountParty(source="account")
    name = AccountName(source="account")
    balance = serializers.IntegerField()


TransferOut = type(
    "MoneyTransferOut",
    (serializers.Serializer,),
    {
        "from": AccountParty(source="payer"),
        "from_name": AccountName(source="payer"),
        "to": AccountParty(source="payee"),
        "to_name": AccountName(source="payee"),
        "cents": serializers.IntegerField(),
    },
)


class CurrencyPlanOut(serializers.Serializer):
    currency = serializers.CharField()
    balances = serializers.SerializerMethodField()
    transfers = TransferOut(many=True)

    @extend_schema_field(PartyBalance(many=True))
    def get_balances(self, plan: Any) -> Any:
        return PartyBalance([{"account": a, "balance": amount} for a, amount in plan.balances], many=True).data


class SettleUpOut(serializers.Serializer):
    club = serializers.IntegerField()
    currencies = CurrencyPlanOut(many=True)


class CarriedPoolOut(serializers.Serializer):
    session = serializers.IntegerField(source="pk")
    variant = serializers.CharField()
    multi_pool = serializers.SerializerMethodField()
    carried = serializers.ListField(source="closing.carried", child=serializers.IntegerField())
    counters = serializers.SerializerMethodField()
    stake = serializers.DictField(allow_null=True)
    closed_at = Timestamp()

    def get_multi_pool(self, session: Session) -> bool:
        return get_variant(session.variant).multi_pool

    def get_counters(self, session: Session) -> int:
        return sum((session.closing or {}).get("carried", []))


# --- views -----------------------------------------------------------------------------------------


class CarriedPoolListApi(APIView):
    """The club's closed sessions whose carried pools nobody has claimed yet, oldest first (members)."""

    OutputSerializer = CarriedPoolOut

    @extend_schema(responses=schema.page_of(OutputSerializer), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request, club_id: int) -> Response:
        valid(ListQuery, query(request))
        sessions = money_selectors.carried_pools(user=request.user, club_id=club_id)
        return paginated(request, self, sessions, self.OutputSerializer)


class SettleUpApi(APIView):
    """Per currency, everyone's open balance and the fewest transfers that square them (treasurers)."""

    OutputSerializer = SettleUpOut

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, club_id: int) -> Response:
        plans = money_selectors.settle_up_plan(user=request.user, club_id=club_id)
        return Response(self.OutputSerializer({"club": club_id, "currencies": plans}).data)


class PaymentListApi(APIView):
    """The club's recorded payments and write-offs, newest first (treasurers)."""

    OutputSerializer = TransactionOut

    @extend_schema(responses=schema.page_of(OutputSerializer), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request, club_id: int) -> Response:
        valid(ListQuery, query(request))
        payments = money_selectors.payment_list(user=request.user, club_id=club_id)
        return paginated(request, self, payments, self.OutputSerializer)


class PaymentRecordApi(APIView):
    """Record a payment or a write-off (treasurers): `Idempotency-Key` required, never recorded twice.
    With `session`, tied to one of that evening's transfers; with `night`, to one of the night's room
    transfers. A night is paid once: a table of a night whose room settlement has a payment is refused
    its own, 409 `settled_by_night` (`error.night` names the night to pay from); a table paid on its own
    is left out of the room's transfers."""

    InputSerializer = PaymentIn
    OutputSerializer = TransactionOut

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer},
        parameters=[OpenApiParameter("Idempotency-Key", OpenApiTypes.UUID, OpenApiParameter.HEADER, required=True)],
    )
    def post(self, request: Request, club_id: int) -> Response:
        key = idempotency_key(request, refusals.IDEMPOTENCY_KEY_REQUIRED_PAYMENT)
        return idempotent(request, self, key, lambda claim: self._record(request, club_id, key))

    def _record(self, request: Request, club_id: int, key: uuid.UUID) -> Response:
        # payment_record returns the payment already recorded with this key (a retry): rendered again.
        selectors.club_role(user=request.user, club_id=club_id, role=Role.TREASURER)
        data = valid(self.InputSerializer, request.data)
        tx = money_services.payment_record(
            actor=actor(request),
            club_id=club_id,
            payer=data["from"],
            payee=data["to"],
            currency=data["currency"],
            cents=data["cents"],
            status=data["status"],
            note=data.get("note", ""),
            client_key=key,
            session_id=data.get("session"),
            night_id=data.get("night"),
            overpay=data.get("overpay", False),
        )
        return Response(self.OutputSerializer(tx).data, status=201)


class PaymentsRoute(Route):
    operations = {"get": PaymentListApi, "post": PaymentRecordApi}


class CSVRenderer(BaseRenderer):
    """Rows of dicts (`STATEMENT_COLUMNS`) as RFC 4180 CSV in UTF-8, with a header line, by the one CSV
    writer (`ledger.csvfile`: text a spreadsheet would run as a formula is escaped, numbers are not)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        if isinstance(data, str):  # for a person (`formats.for_people`): the statement page's CSV
            return data.encode("utf-8")
        rows = ([row.get(k, "") for k in STATEMENT_COLUMNS] for row in data)
        return csv_text(STATEMENT_COLUMNS, rows, for_people=False).encode("utf-8")


class StatementQuery(ListQuery):
    format = serializers.ChoiceField(required=False, choices=list(FORMATS))


class StatementApi(JsonOrCsvView):
    """The player's entries, oldest first, with running balances: JSON (paginated) or CSV (the whole
    statement); refusals always in JSON. For the player themself and the club's treasurers."""

    renderer_classes = [JSONRenderer, CSVRenderer]
    OutputSerializer = StatementOut

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=list(FORMATS), description="`csv`: the whole statement"),
            *schema.PAGE_PARAMETERS,
        ],
        responses={
            (200, "application/json"): OutputSerializer,
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="columns: " + ", ".join(STATEMENT_COLUMNS)
            ),
        },
    )
    def get(self, request: Request, player_id: int) -> Response:
        valid(StatementQuery, query(request))
        player = money_selectors.statement_player(user=request.user, player_id=player_id)
        if getattr(request.accepted_renderer, "format", None) == "csv":
            filename = f"statement-player-{player.pk}.csv"
            rows: Any = (
                display.statement_csv(player=player)
                if for_people(request)
                else list(display.statement_rows(player=player))
            )
            disposition = f'attachment; filename="{filename}"'
            return Response(rows, headers={"Content-Disposition": disposition, "Cache-Control": "no-store"})
        paginator = Pagination()
        page = paginator.paginate_queryset(money_selectors.statement_entries(player=player), request, view=self)
        balances = money_selectors.statement_balances(player=player)
        statement = {
            "player": player,
            "balances": [{"currency": c, "balance": b} for c, b in balances.items()],
            "count": paginator.count(),
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "results": page,
        }
        return Response(self.OutputSerializer(statement).data, headers={"Cache-Control": "no-store"})
