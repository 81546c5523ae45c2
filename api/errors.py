"""The API's one error handler: every refusal is `{"error": {"code", "message", "fields"}}`.

DRF's own exceptions keep their status and headers (`Retry-After`, `WWW-Authenticate`); the engine's
`EngineError` is its `as_json()` with 400; the ledger's refusals carry their `code` and get the status
of `api.md`. Django-level answers for /api/ (404, 500 and the rest) are JSON too: `json_handler`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, JsonResponse
from django.views import csrf, defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ledger import exceptions as ledger
from ledger.engine import EngineError

LEDGER_STATUS: dict[type[ledger.LedgerError], int] = {
    ledger.InvalidRequest: 400,
    ledger.PermissionDenied: 403,
    ledger.NotFound: 404,
    ledger.SessionClosed: 409,
    ledger.SessionNotClosed: 409,
    ledger.NotLastHand: 409,
    ledger.PoolsClaimed: 409,
    ledger.StaleNumber: 409,
    ledger.VersionMismatch: 412,
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


class PreconditionRequired(drf.APIException):
    status_code = 428
    default_code = "if_match_required"
    default_detail = 'this write needs If-Match: "<version>", the session version it was based on'


class IdempotencyKeyRequired(drf.APIException):
    status_code = 400
    default_code = "idempotency_key_required"
    default_detail = "recording a hand needs an Idempotency-Key header: a UUID the client generates"


class IdempotencyConflict(drf.APIException):
    """409 idempotency_in_flight or 422 idempotency_key_reused."""

    def __init__(self, code: str) -> None:
        self.default_code = code
        if code == "idempotency_in_flight":
            self.status_code = 409
            detail = "the first request with this Idempotency-Key is still running: retry in a moment"
        else:
            self.status_code = 422
            detail = "this Idempotency-Key was used with another body"
        super().__init__(detail, code)


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
        fields = _flatten(exc.detail)
        message = "; ".join(f"{name}: {' '.join(msgs)}" for name, msgs in fields.items())
        return error_body(code, message or "the request is not valid", fields)
    detail = exc.detail
    message = (
        str(detail)
        if not isinstance(detail, dict | list)
        else "; ".join(f"{k}: {' '.join(v)}" for k, v in _flatten(detail).items())
    )
    return error_body(code, message)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, EngineError):
        return Response(exc.as_json(), status=400)
    if isinstance(exc, ledger.LedgerError):
        extra = {}
        if isinstance(exc, ledger.StaleNumber):
            from .presenters import session_json

            extra["session"] = session_json(exc.session)
        status = next(s for cls, s in LEDGER_STATUS.items() if isinstance(exc, cls))
        return Response(error_body(exc.code, exc.message, exc.fields, **extra), status=status)
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
    return error_body("request_too_large", f"the request body is larger than {settings.MAX_REQUEST_BYTES} bytes")


@csrf_exempt  # a POST to an unknown path is a 404, not Django's HTML CSRF page: there is nothing to protect
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Every path under /api/ that no view takes, with or without its trailing slash."""
    return JsonResponse(error_body("not_found", f"no such resource: {request.path}"), status=404)


def csrf_failure(request: HttpRequest, reason: str = "") -> Any:
    """`CSRF_FAILURE_VIEW`: JSON under /api/ (every answer there is JSON), Django's page elsewhere."""
    if is_api(request):
        return JsonResponse(error_body("permission_denied", f"CSRF check failed: {reason}"), status=403)
    return csrf.csrf_failure(request, reason)


def server_error_json() -> JsonResponse:
    return JsonResponse(error_body("server_error", "the server failed to answer; the error is logged"), status=500)


def handler400(request: HttpRequest, exception: Exception | None = None) -> Any:
    if is_api(request):
        return JsonResponse(error_body("invalid_request", "bad request"), status=400)
    return defaults.bad_request(request, exception)


def handler403(request: HttpRequest, exception: Exception | None = None) -> Any:
    if is_api(request):
        return JsonResponse(error_body("permission_denied", "forbidden"), status=403)
    return defaults.permission_denied(request, exception)


def handler404(request: HttpRequest, exception: Exception | None = None) -> Any:
    if is_api(request):
        return api_not_found(request)
    return defaults.page_not_found(request, exception)


def handler500(request: HttpRequest) -> Any:
    if is_api(request):
        return server_error_json()
    return defaults.server_error(request)
