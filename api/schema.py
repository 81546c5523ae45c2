"""The OpenAPI schema (drf-spectacular): its parameters, pages, the error body, and the score-sheet objects.

Each operation's answer is documented by the serializer that renders it (its `OutputSerializer`,
beside the view). The score-sheet objects here (`HandIn`, `Sheet`, `Settlement`) are the engine's to
judge: a request's sheet or hand goes to the engine as JSON, so its errors name the rule, and these
describe it; `Sheet` and `Settlement` also render the sheet and settlement answers.
`Generator` documents each operation of a `common.Route` from the operation's own class.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerFieldExtension
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

MAX_PATH_ID = 10**18 - 1  # api.urls.IdConverter: at most 18 digits
ID_PARAMETERS = {"club_id", "player_id", "session_id", "token_id", "number", "link_id"}  # the `<id:...>` of api.urls
PAGE_PARAMETERS = [
    OpenApiParameter("page", int, description="1 or more (or `last`); past the last page: 404"),
    OpenApiParameter("page_size", int, description="1 or more; at most 200 are returned (default 50)"),
]
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description='`"<version>"`, the session version this write is based on (`*`: any); missing: 428',
)
X_REASON = OpenApiParameter(
    "X-Reason", str, OpenApiParameter.HEADER, description="why (percent-encoded UTF-8), kept in the history; cut at 500"
)
_PAGES: dict[str, type[serializers.Serializer]] = {}


def page_of(item: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """The shape of every list (api.pagination): `{"count", "next", "previous", "results": [item]}`."""
    name = "Paginated" + item.__name__.removesuffix("Out") + "List"
    if name not in _PAGES:
        _PAGES[name] = type(
            name,
            (serializers.Serializer,),
            {
                "count": serializers.IntegerField(min_value=0),
                "next": serializers.URLField(allow_null=True),
                "previous": serializers.URLField(allow_null=True),
                "results": item(many=True),
            },
        )
    return _PAGES[name]


class DeviceTokenScheme(OpenApiAuthenticationExtension):
    """`Authorization: Token <key>` in the schema (api.authentication.DeviceTokenAuthentication)."""

    target_class = "api.authentication.DeviceTokenAuthentication"
    name = "deviceToken"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>`: the key `POST /api/v1/auth/token/` issued for this device",
        }


class DocumentedField(OpenApiSerializerFieldExtension):
    """`api.common.Documented`: a JSON field the engine judges, with the schema it was given."""

    target_class = "api.common.Documented"

    def map_serializer_field(self, auto_schema: object, direction: str) -> dict[str, Any]:
        return dict(self.target.openapi_schema)


Adjustment = type(
    "Adjustment",
    (serializers.Serializer,),
    {
        "from": serializers.JSONField(help_text='a seat 0-3 or "pool"'),
        "to": serializers.JSONField(help_text='a seat 0-3 or "pool"'),
        "counters": serializers.IntegerField(min_value=1),
        "note": serializers.CharField(max_length=500, help_text="why, in words"),
    },
)


class HandIn(serializers.Serializer):
    """The score-sheet hand of `scoresheet.md`; which fields a bid needs depends on the variant."""

    bid = serializers.CharField()
    bidder = serializers.IntegerField(required=False)
    trump = serializers.CharField(required=False)
    partner = serializers.IntegerField(required=False)
    turned = serializers.CharField(required=False)
    tricks = serializers.ListField(child=serializers.IntegerField(), required=False)
    honours = serializers.IntegerField(required=False)
    conceded = serializers.JSONField(
        required=False, help_text='true, false, or "bidder" when the bidder paid instead of playing (rules.md §0.11)'
    )
    jack = serializers.IntegerField(required=False)
    revoke = serializers.IntegerField(required=False)
    last_trick = serializers.IntegerField(required=False)
    ace_turned = serializers.BooleanField(required=False, help_text="Russian «с ремизом»: the dealer turned an ace")
    adjustments = Adjustment(many=True, required=False)
    number = serializers.IntegerField(required=False, help_text="the deal the scorer believes is next")

    def recorded(self, instance: Any) -> dict[str, Any]:
        """The hand as the scorer sent it (its keys in the scorer's order)."""
        return instance if isinstance(instance, dict) else {}

    def to_representation(self, instance: Any) -> Any:
        # Rendered field by field, in the order of the hand as recorded (then the declared order).
        data = super().to_representation(instance)
        order = [name for name in self.recorded(instance) if name in data]
        return {**{name: data[name] for name in order}, **data}


# `from` is a Python keyword: the class is built with type().
Transfer = type(
    "Transfer",
    (serializers.Serializer,),
    {
        "from": serializers.JSONField(help_text='a seat 0-3 or "pool"'),
        "to": serializers.JSONField(help_text='a seat 0-3 or "pool"'),
        "counters": serializers.IntegerField(),
        "reason": serializers.CharField(),
    },
)


class Sheet(serializers.Serializer):
    """A score sheet (`scoresheet.md`)."""

    format = serializers.CharField(default="clubscore-sheet/1")
    variant = serializers.CharField()
    rules = serializers.DictField(required=False)
    players = serializers.ListField(child=serializers.CharField(max_length=100), min_length=4, max_length=4)
    first_dealer = serializers.IntegerField(min_value=0, max_value=3)
    pools = serializers.ListField(child=serializers.IntegerField(), required=False)
    stake = serializers.DictField(required=False)
    hands: serializers.ListSerializer[Any] = serializers.ListSerializer(
        child=HandIn(), max_length=500, help_text="at most MAX_SESSION_HANDS (500) through the API"
    )
    close = serializers.DictField(required=False)
    substitutions = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text='the seat history (issue 37): [{"seat", "player", "from"}], absent when no seat changed hands',
    )


