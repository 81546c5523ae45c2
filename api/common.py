"""What every API module shares: the request-body base, the fields the answers render with, the
caller narrowed to a user, pagination, ETags and `If-Match`, and `Route` (one path, one class per method).

Every operation is one class (`api.auth`, `api.clubs`, `api.sessions`, `api.hands`, `api.money`,
`api.stats`, `api.variants`): it validates with its `InputSerializer`, calls one service or selector,
and renders with its `OutputSerializer`, which `extend_schema(responses=...)` documents, so the
answer and its schema are one class and cannot drift.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, ClassVar
from urllib.parse import unquote

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponseBase
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.engine.variants import VARIANTS, find_variant, variant_names
from ledger.exceptions import VersionMismatch
from ledger.models import Session

from .exceptions import PreconditionRequired
from .limits import REASON_MAX
from .pagination import Pagination

MAX_ID = 2**63 - 1  # a database id in a body: what a 64-bit integer column takes


# --- the caller ------------------------------------------------------------------------------------


def actor(request: Request) -> User:
    """The authenticated user of a request: what a service that writes takes as its `actor`.

    Every view but the login, `settle` and the variants requires authentication (DRF answers 401
    before the view runs), so the anonymous case cannot reach a service; it is refused here all the same.
    """
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


# --- request bodies --------------------------------------------------------------------------------


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


class Documented(serializers.JSONField):
    """Any JSON, judged by the engine (its errors name the field); the schema says what it takes."""

    def __init__(self, *, schema: dict[str, Any], **kwargs: Any) -> None:
        self.openapi_schema = schema
        super().__init__(**kwargs)


def valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """The validated data of a body or query (400 `invalid_request` naming the fields otherwise)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def query(request: Request) -> dict[str, Any]:
    """The query string as one value per name (the last one), for a `Strict` query serializer."""
    return dict(request.query_params.items())


class ListQuery(Strict):
    """A list's query: its page only."""

    page = serializers.CharField(required=False)
    page_size = serializers.CharField(required=False)


# --- fields of the answers -------------------------------------------------------------------------


def timestamp(value: dt.datetime) -> str:
    """ISO 8601 as stored (UTC: `Z`), never moved to another time zone."""
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


class Timestamp(serializers.DateTimeField):
    """A stored date and time, rendered by `timestamp` (documented as `date-time`)."""

    def to_representation(self, value: dt.datetime) -> str:
        return timestamp(value)  # a null is rendered null before it gets here


class Username(serializers.CharField):
    """A user, rendered as the username (`None` stays null)."""

    def to_representation(self, value: Any) -> str:
        return str(value.get_username())


@extend_schema_field({"type": "number"})
class Number(serializers.JSONField):
    """A JSON number, rendered as it is: an integer stays an integer (a FloatField would make 5 5.0)."""


# --- lists, versions -------------------------------------------------------------------------------


def paginated(
    request: Request,
    view: APIView,
    items: Any,
    serializer_class: type[serializers.Serializer],
    headers: dict[str, str] | None = None,
    context: dict[str, Any] | None = None,
) -> Response:
    """One page of `items`, each rendered by `serializer_class`: `{"count", "next", "previous", "results"}`."""
    paginator = Pagination()
    page = paginator.paginate_queryset(items, request, view=view)
    response = paginator.get_paginated_response(serializer_class(page, many=True, context=context or {}).data)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def etag(version: int) -> str:
    return f'"{version}"'


def expected_version(request: Request, session: Session) -> int:
    """The version `If-Match` names (428 without one; 412 when it names another than the current)."""
    return if_match(request, session.version, "session")


def if_match(request: Request, version: int, thing: str) -> int:
    """The version of `thing` (a session, a preset) that `If-Match` names: 428 without one, 412 when it
    names another than `version`, the current one."""
    header = request.headers.get("If-Match")
    if header is None or not header.strip():
        raise PreconditionRequired()
    tags = [tag.strip() for tag in header.split(",")]
    if "*" in tags or etag(version) in tags:
        return version
    raise VersionMismatch(f"If-Match names {header.strip()}, but the {thing} is at version {version}")


def reason(request: Request) -> str:
    """Why a hand was amended or undone: the optional `X-Reason` header (percent-encoded UTF-8)."""
    text = unquote(request.headers.get("X-Reason", ""), errors="replace")
    return "".join(c if c.isprintable() else " " for c in text).strip()[:REASON_MAX]


# --- one path, one class per method ----------------------------------------------------------------


class Route(APIView):
    """A path that takes several methods, each its own operation class (`operations`: method -> class).

    Django maps a path to one view, so this one hands each request to its operation's view as it
    is (authentication, throttles and the rest are the operation's). A method no operation takes is
    DRF's 405; every answer's `Allow` names the path's methods. `api.schema.Generator` documents each
    operation from its own class.
    """

    operations: ClassVar[dict[str, type[APIView]]]
    _views: ClassVar[dict[str, Callable[..., HttpResponseBase]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._views = {method: operation.as_view() for method, operation in cls.operations.items()}

    @classmethod
    def view_for(cls, method: str) -> Callable[..., HttpResponseBase] | None:
        method = method.lower()
        return cls._views.get("get" if method == "head" else method)

    @property
    def allowed_methods(self) -> list[str]:
        methods = set(self.operations) | {"options"} | ({"head"} if "get" in self.operations else set())
        return [m.upper() for m in self.http_method_names if m in methods]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        view = self.view_for(request.method or "")
        if view is None:  # OPTIONS, or a method no operation takes (405)
            return super().dispatch(request, *args, **kwargs)
        response = view(request, *args, **kwargs)
        response["Allow"] = ", ".join(self.allowed_methods)  # the path's methods, not the operation's
        return response


def variant_choices() -> list[str]:
    """What a variant may be named by on input: every code, then every alias (its French and Russian
    names, issue 40), as `VARIANTS` lists them now."""
    return [*variant_names(), *(alias for variant in VARIANTS for alias in variant.declaration.aliases)]


class VariantField(serializers.ChoiceField):
    """A variant's code or one of its aliases, validated to the code (`find_variant`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=variant_choices(), **kwargs)

    def to_internal_value(self, data: Any) -> str:
        return find_variant(super().to_internal_value(data)).name
