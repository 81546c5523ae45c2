"""The authorization matrix (issue 29): every page and API operation x every role x two clubs, built
from the URL configuration, so a page or an operation is covered the day it is added.

The cells come from `django.urls.get_resolver()`: every URL pattern, with its methods (an API view's
own: a `Route`'s operations, an `APIView`'s handlers; a page's, as declared below). The answer each
cell must give comes from POLICY, the roles of api.md ("Who may do what"): a pattern or an API method
that POLICY does not declare fails the test until it is declared, and so does a declaration that no
pattern has any more. The admin site's patterns are one rule (staff only).

The callers: anonymous; the admin, treasurer, scorer and player of club A and of club B; a superuser
who belongs to no club ("superusers are no exception"). Each target (a club, its session, its player
linked to the player's login, its admin's device token) exists in both clubs, and each caller asks
for each club's: one request per cell. The answers:
- OK: the caller may (2xx, or a refusal of the request itself: 400, 409, 412, 422, 428);
- 401 `not_authenticated` (API) or a redirect to the login (pages) for an anonymous caller;
- 403 `permission_denied`, a member whose role does not allow it;
- 404 `not_found`, whoever is not a member of the target's club (never 403 with details).
"""

from __future__ import annotations

import json
import re
import types
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, path
from rest_framework.test import APIClient
from rest_framework.views import APIView

from api.common import Route
from ledger import calendar, nights
from ledger.models import Club, DealCheck, Player, Role, Session
from ledger.services.clubs import club_create, membership_set, player_create
from ledger.services.presets import preset_create
from ledger.services.table import board_link_issue, board_link_revoke, deal_check, seat_link_issue, seat_link_revoke
from ledger.services.tokens import token_issue
from ledger.stats import seasons
from tests.ledger_fixtures import AMERICAN_HANDS, PASSWORD, make_user, open_session, record_all

pytestmark = pytest.mark.django_db

ROLES = [Role.PLAYER, Role.SCORER, Role.TREASURER, Role.ADMIN]
OK, LOGIN, ADMIN_LOGIN, R401, R403, R404 = "ok", "to the login", "to the admin's login", "401", "403", "404"
REQUEST_REFUSED = {400, 409, 412, 422, 428}  # the caller may, the request is wrong: not an authorization answer


@dataclass(frozen=True)
class Rule:
    """Who may: "public" (anyone), "user" (anyone logged in: the caller's own things), a role (a member
    of the target's club with that role or above), "self or treasurer" (the target player's own login,
    or a treasurer), "owner" (the target token's user), "nobody" (404 for all), "staff" (the admin)."""

    who: str
    body: Callable[[World, Target], Any] | None = None
    also: frozenset[str] = frozenset()  # answers that say nothing of authorization (a health check's 503)
    prepare: Callable[[World, Target], dict[str, str]] | None = None  # a fresh object for each cell: its path values
    anonymous: str | None = None  # what an anonymous caller gets when it is not the login (a stream's 404)


@dataclass
class Target:
    club: Club
    session: Session
    player: Player  # linked to the club's player login
    players: list[Player]
    token_id: int  # a device token of the club's admin
    owner: Any
    links: dict[str, str]  # a link's kind ("seat link", "board link", "calendar link", "revoked ..."): its key
    preset_id: int = 0  # a preset of the club (issue 42)
    season_id: int = 0  # a season of the club (issue 41)


@dataclass
class Caller:
    name: str
    user: Any | None
    clubs: dict[int, str]  # club id: role


@dataclass
class World:
    targets: list[Target]
    callers: list[Caller]
    serial: Iterator[int]


def _sheet(names: list[str]) -> dict[str, Any]:
    return {"format": "clubscore-sheet/1", "variant": "american", "players": names, "first_dealer": 0, "hands": []}


def _name(world: World, t: Target) -> dict[str, Any]:
    return {"name": f"Matrix {next(world.serial)}"}


def _open(world: World, t: Target) -> dict[str, Any]:
    return {
        "club": t.club.pk,
        "variant": "american",
        "rules": {},
        "players": [p.pk for p in t.players],
        "first_dealer": 0,
    }


def _import(world: World, t: Target) -> dict[str, Any]:
    return {"club": t.club.pk, "sheet": _sheet([p.name for p in t.players])}


def _payment(world: World, t: Target) -> dict[str, Any]:
    return {"from": t.players[0].pk, "to": t.players[1].pk, "cents": 100, "currency": "EUR"}


def _login(world: World, t: Target) -> dict[str, Any]:
    return {"username": "visitor", "password": PASSWORD, "device": "matrix"}


def _reason() -> dict[str, Any]:
    return {"reason": "not what was played"}


def _settle_form(world: World, t: Target) -> dict[str, Any]:
    return {"number": 1, "seat": 1, "outcome": "resolved"}


def _a_dispute(world: World, t: Target) -> dict[str, str]:
    """An open dispute of deal 1 by seat 1 (through a seat link), for the treasurer to settle."""
    _, link = seat_link_issue(actor=t.owner, session_id=t.session.pk, seat=1)
    deal_check(session_id=t.session.pk, number=1, state=DealCheck.State.CONFIRMED, link=link)
    deal_check(session_id=t.session.pk, number=1, state=DealCheck.State.DISPUTED, reason="x", link=link)
    return {}


