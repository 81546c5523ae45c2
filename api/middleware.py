"""JSON for a failure under /api/ that no view answered, DEBUG or not (`api.md`: every response under
/api/ is JSON). Django's technical 500 page under DEBUG would otherwise be HTML."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from .errors import is_api, server_error_json

log = logging.getLogger("django.request")


class ApiErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_api(request):
            return None
        log.error("Internal Server Error: %s", request.path, exc_info=exception, extra={"request": request})
        return server_error_json()
