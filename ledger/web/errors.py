"""The error pages of the web site (400, 403, 404, 500) in the site's layout and the request's language,
under DEBUG too: `bin/serve` runs with DEBUG on, and a club must never see Django's technical page (its
URL list, its traceback). `api.errors` sends /api/ elsewhere (JSON); every other path comes here.

Without DEBUG, Django calls the `handler4xx/500` of `clubscore.urls`, which call these. With DEBUG,
Django would answer a view's exception and an unknown path with its technical pages, so
`ErrorPageMiddleware` answers them first: a view's exception in `process_exception`, an unknown path
(which never reaches a view, so no middleware sees its exception) by the 404 it turned into.
The traceback still goes to the console through the `django.request` logger.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.template import loader
from django.views import defaults

log = logging.getLogger("django.request")

ERROR_PAGE = "_clubscore_error_page"  # set on the responses rendered here


def _render(request: HttpRequest, template: str, status: int, exception: Exception | None = None) -> HttpResponse:
    context = {"exception": _shown(exception)}
    try:
        body = loader.render_to_string(template, context, request=request)
    except Exception:  # the layout itself failed (the database is down, say): the bare page, still no traceback
        log.exception("the error page %s could not be rendered", template)
        body = loader.render_to_string("error_plain.html", {"status": status})
    response = HttpResponse(body, status=status)
    setattr(response, ERROR_PAGE, True)
    return response


def _shown(exception: Exception | None) -> str:
    """What the page may say of the exception: the words our views raise a 403 with (a refusal in the
    player's words), never Django's own message of a 404 ("No Session matches the given query")."""
    if isinstance(exception, PermissionDenied) and exception.args and isinstance(exception.args[0], str):
        return exception.args[0]
    return ""


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _render(request, "400.html", 400, exception)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _render(request, "403.html", 403, exception)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _render(request, "404.html", 404, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    try:
        return _render(request, "500.html", 500)
    except Exception:  # even the bare page failed: Django's own plain one
        return defaults.server_error(request)


def _from_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


class ErrorPageMiddleware:
    """Under DEBUG, the site's error pages instead of Django's technical ones (see the module's text).
    Without DEBUG it does nothing: Django already calls the handlers. /api/ is left to its JSON."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            settings.DEBUG
            and response.status_code == 404
            and getattr(request, "resolver_match", None) is None  # no view took the path: the technical 404
            and not getattr(response, ERROR_PAGE, False)
            and not _from_api(request)
        ):
            return page_not_found(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not settings.DEBUG or _from_api(request):
            return None
        if isinstance(exception, Http404):
            return page_not_found(request, exception)
        if isinstance(exception, PermissionDenied):
            return permission_denied(request, exception)
        if isinstance(exception, BadRequest | SuspiciousOperation | MultiPartParserError):
            log.warning("Bad request: %s", request.path, exc_info=exception, extra={"request": request})
            return bad_request(request, exception)
        log.error("Internal Server Error: %s", request.path, exc_info=exception, extra={"request": request})
        return server_error(request)