def _a_seat_link(world: World, t: Target) -> dict[str, str]:
    _, link = seat_link_issue(actor=t.owner, session_id=t.session.pk, seat=2)
    return {"link_id": str(link.pk)}


def _preset(world: World, t: Target) -> dict[str, Any]:
    return {"name": f"Matrix {next(world.serial)}", "variant": "american", "rules": {"ante": 2}}


def _a_preset(world: World, t: Target) -> dict[str, str]:
    """A fresh preset to archive (each cell its own, so a first archive leaves the next cell one)."""
    made = preset_create(
        actor=t.owner, club_id=t.club.pk, name=f"Gone {next(world.serial)}", variant="american", rules={}
    )
    return {"preset_id": str(made.pk)}


def _a_board_link(world: World, t: Target) -> dict[str, str]:
    _, link = board_link_issue(actor=t.owner, club_id=t.club.pk)
    return {"link_id": str(link.pk)}


def _a_night(world: World, t: Target) -> dict[str, str]:
    """The club's night of today (issue 37), opened by its admin (the same one for every cell)."""
    night, _ = nights.night_open(actor=t.owner, club_id=t.club.pk)
    return {"night_id": str(night.pk)}


SEASON_DAYS = {"starts_on": "2000-01-01", "ends_on": "2099-12-31"}  # holds today: its table is computed


def _season(world: World, t: Target) -> dict[str, Any]:
    """A season's rules (issue 41), a fresh name each cell (a club's season names are unique)."""
    return {"name": f"Matrix {next(world.serial)}", **SEASON_DAYS, "variants": ["american"]}


def _season_form(world: World, t: Target) -> dict[str, Any]:
    return {**_season(world, t), "measure": "counters"}


def _own_check_in(world: World, t: Target) -> dict[str, Any]:
    return {"player": t.player.pk}  # the player linked to the club's player login: his own check-in


