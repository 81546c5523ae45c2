"""`GET /favicon.ico`: the site's icon (issue 39, item 13), for the clients that ask for it whatever a
page links (the admin's pages, a browser's address bar, feed readers), so none meets a 404."""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

ICON = settings.BASE_DIR / "static" / "clubscore" / "favicon.ico"


@cache
def icon() -> bytes:
    return ICON.read_bytes()


@cache_control(public=True, max_age=86400)
@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(icon(), content_type="image/vnd.microsoft.icon")
