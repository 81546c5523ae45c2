"""JSON for a failure under /api/ that no view answered, DEBUG or not (`api.md`: every response under
/api/ is JSON). Django's technical 500 page under DEBUG would otherwise be HTML."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from .errors import is_api, is_outage, outage_response, server_error_json, too_large_body

log = logging.getLogger("django.request")


class ApiErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_outage(exception):  # 503, back in a moment: the page or the JSON, DEBUG or not
            log.warning("Database unavailable: %s: %s", request.path, exception)
            return outage_response(request)
        if not is_api(request):
            return None
        log.error("Internal Server Error: %s", request.path, exc_info=exception, extra={"request": request})
        return server_error_json()


class RequestSizeMiddleware:
    """413 `request_too_large` for a body over `MAX_REQUEST_BYTES` (api.md, Limits), from its
    Content-Length, before anything reads or parses it, and before the Idempotency-Key is looked at.
    A body sent without a length is cut at the same size by `DATA_UPLOAD_MAX_MEMORY_SIZE`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api(request):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > settings.MAX_REQUEST_BYTES:
                return JsonResponse(too_large_body(), status=413)
        return self.get_response(request)