API = "/api/v1/"
POLICY: dict[tuple[str, str], Rule] = {
    # api.md, "Who may do what" and "Resources"
    (f"{API}auth/token/", "POST"): Rule("public", _login),
    (f"{API}auth/token/", "DELETE"): Rule("user"),
    (f"{API}auth/tokens/", "GET"): Rule("user"),
    (f"{API}auth/tokens/<id:token_id>/", "DELETE"): Rule("owner"),
    (f"{API}clubs/", "GET"): Rule("user"),
    (f"{API}clubs/", "POST"): Rule("user", _name),
    (f"{API}clubs/<id:club_id>/time-zone/", "PUT"): Rule(Role.ADMIN, lambda w, t: {"time_zone": "Europe/Paris"}),
    (f"{API}clubs/<id:club_id>/payment/", "PUT"): Rule(
        Role.TREASURER, lambda w, t: {"iban": "FR7630006000011234567890189"}
    ),
    (f"{API}clubs/<id:club_id>/players/", "GET"): Rule(Role.PLAYER),
    (f"{API}clubs/<id:club_id>/players/", "POST"): Rule(Role.SCORER, _name),
    # presets (issue 42): every member reads them, treasurers keep them
    (f"{API}clubs/<id:club_id>/presets/", "GET"): Rule(Role.PLAYER),
    (f"{API}clubs/<id:club_id>/presets/", "POST"): Rule(Role.TREASURER, _preset),
    (f"{API}clubs/<id:club_id>/presets/<id:preset_id>/", "GET"): Rule(Role.PLAYER),
    (f"{API}clubs/<id:club_id>/presets/<id:preset_id>/", "PUT"): Rule(Role.TREASURER, _preset),
    (f"{API}clubs/<id:club_id>/presets/<id:preset_id>/", "DELETE"): Rule(Role.TREASURER, prepare=_a_preset),
    (f"{API}clubs/<id:club_id>/presets/<id:preset_id>/versions/", "GET"): Rule(Role.PLAYER),
    (f"{API}sessions/", "GET"): Rule("user"),
    (f"{API}sessions/", "POST"): Rule(Role.SCORER, _open),
    (f"{API}sessions/import/", "POST"): Rule(Role.SCORER, _import),
    (f"{API}sessions/<id:session_id>/", "GET"): Rule(Role.PLAYER),
    (f"{API}sessions/<id:session_id>/hands/", "GET"): Rule(Role.PLAYER),
    (f"{API}sessions/<id:session_id>/hands/", "POST"): Rule(Role.SCORER, lambda w, t: AMERICAN_HANDS[2]),
    (f"{API}sessions/<id:session_id>/hands/<id:number>/", "GET"): Rule(Role.PLAYER),
    (f"{API}sessions/<id:session_id>/hands/<id:number>/", "PUT"): Rule(Role.SCORER, lambda w, t: AMERICAN_HANDS[0]),
    (f"{API}sessions/<id:session_id>/hands/<id:number>/", "DELETE"): Rule(Role.SCORER),
    (f"{API}sessions/<id:session_id>/hands/<id:number>/history/", "GET"): Rule(Role.PLAYER),
    (f"{API}sessions/<id:session_id>/close/", "POST"): Rule(Role.TREASURER, lambda w, t: {}),
    (f"{API}sessions/<id:session_id>/reopen/", "POST"): Rule(Role.TREASURER, lambda w, t: {}),
    (f"{API}sessions/<id:session_id>/settlement/", "GET"): Rule(Role.PLAYER),
    (f"{API}sessions/<id:session_id>/sheet/", "GET"): Rule(Role.PLAYER),
    (f"{API}players/<id:player_id>/stats/", "GET"): Rule(Role.PLAYER),
    (f"{API}players/<id:player_id>/ratings/", "GET"): Rule(Role.PLAYER),
    (f"{API}clubs/<id:club_id>/leaderboard/", "GET"): Rule(Role.PLAYER),
    # seasons (issue 41): every member reads them and their standings, treasurers define, edit and store them
    (f"{API}clubs/<id:club_id>/seasons/", "GET"): Rule(Role.PLAYER),
    (f"{API}clubs/<id:club_id>/seasons/", "POST"): Rule(Role.TREASURER, _season),
    (f"{API}clubs/<id:club_id>/seasons/<id:season_id>/", "GET"): Rule(Role.PLAYER),
    (f"{API}clubs/<id:club_id>/seasons/<id:season_id>/", "PUT"): Rule(Role.TREASURER, _season),
    (f"{API}clubs/<id:club_id>/seasons/<id:season_id>/standings/", "GET"): Rule(Role.PLAYER),
    (f"{API}clubs/<id:club_id>/seasons/<id:season_id>/standings/", "POST"): Rule(Role.TREASURER),
    (f"{API}clubs/<id:club_id>/carried-pools/", "GET"): Rule(Role.PLAYER),
    (f"{API}clubs/<id:club_id>/settle-up/", "GET"): Rule(Role.TREASURER),
    (f"{API}clubs/<id:club_id>/payments/", "GET"): Rule(Role.TREASURER),
    (f"{API}clubs/<id:club_id>/payments/", "POST"): Rule(Role.TREASURER, _payment),
    (f"{API}players/<id:player_id>/statement/", "GET"): Rule("self or treasurer"),
    # the whole table (issue 25): a seat's word for the seated player himself, links
    (f"{API}sessions/<id:session_id>/hands/<id:number>/confirm/", "POST"): Rule("seated", lambda w, t: {}),
    (f"{API}sessions/<id:session_id>/hands/<id:number>/dispute/", "POST"): Rule("seated", lambda w, t: _reason()),
    (f"{API}sessions/<id:session_id>/hands/<id:number>/disputes/<seat:seat>/settle/", "POST"): Rule(
        Role.TREASURER, lambda w, t: {"outcome": "resolved"}, prepare=_a_dispute
    ),
    (f"{API}sessions/<id:session_id>/checks/", "GET"): Rule(Role.PLAYER),
    (f"{API}sessions/<id:session_id>/seat-links/", "POST"): Rule(Role.SCORER, lambda w, t: {"seat": 1}),
    (f"{API}sessions/<id:session_id>/seat-links/<id:link_id>/", "DELETE"): Rule(Role.SCORER, prepare=_a_seat_link),
    # a substitute mid-game (issue 37)
    (f"{API}sessions/<id:session_id>/substitutions/", "GET"): Rule(Role.PLAYER),
    (f"{API}sessions/<id:session_id>/substitutions/", "POST"): Rule(
        Role.SCORER, lambda w, t: {"seat": 1, "guest": f"Sub {uuid.uuid4().hex[:8]}"}
    ),
    (f"{API}seat/<key:key>/", "GET"): Rule("seat link"),
    (f"{API}seat/<key:key>/hands/<id:number>/confirm/", "POST"): Rule("seat link", lambda w, t: {}),
    (f"{API}seat/<key:key>/hands/<id:number>/dispute/", "POST"): Rule("seat link", lambda w, t: _reason()),
    (f"{API}clubs/<id:club_id>/board-links/", "POST"): Rule(Role.ADMIN, lambda w, t: {"name": "matrix"}),
    (f"{API}clubs/<id:club_id>/board-links/<id:link_id>/", "DELETE"): Rule(Role.ADMIN, prepare=_a_board_link),
    # the club night (issue 37)
    (f"{API}clubs/<id:club_id>/nights/", "GET"): Rule(Role.PLAYER),
    (f"{API}clubs/<id:club_id>/nights/", "POST"): Rule(Role.TREASURER, lambda w, t: {}),
    (f"{API}nights/<id:night_id>/", "GET"): Rule(Role.TREASURER, prepare=_a_night),
    (f"{API}nights/<id:night_id>/check-ins/", "POST"): Rule(Role.PLAYER, _own_check_in, prepare=_a_night),
    (f"{API}nights/<id:night_id>/draw/", "POST"): Rule(
        Role.TREASURER, lambda w, t: {"variant": "american"}, prepare=_a_night
    ),
    (f"{API}nights/<id:night_id>/settlement/", "GET"): Rule(Role.TREASURER, prepare=_a_night),
    (f"{API}nights/<id:night_id>/tables/<id:number>/cut-in/", "GET"): Rule(Role.TREASURER, prepare=_a_night),
    (f"{API}nights/<id:night_id>/tables/<id:number>/cut-in/", "POST"): Rule(
        Role.TREASURER, lambda w, t: {"game": 1}, prepare=_a_night
    ),
    (f"{API}settle/", "POST"): Rule("public", lambda w, t: _sheet(["Ann", "Ben", "Cleo", "Dan"])),
    (f"{API}variants/", "GET"): Rule("public"),
    (f"{API}variants/<str:name>/", "GET"): Rule("public"),
    ("/api/schema/", "GET"): Rule("public"),
    ("/api/docs/", "GET"): Rule("public"),
    ("/api/", "GET"): Rule("nobody"),  # the JSON 404 of every unknown path under /api/
    # the pages (docs/web.md)
    ("/health/", "GET"): Rule("public", also=frozenset({"503"})),  # 503 while no Celery worker beats (REDIS_URL set)
    ("/favicon.ico", "GET"): Rule("public"),
    ("/admin/login/", "GET"): Rule("public"),
    ("/admin/login/", "POST"): Rule("public", lambda w, t: {"username": "visitor", "password": "wrong"}),
    ("/i18n/setlang/", "POST"): Rule("public", lambda w, t: {"language": "en", "next": "/"}),
    ("/jsi18n/", "GET"): Rule("public"),
    ("/", "GET"): Rule("user"),
    ("/clubs/<int:club_id>/", "GET"): Rule(Role.PLAYER),
    # a club's time zone (issue 26): any user makes a club (and is its admin); its admin sets the zone
    ("/clubs/new/", "GET"): Rule("user"),
    ("/clubs/new/", "POST"): Rule("user", lambda w, t: {"name": "Matrix Club", "time_zone": "Europe/Paris"}),
    ("/clubs/<int:club_id>/time-zone/", "POST"): Rule(Role.ADMIN, lambda w, t: {"time_zone": "Europe/Paris"}),
    ("/clubs/<int:club_id>/payment/", "POST"): Rule(
        Role.TREASURER, lambda w, t: {"iban": "FR7630006000011234567890189"}
    ),
    ("/clubs/<int:club_id>/players/new/", "POST"): Rule(Role.SCORER, _name),
    ("/clubs/<int:club_id>/sessions/new/", "GET"): Rule(Role.SCORER),
    ("/clubs/<int:club_id>/sessions/new/", "POST"): Rule(Role.SCORER, lambda w, t: {}),
    # presets (issue 42): treasurers keep them, scorers open a table from one
    ("/clubs/<int:club_id>/presets/", "GET"): Rule(Role.TREASURER),
    ("/clubs/<int:club_id>/presets/new/", "GET"): Rule(Role.TREASURER),
    ("/clubs/<int:club_id>/presets/new/", "POST"): Rule(Role.TREASURER, lambda w, t: {}),
    ("/clubs/<int:club_id>/presets/<int:preset_id>/", "GET"): Rule(Role.TREASURER),
    ("/clubs/<int:club_id>/presets/<int:preset_id>/", "POST"): Rule(Role.TREASURER, lambda w, t: {}),
    ("/clubs/<int:club_id>/presets/<int:preset_id>/open/", "GET"): Rule(Role.SCORER),
    ("/clubs/<int:club_id>/presets/<int:preset_id>/open/", "POST"): Rule(Role.SCORER, lambda w, t: {}),
    ("/sessions/<int:session_id>/conditions/", "GET"): Rule(Role.PLAYER),
    ("/sessions/<int:session_id>/", "GET"): Rule(Role.PLAYER),
    ("/sessions/<int:session_id>/score/", "GET"): Rule(Role.PLAYER),
    ("/sessions/<int:session_id>/sheet/", "GET"): Rule(Role.PLAYER),
    ("/sessions/<int:session_id>/sheet/rows/", "GET"): Rule(Role.PLAYER),
    ("/sessions/<int:session_id>/settlement/", "GET"): Rule(Role.PLAYER),
    ("/sessions/<int:session_id>/settlement/", "POST"): Rule(Role.TREASURER, lambda w, t: {}),
    ("/sessions/<int:session_id>/substitute/", "GET"): Rule(Role.SCORER),
    ("/sessions/<int:session_id>/substitute/", "POST"): Rule(
        Role.SCORER, lambda w, t: {"seat": "1", "guest": f"Sub {uuid.uuid4().hex[:8]}"}
    ),
    ("/players/<int:player_id>/", "GET"): Rule(Role.PLAYER),
    ("/players/<int:player_id>/statement/", "GET"): Rule("self or treasurer"),
    ("/clubs/<int:club_id>/books/", "GET"): Rule(Role.TREASURER),
    ("/clubs/<int:club_id>/books/", "POST"): Rule(Role.TREASURER, lambda w, t: {}),
    ("/clubs/<int:club_id>/books.csv", "GET"): Rule(Role.TREASURER),  # main's, undeclared when issue 37 rebased
    ("/clubs/<int:club_id>/import/", "GET"): Rule(Role.TREASURER),
    ("/sessions/<int:session_id>/export.json", "GET"): Rule(Role.PLAYER),
    ("/sessions/<int:session_id>/export.csv", "GET"): Rule(Role.PLAYER),
    ("/players/<int:player_id>/statement.csv", "GET"): Rule("self or treasurer"),
    # the printed sheets and the evening's mail (issue 41): the opt-out link's key is its own caller, and
    # a key that is no signed player's id answers 404 to anyone
    ("/sessions/<int:session_id>/sheet.pdf", "GET"): Rule(Role.PLAYER),
    ("/sessions/<int:session_id>/settlement.pdf", "GET"): Rule(Role.PLAYER),
    ("/players/<int:player_id>/statement.pdf", "GET"): Rule("self or treasurer"),
    ("/players/<int:player_id>/mail/", "POST"): Rule(
        "self or treasurer", lambda w, t: {"email": "matrix@example.org", "language": "fr"}
    ),
    ("/mail/stop/<str:token>/", "GET"): Rule("nobody"),
    ("/mail/stop/<str:token>/", "POST"): Rule("nobody"),
    # the whole table (issue 25); its streams answer 404, not the login, to whoever may not read them
    ("/sessions/<int:session_id>/follow/", "GET"): Rule(Role.PLAYER),
    ("/sessions/<int:session_id>/follow/rows/", "GET"): Rule(Role.PLAYER),
    ("/sessions/<int:session_id>/join/", "GET"): Rule(Role.PLAYER),
    ("/sessions/<int:session_id>/join/", "POST"): Rule(Role.SCORER, lambda w, t: {"action": "issue", "seat": "1"}),
    ("/sessions/<int:session_id>/disputes/", "POST"): Rule(Role.TREASURER, _settle_form, prepare=_a_dispute),
    ("/t/<int:session_id>/", "GET"): Rule(Role.PLAYER),
    ("/s/<str:key>/", "GET"): Rule("seat link"),
    ("/s/<str:key>/rows/", "GET"): Rule("seat link"),
    ("/clubs/<int:club_id>/board/", "GET"): Rule(Role.PLAYER),
    ("/clubs/<int:club_id>/board/tables/", "GET"): Rule(Role.PLAYER),
    ("/clubs/<int:club_id>/board/links/", "GET"): Rule(Role.ADMIN),
    ("/clubs/<int:club_id>/board/links/", "POST"): Rule(Role.ADMIN, lambda w, t: {"label": "matrix"}),
    ("/b/<str:key>/", "GET"): Rule("board link"),
    ("/b/<str:key>/tables/", "GET"): Rule("board link"),
    ("/live/sessions/<int:session_id>/", "GET"): Rule(Role.PLAYER, anonymous=R404),
    ("/live/seat/<str:key>/", "GET"): Rule("seat link"),
    ("/live/clubs/<int:club_id>/", "GET"): Rule(Role.PLAYER, anonymous=R404),
    ("/live/board/<str:key>/", "GET"): Rule("board link"),
    # the club night (issue 37)
    ("/clubs/<int:club_id>/nights/", "POST"): Rule(Role.TREASURER, lambda w, t: {}),
    ("/clubs/<int:club_id>/nights/<int:night_id>/", "GET"): Rule(Role.PLAYER, prepare=_a_night),
    ("/clubs/<int:club_id>/nights/<int:night_id>/check-in/", "POST"): Rule(
        Role.PLAYER, _own_check_in, prepare=_a_night
    ),
    ("/clubs/<int:club_id>/nights/<int:night_id>/draw/", "POST"): Rule(
        Role.TREASURER, lambda w, t: {"variant": "american"}, prepare=_a_night
    ),
    ("/clubs/<int:club_id>/nights/<int:night_id>/settlement/", "GET"): Rule(Role.TREASURER, prepare=_a_night),
    ("/clubs/<int:club_id>/nights/<int:night_id>/tables/<int:number>/cut-in/", "POST"): Rule(
        Role.TREASURER, lambda w, t: {"game": "1"}, prepare=_a_night
    ),
    # seasons (issue 41); the calendar of club nights: any member makes his link, the link reads the feed
    ("/clubs/<int:club_id>/seasons/", "GET"): Rule(Role.PLAYER),
    ("/clubs/<int:club_id>/seasons/", "POST"): Rule(Role.TREASURER, _season_form),
    ("/clubs/<int:club_id>/seasons/<int:season_id>/", "GET"): Rule(Role.PLAYER),
    ("/clubs/<int:club_id>/seasons/<int:season_id>/", "POST"): Rule(Role.TREASURER, lambda w, t: {"action": "store"}),
    ("/clubs/<int:club_id>/calendar/", "POST"): Rule(Role.PLAYER, lambda w, t: {}),
    ("/calendar/<str:key>.ics", "GET"): Rule("calendar link"),
    ("/rules/", "GET"): Rule("public"),
    ("/sw.js", "GET"): Rule("public"),
    ("/rules/<slug:variant>/", "GET"): Rule("public"),
    ("/login/", "GET"): Rule("public"),
    ("/login/", "POST"): Rule("public", lambda w, t: {"username": "visitor", "password": "wrong"}),
    ("/logout/", "POST"): Rule("public"),
}
ADMIN_RULE = Rule("staff")  # the admin site's patterns: GET, but for these
ADMIN_OWN = {("/admin/login/", "GET"): Rule("public"), ("/admin/logout/", "POST"): Rule("public")}


