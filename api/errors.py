"""The API's one error handler: every refusal is `{"error": {"code", "message", "fields"}}`.

DRF's own exceptions keep their status and headers (`Retry-After`, `WWW-Authenticate`); the engine's
`EngineError` is its `as_json()` with 400, its `message` and `fields` in the request's language
(`ledger.i18n`); the ledger's refusals carry their `code` and get the status
of `api.md`. Django-level answers for /api/ (404, 500 and the rest) are JSON too: `json_handler`.
"""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.views import csrf
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ledger import exceptions as ledger
from ledger.engine import EngineError
from ledger.i18n import error_body as engine_error_body
from ledger.i18n import refusals
from ledger.web import errors as pages

LEDGER_STATUS: dict[type[ledger.LedgerError], int] = {
    ledger.InvalidRequest: 400,
    ledger.PermissionDenied: 403,
    ledger.NotFound: 404,
    ledger.SessionClosed: 409,
    ledger.SessionNotClosed: 409,
    ledger.NotLastHand: 409,
    ledger.ClaimLapsed: 409,
    ledger.PoolsClaimed: 409,
    ledger.SeatChanged: 409,
    ledger.DisputesOpen: 409,
    ledger.StaleNumber: 409,
    ledger.NightDrawn: 409,
    ledger.GameMoved: 409,
    ledger.SettledByNight: 409,
    ledger.VersionMismatch: 412,
    ledger.KeyInFlight: 409,
    ledger.KeyReused: 422,
}

DRF_CODES: list[tuple[type[drf.APIException], str]] = [
    (drf.NotAuthenticated, "not_authenticated"),
    (drf.AuthenticationFailed, "not_authenticated"),
    (drf.PermissionDenied, "permission_denied"),
    (drf.NotFound, "not_found"),
    (drf.MethodNotAllowed, "method_not_allowed"),
    (drf.ParseError, "invalid_request"),
    (drf.ValidationError, "invalid_request"),
    (drf.Throttled, "throttled"),
    (drf.UnsupportedMediaType, "unsupported_media_type"),
    (drf.NotAcceptable, "not_acceptable"),
]


def error_body(code: str, message: str, fields: dict[str, list[str]] | None = None, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "fields": fields or {}, **extra}}


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested validation detail as {"field" or "field.sub": [messages]}."""
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "body" if key == "non_field_errors" else str(key)
            for sub, msgs in _flatten(value, f"{prefix}{name}.").items():
                out.setdefault(sub, []).extend(msgs)
    elif isinstance(detail, list):
        if all(not isinstance(v, dict | list) for v in detail):
            out[prefix.rstrip(".") or "body"] = [str(v) for v in detail]
        else:
            for i, value in enumerate(detail):
                for sub, msgs in _flatten(value, f"{prefix}{i}.").items():
                    out.setdefault(sub, []).extend(msgs)
    else:
        out[prefix.rstrip(".") or "body"] = [str(detail)]
    return out


def _drf_body(exc: drf.APIException) -> dict[str, Any]:
    code = next((c for cls, c in DRF_CODES if isinstance(exc, cls)), None) or str(exc.default_code)
    if isinstance(exc, drf.ValidationError):
        # Our serializers' and views' own words in the request's language (DRF's are already in it).
        fields = {name: [refusals.ledger_text(m) for m in msgs] for name, msgs in _flatten(exc.detail).items()}
        message = "; ".join(f"{name}: {' '.join(msgs)}" for name, msgs in fields.items())
        return error_body(code, message or str(refusals.NOT_VALID), fields)
    detail = exc.detail
    message = (
        str(detail)
        if not isinstance(detail, dict | list)
        else "; ".join(f"{k}: {' '.join(v)}" for k, v in _flatten(detail).items())
    )
    return error_body(code, message)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, EngineError):
        return Response(engine_error_body(exc), status=400)
    if isinstance(exc, ledger.LedgerError):
        extra = {}
        if isinstance(exc, ledger.StaleNumber):
            from .sessions import session_body

            extra["session"] = session_body(exc.session)
        elif isinstance(exc, ledger.SettledByNight):
            extra["night"] = exc.night.pk  # where to pay from: GET /nights/{night}/settlement/
        status = next(s for cls, s in LEDGER_STATUS.items() if isinstance(exc, cls))
        fields = {name: [refusals.ledger_text(m) for m in msgs] for name, msgs in exc.fields.items()}
        return Response(error_body(exc.code, refusals.ledger_text(exc.message), fields, **extra), status=status)
    if isinstance(exc, RequestDataTooBig):  # a body without Content-Length that grew past the limit
        return Response(too_large_body(), status=413)
    response = drf_exception_handler(exc, context)  # converts Http404 and Django's PermissionDenied
    if response is None:
        return None
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif not isinstance(exc, drf.APIException):
        exc = drf.PermissionDenied()
    response.data = _drf_body(exc)
    return response


# --- Django-level answers for /api/ --------------------------------------------------------------


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def too_large_body() -> dict[str, Any]:
    return error_body("request_too_large", refusals.TOO_LARGE.format(limit=settings.MAX_REQUEST_BYTES))


@csrf_exempt  # a POST to an unknown path is a 404, not Django's HTML CSRF page: there is nothing to protect
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Every path under /api/ that no view takes, with or without its trailing slash."""
    return JsonResponse(error_body("not_found", refusals.NO_SUCH_RESOURCE.format(path=request.path)), status=404)


