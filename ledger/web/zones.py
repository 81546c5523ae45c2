"""The club's time zone on its pages (issue 26): for a page whose URL names a club, a session or a player,
the club's zone is the request's current time zone (`django.utils.timezone.activate`), so every time the
templates write (`date`, `day`) and every `localtime` of the views is the club's. A page reached by a
link's key (`/s/<key>/`, `/b/<key>/`) calls `use_club_zone` once it has found the link. The API (/api/)
stays in UTC; the live streams carry no time (a tag and counts); a CSV writer converts explicitly
(`ledger.zones.local`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from ledger import selectors, zones

KEYS = ("club_id", "session_id", "player_id")


class ClubTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()  # the next request on this thread starts in UTC again

    def process_view(self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: dict[str, Any]) -> None:
        if request.path_info.startswith(("/api/", "/live/")):
            return
        found = {key: kwargs[key] for key in KEYS if isinstance(kwargs.get(key), int)}
        if found:
            use_club_zone(request, **found)


def use_club_zone(request: HttpRequest, **found: int) -> None:
    """Run the rest of the request in the zone of the club found by `club_id`, `session_id` or `player_id`
    (the middleware, from the URL; a page reached by a link's key, once the view has found the link)."""
    name = selectors.club_time_zone(**found)
    request.club_time_zone = name  # type: ignore[attr-defined]
    timezone.activate(zones.club_zone(name))