def patterns() -> Iterator[tuple[str, URLPattern, str | None]]:
    """Every URL pattern as (route, pattern, namespace), routes joined from the root."""

    def walk(resolver: URLResolver, prefix: str, namespace: str | None) -> Iterator[tuple[str, URLPattern, str | None]]:
        for p in resolver.url_patterns:
            if isinstance(p, URLResolver):
                yield from walk(p, prefix + str(p.pattern), p.namespace or namespace)
            else:
                yield prefix + str(p.pattern), p, namespace

    yield from walk(get_resolver(), "/", None)


def api_methods(pattern: URLPattern) -> set[str] | None:
    """An API view's own methods (a Route's operations, an APIView's handlers); None for other views."""
    view = getattr(pattern.callback, "cls", None) or getattr(pattern.callback, "view_class", None)
    if view is None or not issubclass(view, APIView) or not view.__module__.startswith("api."):
        return None
    if issubclass(view, Route):
        return {m.upper() for m in view.operations}
    return {m.upper() for m in ("get", "post", "put", "patch", "delete") if hasattr(view, m)}


def cells() -> tuple[list[tuple[str, str, Rule]], list[str]]:
    """The (route, method, rule) of every pattern, and what the policy lacks or has too much of."""
    out, problems, seen = [], [], set()
    for route, pattern, namespace in patterns():
        if namespace == "admin":
            method = "POST" if (route, "POST") in ADMIN_OWN else "GET"
            out.append((route, method, ADMIN_OWN.get((route, method), ADMIN_RULE)))
            continue
        declared = {m for r, m in POLICY if r == route}
        derived = api_methods(pattern)
        if not declared:
            problems.append(f"{route}: not in the policy (declare who may use it)")
        elif derived is not None and derived != declared:
            problems.append(f"{route}: the view has {sorted(derived)}, the policy declares {sorted(declared)}")
        for method in sorted(declared):
            if (route, method) not in seen:
                seen.add((route, method))
                out.append((route, method, POLICY[route, method]))
    problems += [f"{r} {m}: declared, but no URL pattern has it" for r, m in POLICY if (r, m) not in seen]
    return out, problems


