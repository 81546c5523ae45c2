"""The Content-Security-Policy of every answer (issue 29, point 9).

Django 5.2 has none of its own. The policy (`settings.CONTENT_SECURITY_POLICY`) allows scripts, styles,
fetches and frames from this site only, and no inline script, inline event handler or `style=` attribute
at all: the pages keep their scripts in `static/clubscore/` and hand them data through `data-`
attributes or `json_script` (a `<script type="application/json">` is data, never run). So a hostile
name that slipped past the escaping could still not run. `tests/web/test_csp.py` fails if a template
grows an inline script or handler again. A view that needs another policy sets the header itself and
this middleware leaves it as it is.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


def policy(directives: dict[str, list[str]]) -> str:
    """`{"default-src": ["'self'"], ...}` as the header's text."""
    return "; ".join(" ".join([name, *sources]) for name, sources in directives.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.header = policy(settings.CONTENT_SECURITY_POLICY)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = self.header
        return response