def csrf_failure(request: HttpRequest, reason: str = "") -> Any:
    """`CSRF_FAILURE_VIEW`: JSON under /api/ (every answer there is JSON), Django's page elsewhere."""
    if is_api(request):
        return JsonResponse(error_body("permission_denied", refusals.CSRF_FAILED.format(reason=reason)), status=403)
    return csrf.csrf_failure(request, reason)


def server_error_json() -> JsonResponse:
    return JsonResponse(error_body("server_error", str(refusals.SERVER_ERROR)), status=500)


# --- the database is down or its connection was lost: 503, back in a moment (issue 27) -----------

RETRY_AFTER_SECONDS = 5


def is_outage(exc: BaseException | None) -> bool:
    """The database did not answer (refused, restarting, the connection cut mid-request): nothing a
    client sent is wrong, and the same request will do in a moment. Other database errors are bugs."""
    return isinstance(exc, OperationalError | InterfaceError)


class _NoMessages(list[Any]):
    """No messages shown or stored while the database is down (MessageMiddleware calls `update`)."""

    def update(self, response: HttpResponse) -> list[Any]:
        return []


def outage_response(request: HttpRequest) -> HttpResponse:
    """503 with `Retry-After`: the API's JSON error under /api/, else a page in the site's layout and
    the request's language that says the service is back in a moment. The page asks nothing of the
    database: the visitor is shown as anonymous and no message is read from the session."""
    if is_api(request):
        response: HttpResponse = JsonResponse(
            error_body("service_unavailable", str(refusals.SERVICE_UNAVAILABLE)), status=503
        )
    else:
        request.user = AnonymousUser()
        request._messages = _NoMessages()  # type: ignore[attr-defined]  # they live in the session: not now
        page = loader.get_template("503.html").render({"retry_after": RETRY_AFTER_SECONDS}, request)
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def handler400(request: HttpRequest, exception: Exception) -> Any:
    if is_api(request):
        return JsonResponse(error_body("invalid_request", str(refusals.BAD_REQUEST)), status=400)
    return pages.bad_request(request, exception)


def handler403(request: HttpRequest, exception: Exception) -> Any:
    if is_api(request):
        return JsonResponse(error_body("permission_denied", str(refusals.FORBIDDEN)), status=403)
    return pages.permission_denied(request, exception)


def handler404(request: HttpRequest, exception: Exception | None = None) -> Any:
    if is_api(request):
        return api_not_found(request)
    return pages.page_not_found(request, exception)


def handler500(request: HttpRequest) -> Any:
    if is_outage(sys.exc_info()[1]):  # raised in a middleware or a view: the database is down
        return outage_response(request)
    if is_api(request):
        return server_error_json()
    return pages.server_error(request)