VALUES = {
    "token": "no-such-link",
    "number": "1",
    "name": "american",
    "variant": "american",
    "object_id": "1",
    "content_type_id": "1",
    "id": "1",
}


def path_for(route: str, target: Target, extra: dict[str, str] | None = None) -> str:
    values = {
        **VALUES,
        "club_id": str(target.club.pk),
        "session_id": str(target.session.pk),
        "player_id": str(target.player.pk),
        "token_id": str(target.token_id),
        "preset_id": str(target.preset_id),
        "season_id": str(target.season_id),
        "app_label": "auth",
        "url": "nothing/",
        "seat": "1",
        **(extra or {}),
    }
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: values[m[1]], route)  # a regex pattern's groups
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m[1]], path)
    return path.replace("^", "").replace("$", "")


def expected(caller: Caller, target: Target, rule: Rule, api: bool) -> set[str]:
    """The answers the policy allows this cell (one, but for staff in the admin, whose requests here
    may name nothing: 403 for the autocomplete's missing parameters, 404 for object 1)."""
    if rule.who == "staff":
        return {OK, R403, R404} if caller.user is not None and caller.user.is_staff else {ADMIN_LOGIN}
    return {_expected(caller, target, rule, api), *rule.also}


def _expected(caller: Caller, target: Target, rule: Rule, api: bool) -> str:
    if rule.who == "nobody":
        return R404
    if rule.who == "public":
        return OK
    if caller.user is None:
        return rule.anonymous or (R401 if api else LOGIN)
    if rule.who == "user":
        return OK
    if rule.who == "owner":
        return OK if caller.user == target.owner else R404
    role = caller.clubs.get(target.club.pk)
    if role is None:
        return R404
    if rule.who == "seated":
        return OK if target.player.user_id == caller.user.pk else R403
    if rule.who == "self or treasurer":
        return OK if target.player.user_id == caller.user.pk or Role.rank(role) >= Role.rank(Role.TREASURER) else R403
    return OK if Role.rank(role) >= Role.rank(rule.who) else R403


