"""The seasons' pages (issue 41): the club's seasons, a season's standings (each player's line opens his
evenings, those that count and those dropped, each a link to its session), its rules in words under the
table, and what changed when a stored table was computed again; and the member's calendar link of the
club nights. Thin: the work is `ledger.stats.seasons`' and `ledger.calendar`'s."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ledger import calendar, selectors
from ledger.exceptions import LedgerError, NotFound, PermissionDenied
from ledger.models import Night, Role
from ledger.stats import seasons
from ledger.stats.models import Season

from . import catalog
from .views import AuthedRequest, _may, page, refusal_fields

FIELDS = (
    "name",
    "starts_on",
    "ends_on",
    "variants",
    "measure",
    "currency",
    "min_evenings",
    "best_of",
    "handicap_percent",
)


def _whole(text: str | None, *, blank: Any) -> Any:
    """A typed whole number as an int; blank as `blank`; anything else as typed (the service refuses it)."""
    text = (text or "").strip()
    if not text:
        return blank
    return int(text) if text.isdigit() else text


def _posted(request: HttpRequest) -> dict[str, Any]:
    """The season's form as the service takes it."""
    post = request.POST
    return {
        "name": post.get("name", ""),
        "starts_on": post.get("starts_on", ""),
        "ends_on": post.get("ends_on", ""),
        "variants": post.getlist("variants"),
        "measure": post.get("measure", Season.Measure.COUNTERS),
        "currency": post.get("currency", "").strip().upper(),
        "min_evenings": _whole(post.get("min_evenings"), blank=0),
        "best_of": _whole(post.get("best_of"), blank=None),
        "handicap_percent": _whole(post.get("handicap_percent"), blank=0),
    }


def _form(season: Season | None, typed: dict[str, Any] | None) -> dict[str, Any]:
    """The values the form shows: what was typed (after a refusal), else the season's, else the defaults."""
    if typed is not None:
        return typed
    if season is None:
        return {"variants": [], "measure": Season.Measure.COUNTERS, "min_evenings": 0, "handicap_percent": 0}
    return {name: getattr(season, name) for name in FIELDS} | {
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
    }


def _form_context(season: Season | None, typed: dict[str, Any] | None, errors: dict[str, list[str]]) -> dict[str, Any]:
    return {
        "form": _form(season, typed),
        "errors": errors,
        "other_errors": [m for name, said in errors.items() if name not in FIELDS for m in said],
        "variant_choices": catalog.variant_choices(),
        "measures": [(Season.Measure.COUNTERS, "counters"), (Season.Measure.MONEY, "money")],
    }


@require_http_methods(["GET", "POST"])
@page
def season_list(request: AuthedRequest, club_id: int) -> HttpResponse:
    """The club's seasons; treasurers and admins define a new one here."""
    club = selectors.club_get(user=request.user, club_id=club_id)
    errors: dict[str, list[str]] = {}
    typed = None
    if request.method == "POST":
        selectors.club_role(user=request.user, club_id=club_id, role=Role.TREASURER)  # 403 before the fields
        typed = _posted(request)
        try:
            season = seasons.season_create(actor=request.user, club_id=club_id, **typed)
        except (NotFound, PermissionDenied):
            raise
        except LedgerError as exc:
            errors = refusal_fields(exc)
        else:
            return redirect("web:season", club_id=club_id, season_id=season.pk)
    today = seasons.club_today(club_id)
    return render(
        request,
        "web/seasons.html",
        {
            "club": club,
            "rows": [
                {
                    "season": s,
                    "titles": [catalog.variant_title(v) for v in s.variants],
                    "now": s.starts_on <= today <= s.ends_on,
                }
                for s in seasons.season_list(user=request.user, club_id=club_id)
            ],
            "can_define": _may(club.role, Role.TREASURER),
            **_form_context(None, typed, errors),
        },
        status=400 if errors else 200,
    )


def _change_lines(note: Any) -> list[dict[str, Any]]:
    return list(note.changes.get("players", []))