class Settlement(serializers.Serializer):
    """The settlement (`scoresheet.md`): what `python manage.py settle` prints."""

    format = serializers.CharField()
    variant = serializers.CharField()
    hands = serializers.ListField(child=serializers.DictField())
    balances = serializers.ListField(child=serializers.IntegerField())
    pools = serializers.ListField(child=serializers.IntegerField())
    close = serializers.DictField(required=False)


ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "fields"],
            "properties": {
                "code": {"type": "string", "description": "the error code of api.md, e.g. invalid_hand"},
                "message": {"type": "string"},
                "fields": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
                "hand": {"type": "integer", "description": "the deal that broke the rule (engine errors)"},
                "session": {"type": "object", "description": "the session (409 stale_number)"},
                "night": {
                    "type": "integer",
                    "description": "the night whose room settlement pays the table (409 settled_by_night)",
                },
            },
        }
    },
}


def error_responses(result: dict, generator: object, request: object, public: bool) -> dict:
    """drf-spectacular post-processing hook: every operation may answer the error body (4XX, 5XX), and
    every id in a path is what `api.urls.IdConverter` takes (an integer, 1 to 18 digits)."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path" and parameter["name"] in ID_PARAMETERS:
                    parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": MAX_PATH_ID}
                elif parameter.get("in") == "path" and parameter["name"] == "seat":  # api.urls.SeatConverter
                    parameter["schema"] = {"type": "integer", "minimum": 0, "maximum": 3}
                elif parameter.get("in") == "path" and parameter["name"] == "key":  # api.urls.KeyConverter
                    parameter["schema"] = {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"}
            responses = operation.setdefault("responses", {})
            responses.setdefault("4XX", {"description": "a refusal: `error.code` says which (api.md, Errors)", **ref})
            responses.setdefault("5XX", {"description": "a server failure (never the client's input)", **ref})
    return result


class Generator(SchemaGenerator):
    """drf-spectacular's generator, documenting each method of a `common.Route` path from its
    operation's class (its docstring, serializers, authentication) rather than from the route."""

    def create_view(self, callback: Any, method: str, request: Any = None) -> Any:
        route = getattr(callback, "cls", None)
        operation = route.view_for(method) if isinstance(route, type) and hasattr(route, "view_for") else None
        return super().create_view(operation or callback, method, request)