def answer(response: Any, api: bool) -> str:
    status = response.status_code
    if api and status in (401, 403, 404):
        code = response.json()["error"]["code"]
        wanted = {401: "not_authenticated", 403: "permission_denied", 404: "not_found"}[status]
        return str(status) if code == wanted else f"{status} {code}"
    if status in (302, 303):
        location = response["Location"]
        if location.startswith("/login/"):
            return LOGIN
        if location.startswith("/admin/login/"):
            return ADMIN_LOGIN
        return OK
    if status in (403, 404):
        return str(status)
    if 200 <= status < 300 or status in REQUEST_REFUSED:
        return OK
    return f"{status}"


@pytest.fixture
def world(settings: Any) -> World:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {k: "100000/min" for k in ("user", "anon", "login", "login_username")},
    }
    make_user("visitor")
    callers = [Caller("anonymous", None, {}), Caller("a superuser of no club", make_user("root", superuser=True), {})]
    targets = []
    for letter in "AB":
        users = {role: make_user(f"{letter.lower()}-{role}") for role in ROLES}
        club = club_create(actor=users[Role.ADMIN], name=f"Club {letter}")
        for role in ROLES[:-1]:
            membership_set(actor=users[Role.ADMIN], club_id=club.pk, user=users[role], role=role)
        admin = users[Role.ADMIN]
        players = [
            player_create(actor=admin, club_id=club.pk, name="Ann", user=users[Role.PLAYER]),
            *(player_create(actor=admin, club_id=club.pk, name=n) for n in ("Ben", "Cleo", "Dan")),
        ]
        session = open_session(admin, club, players)
        record_all(admin, session, AMERICAN_HANDS[:2])
        _, token = token_issue(user=admin, device="target")
        links = {}
        for kind in ("seat link", "revoked seat link"):  # seat 0: Ann's, as the matrix's seated player
            links[kind], seat_link = seat_link_issue(actor=admin, session_id=session.pk, seat=0)
        seat_link_revoke(actor=admin, session_id=session.pk, link_id=seat_link.pk)
        for kind in ("board link", "revoked board link"):
            links[kind], board_link = board_link_issue(actor=admin, club_id=club.pk)
        board_link_revoke(actor=admin, club_id=club.pk, link_id=board_link.pk)
        # the calendar feed (issue 41): the player's live link; the admin's, revoked
        links["revoked calendar link"], _ = calendar.calendar_feed_issue(actor=admin, club_id=club.pk)
        calendar.calendar_feed_revoke(actor=admin, club_id=club.pk)
        links["calendar link"], _ = calendar.calendar_feed_issue(actor=users[Role.PLAYER], club_id=club.pk)
        links["no link"] = "x" * 24
        preset = preset_create(actor=admin, club_id=club.pk, name="House", variant="american", rules={})
        season = seasons.season_create(
            actor=admin, club_id=club.pk, name="Always", **SEASON_DAYS, variants=["american"]
        )
        targets.append(Target(club, session, players[0], players, token.pk, admin, links, preset.pk, season.pk))
        callers += [Caller(f"{role} of club {letter}", users[role], {club.pk: role}) for role in ROLES]
    return World(targets, callers, iter(range(10**6)))