@require_http_methods(["GET", "POST"])
@page
def season(request: AuthedRequest, club_id: int, season_id: int) -> HttpResponse:
    """A season's standings; treasurers edit its rules or store its table here (POST `action`)."""
    errors: dict[str, list[str]] = {}
    typed = None
    if request.method == "POST":
        selectors.club_role(user=request.user, club_id=club_id, role=Role.TREASURER)  # any POST: 404 / 403 first
        action = request.POST.get("action")
        try:
            if action == "store":
                seasons.season_store(actor=request.user, club_id=club_id, season_id=season_id)
                return redirect("web:season", club_id=club_id, season_id=season_id)
            if action == "edit":
                typed = _posted(request)
                version = _whole(request.POST.get("version"), blank=None)
                seasons.season_update(
                    actor=request.user, club_id=club_id, season_id=season_id, expected_version=version, **typed
                )
                return redirect("web:season", club_id=club_id, season_id=season_id)
        except (NotFound, PermissionDenied):
            raise
        except LedgerError as exc:
            errors = refusal_fields(exc)
    club = selectors.club_get(user=request.user, club_id=club_id)
    table = seasons.season_standings(user=request.user, club_id=club_id, season_id=season_id)
    found = table.season
    before, why_none = seasons.handicap_source(found)
    money = found.measure == Season.Measure.MONEY
    lines = []
    for line in table.lines:
        evenings = [dict(e, date=dt.date.fromisoformat(e["date"])) for e in line["evenings"]]
        lines.append(
            {
                **line,
                "counting": [e for e in evenings if e["counts"]],
                "dropped": [e for e in evenings if not e["counts"]],
            }
        )
    return render(
        request,
        "web/season.html",
        {
            "club": club,
            "season": found,
            "table": table,
            "lines": lines,
            "money": money,
            "currency": found.currency,
            "titles": [catalog.variant_title(v) for v in found.variants],
            "handicap_from": before,
            "handicap_none": why_none,
            "notes": [{"note": n, "players": _change_lines(n)} for n in table.notes],
            "can_define": _may(club.role, Role.TREASURER),
            "csv_url": f"/api/v1/clubs/{club_id}/seasons/{found.pk}/standings/?format=csv",
            **_form_context(found, typed, errors),
        },
        status=400 if errors else 200,
    )


# --- the calendar of club nights --------------------------------------------------------------------


@require_POST
@page
def calendar_link(request: AuthedRequest, club_id: int) -> HttpResponse:
    """Make the member's calendar link (a new one revokes the old; shown once), or revoke it."""
    club = selectors.club_get(user=request.user, club_id=club_id)
    if request.POST.get("action") == "revoke":
        calendar.calendar_feed_revoke(actor=request.user, club_id=club_id)
        return redirect(reverse("web:club", args=[club_id]) + "#calendar")
    key, _feed = calendar.calendar_feed_issue(actor=request.user, club_id=club_id)
    url = request.build_absolute_uri(reverse("web:calendar-feed", args=[key]))
    response = render(
        request, "web/calendar_link.html", {"club": club, "url": url, "webcal": "webcal://" + url.split("://", 1)[1]}
    )
    response["Cache-Control"] = "no-store"  # the link is shown once
    return response


@require_GET
def calendar_feed(request: HttpRequest, key: str) -> HttpResponse:
    """The club's next nights as iCalendar, for a calendar app: no login, the link's key is the secret."""
    feed = calendar.calendar_feed_get(key)
    if feed is None:
        raise Http404("no such calendar")

    def night_url(night: Night) -> str:
        return request.build_absolute_uri(reverse("web:night", args=[night.club_id, night.pk]))

    response = HttpResponse(
        calendar.club_nights_ics(feed=feed, night_url=night_url), content_type="text/calendar; charset=utf-8"
    )
    response["Content-Disposition"] = 'inline; filename="club-nights.ics"'
    response["Cache-Control"] = "private, max-age=900"
    return response
