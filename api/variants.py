"""`GET /api/v1/variants/` and `/api/v1/variants/{name}/`: each variant's declaration, no login.

The answer is `Declaration.as_json()`, the object the engine parses and validates by, so what a
third-party scorer offers is what the engine accepts (`api.md`, "Additions"); its labels, help and
prose in the request's language (`Accept-Language`), as the rules pages say them, its codes never.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.engine.variants import find_variant, get_variant, variant_names
from ledger.engine.variants.declaration import Declaration
from ledger.exceptions import NotFound
from ledger.i18n import declaration_json

from . import schema
from .common import paginated
from .throttling import AnonThrottle

FIELD_MODES = ["required", "optional", "forbidden"]
HAND_FIELDS_HELP = "every hand field -> required, optional or forbidden"

# `label`, `fields` and `source` are attributes of a DRF field or serializer: the shapes that have
# fields of those names are built with type().

OptionOut = type(
    "OptionOut",
    (serializers.Serializer,),
    {
        "name": serializers.CharField(),
        "type": serializers.ChoiceField(choices=["choice", "integer", "boolean", "object"]),
        "default": serializers.JSONField(help_text="the value the engine uses when the sheet leaves the option out"),
        "label": serializers.CharField(),
        "help": serializers.CharField(),
        "choices": serializers.ListField(child=serializers.JSONField(), required=False),
        "minimum": serializers.IntegerField(required=False),
        "maximum": serializers.IntegerField(required=False),
        "nullable": serializers.BooleanField(required=False, help_text="null (or leaving it out) is allowed"),
        "shape": serializers.DictField(required=False, help_text="an object-valued option: its keys and their bounds"),
    },
)

BidOut = type(
    "BidOut",
    (serializers.Serializer,),
    {
        "code": serializers.CharField(),
        "label": serializers.CharField(),
        "kind": serializers.ChoiceField(
            choices=["tricks", "exact", "pass", "last_trick", "misdeal"],
            help_text="tricks: made at `tricks` or more (`pair_tricks` with a partner);"
            " exact: made at exactly `tricks`; misdeal: the deal passed on after a misdeal (a hand, not a deal)",
        ),
        "fields": serializers.DictField(child=serializers.ChoiceField(choices=FIELD_MODES), help_text=HAND_FIELDS_HELP),
        "trumps": serializers.ListField(child=serializers.CharField(), required=False),
        "trumps_rule": serializers.CharField(
            required=False, help_text="belle_or_petite: the suit turned on deal 1, or this deal's turned suit"
        ),
        "tricks": serializers.IntegerField(required=False),
        "pair_tricks": serializers.IntegerField(required=False),
        "discard": serializers.BooleanField(required=False, help_text="one card is discarded: at most 12 tricks"),
        "needs_option": serializers.CharField(
            required=False, help_text="the house rule without which it cannot be played"
        ),
        "field_options": serializers.DictField(
            child=serializers.CharField(), required=False, help_text="field -> the boolean house rule it needs"
        ),
        "conceded": serializers.ListField(
            child=serializers.JSONField(),
            required=False,
            help_text='the values `conceded` may take besides true, false: "bidder", he paid instead of playing',
        ),
    },
)


class DealsOut(serializers.Serializer):
    limit = serializers.IntegerField(allow_null=True, help_text="the last deal of a game; null: no limit")
    extra_deal = serializers.DictField(allow_null=True, help_text="{option, bid}: one deal more with that house rule")
    doubles = serializers.ListField(child=serializers.IntegerField(), allow_null=True, help_text="first and last")
    direction = serializers.ChoiceField(choices=["left", "right"])
    ante = serializers.CharField()


class TableRowOut(serializers.Serializer):
    heading = serializers.CharField()
    cells = serializers.ListField(child=serializers.IntegerField(allow_null=True))


class TableOut(serializers.Serializer):
    id = serializers.CharField()
    title = serializers.CharField()
    caption = serializers.CharField()
    columns = serializers.ListField(child=serializers.CharField())
    rows = TableRowOut(many=True)
    notes = serializers.ListField(child=serializers.DictField(), help_text="{row, column, note}: corrected cells")


VariantOut = type(
    "VariantOut",
    (serializers.Serializer,),
    {
        "name": serializers.CharField(),
        "aliases": serializers.ListField(
            child=serializers.CharField(),
            help_text="its other names (French, Russian), taken wherever a variant's code is taken",
        ),
        "title": serializers.CharField(),
        "source": serializers.CharField(),
        "options": OptionOut(many=True),
        "bids": BidOut(many=True, help_text="in rank order; fields under the default options"),
        "deals": DealsOut(),
        "tables": TableOut(many=True),
        "pools": serializers.ChoiceField(choices=["one", "many"]),
        "pool_label": serializers.CharField(),
        "field_labels": serializers.DictField(child=serializers.CharField()),
    },
)


def _shown(declaration: Declaration) -> dict[str, Any]:
    """The declaration in the request's language, with the other names it is known by (issue 40)."""
    return {**declaration_json(declaration), "aliases": list(declaration.aliases)}


class PublicApi(APIView):
    """No login (like the schema), throttled per address."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonThrottle]


class VariantListApi(PublicApi):
    """Every variant the engine knows, with its whole declaration."""

    OutputSerializer = VariantOut

    @extend_schema(
        operation_id="v1_variants_list",
        responses=schema.page_of(OutputSerializer),
        parameters=schema.PAGE_PARAMETERS,
        auth=[],
    )
    def get(self, request: Request) -> Response:
        declarations = [_shown(get_variant(name).declaration) for name in variant_names()]
        return paginated(request, self, declarations, self.OutputSerializer)


class VariantDetailApi(PublicApi):
    """One variant's declaration; an unknown name is 404."""

    OutputSerializer = VariantOut

    @extend_schema(responses=OutputSerializer, auth=[])
    def get(self, request: Request, name: str) -> Response:
        try:  # a canonical name or an alias (docs/variants.md, "Names")
            variant = find_variant(name)
        except ValueError:
            raise NotFound(gettext("no such variant")) from None
        return Response(self.OutputSerializer(_shown(variant.declaration)).data)