def send(
    world: World, caller: Caller, target: Target, route: str, method: str, rule: Rule, key: str | None = None
) -> Any:
    extra = rule.prepare(world, target) if rule.prepare else {}
    path = path_for(route, target, {**extra, "key": key} if key else extra)
    body = rule.body(world, target) if rule.body else None
    if path.startswith("/api/"):
        client = APIClient()
        if caller.user is not None:  # a fresh token: a logout cell revokes the one it sends
            key, _ = token_issue(user=caller.user, device=f"matrix-{next(world.serial)}")
            client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        if rule.who == "owner":  # the target token again, for each cell (its owner's cell revokes it)
            _, token = token_issue(user=target.owner, device=f"target-{next(world.serial)}")
            target.token_id = token.pk
            path = path_for(route, target)
        data = None if body is None else json.dumps(body)
        return client.generic(
            method, path, data or "", content_type="application/json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
        )
    browser = Client()
    if caller.user is not None:
        browser.force_login(caller.user)
    if method == "GET":
        return browser.get(path)
    if method != "POST":
        return browser.generic(method, path)
    return browser.post(path, body or {})


def test_the_policy_declares_every_url_pattern_and_only_those() -> None:
    _, problems = cells()
    assert problems == []


def test_a_new_page_fails_the_matrix_until_the_policy_declares_it(settings: Any) -> None:
    from clubscore import urls as root

    grown = types.ModuleType("grown_urls")
    grown.urlpatterns = [*root.urlpatterns, path("new-page/", lambda request: HttpResponse("hello"))]  # type: ignore[attr-defined]
    settings.ROOT_URLCONF = grown
    _, problems = cells()
    assert problems == ["/new-page/: not in the policy (declare who may use it)"]


# The matrix runs in PARTS tests, each a share of the routes (every PARTS-th one, so the pages that
# render much and the API's quick refusals mix), so that CI's two xdist workers share its 2,880 requests
# (one test of 150 s kept one worker busy while the other idled at the end of step 1). Each part builds
# its own world (a second or so); together they are the whole matrix, which the test below counts.
PARTS = 12
CALLERS = 10  # anonymous, a superuser of no club, and the four roles of each of the two clubs (`world`)


def matrix_cells(table: list[tuple[str, str, Rule]]) -> int:
    """How many requests the matrix sends: every caller, for each club's objects where the club matters."""
    return sum(
        CALLERS * (1 if rule.who in ("staff", "public", "nobody") else 2)
        for _, _, rule in table
        if rule.who not in LINKS
    )


def test_the_matrix_parts_together_send_every_cell(world: World) -> None:
    table, _ = cells()
    assert len(world.callers) == CALLERS and len(world.targets) == 2
    assert matrix_cells(table) >= 1000  # every pattern x 10 callers (x 2 clubs where the club matters)


@pytest.mark.parametrize("part", range(PARTS))
def test_every_cell_of_the_matrix_answers_as_the_policy_says(world: World, part: int) -> None:
    table, _ = cells()
    wrong = []
    count = 0
    for route, method, rule in table[part::PARTS]:
        if rule.who in LINKS:
            continue
        clubless = rule.who in ("staff", "public", "nobody")  # the same answer for either club's objects
        for target in world.targets[:1] if clubless else world.targets:
            for caller in world.callers:
                api = route.startswith("/api/")
                want = expected(caller, target, rule, api)
                response = send(world, caller, target, route, method, rule)
                got = answer(response, api)
                count += 1
                cell = f"{method} {route} by {caller.name} on {target.club.name}"
                if got not in want:
                    wrong.append(f"{cell}: {got}, not {' or '.join(sorted(want))}")
                if "'unsafe-inline'" in response.get(CSP, "'unsafe-inline'"):  # issue 29, point 9: every answer
                    wrong.append(f"{cell}: no strict {CSP} ({response.get(CSP)!r})")
    assert not wrong, f"{len(wrong)} of {count} cells:\n" + "\n".join(wrong)
    assert count == matrix_cells(table[part::PARTS]) > 0


CSP = "Content-Security-Policy"
TABLE_PAGES = ("ledger.web.table", "ledger.web.live")  # the whole table's pages and streams (issue 25)


def test_the_tables_pages_answer_405_to_a_method_they_do_not_declare(world: World) -> None:
    """Following a table, joining it, the board and their streams: a method the policy does not declare
    answers 405 (not 404, not the login), whoever asks, with the methods it takes in `Allow`."""
    table, _ = cells()
    declared = {(r, m) for r, m, _ in table}
    wrong, count = [], 0
    for route, pattern, _ in patterns():
        if pattern.callback.__module__ not in TABLE_PAGES:
            continue
        rule = next(rule for r, _, rule in table if r == route)
        allowed = {m for r, m in declared if r == route}
        for method in METHODS:
            if (route, method) in declared:
                continue
            target = world.targets[0]
            key = target.links.get(rule.who, "x" * 24)
            for caller in (world.callers[0], world.callers[2]):  # anonymous, club A's player
                response = send(world, caller, target, route, method, Rule("nobody"), key)
                count += 1
                if response.status_code != 405 or not allowed <= set(response.get("Allow", "").split(", ")):
                    wrong.append(f"{method} {route} by {caller.name}: {response.status_code} {response.get('Allow')}")
    assert not wrong, f"{len(wrong)} of {count} cells:\n" + "\n".join(wrong)
    assert count >= 60


LINKS = ("seat link", "board link", "calendar link")
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


@pytest.mark.parametrize("method", METHODS)  # one test per method: CI's two workers share them (as PARTS)
def test_a_link_opens_its_own_kind_of_path_only_and_nothing_else(world: World, method: str) -> None:
    """Seat, board and calendar links are callers of their own: the key in the path. A seat link reads its
    session and confirms or disputes for its seat (seat 0 here: the key names the seat, no path can name
    another); a board link reads its club's board; a member's calendar link (issue 41) reads his club's
    nights, and that club's only (the feed names it, and not the other). Through any link, another kind's
    path, a revoked link, a key that is no link, or a method the path does not declare (a write through a
    board or a calendar link, anything but a confirm or a dispute through a seat link) answers 404,
    whoever asks. A page's undeclared method may answer 405 instead (Django's `require_GET`), but the
    same 405 for every key: it is answered before the key is read, so it says nothing of any link."""
    table, _ = cells()
    declared = {(r, m) for r, m, _ in table}
    wrong, count = [], 0
    for route in sorted({r for r, _, rule in table if rule.who in LINKS}):
        rule = POLICY.get((route, method), Rule("nobody"))
        for target in world.targets:
            for kind, key in target.links.items():
                for caller in (world.callers[0], world.callers[-1]):  # anonymous, and a member of club B
                    want = {OK} if (route, method) in declared and kind == rule.who else {R404}
                    api = route.startswith("/api/")
                    if not api and (route, method) not in declared:
                        want = {"405"}
                    response = send(world, caller, target, route, method, rule, key)
                    got = answer(response, api)
                    count += 1
                    if got == OK and kind == "calendar link":  # its own club's feed, not the other's
                        text = response.content.decode()
                        others = [t.club.name for t in world.targets if t is not target]
                        if target.club.name not in text or any(name in text for name in others):
                            got = "another club's feed"
                    if got not in want:
                        cell = f"{method} {route} through {target.club.name}'s {kind} by {caller.name}"
                        wrong.append(f"{cell}: {got}, not {' or '.join(want)}")
    assert not wrong, f"{len(wrong)} of {count} cells:\n" + "\n".join(wrong)
    assert count >= 180  # the link routes x 2 clubs x 8 keys x 2 callers: 900 and more over the five methods
