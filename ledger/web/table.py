"""The whole table's pages (issue 25): following a table (a member, or a seat link), joining it (the QR
code, the short link, seat links), the room board (a member, or a board link), the treasurer's disputes.

Each page is rendered by the server and kept live by `static/clubscore/live.js`: the live channel
(`ledger/web/live.py`) brings each change with the page's fragment of it (rendered from the change's
data by `follow_deals`/`follow_state` and `board_table`, the same code as the reads here), which the page
applies; a page that missed a change reads its fragment with `If-None-Match` (a 304 when nothing
changed: the fallback poll and the catch-up after a reconnect).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import Any

import segno
from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ledger import nights, selectors
from ledger.engine.room import game_break
from ledger.engine.variants import get_variant
from ledger.exceptions import LedgerError, NotFound, PermissionDenied
from ledger.live import live_tag
from ledger.models import DealCheck, Role, SeatLink, Session
from ledger.services.table import board_link_issue, board_link_revoke, seat_link_issue, seat_link_revoke
from ledger.services.table import dispute_settle as settle  # the view below has the service's name

from . import catalog, deal_notes, reads
from .presets import session_conditions
from .views import AuthedRequest, _may, page, refusal_text
from .zones import use_club_zone

# --- what a follower sees --------------------------------------------------------------------------


def session_tag(session: Session) -> str:
    return live_tag(session.version, session.checks_version)


def heartbeat_ms() -> int:
    """The live streams' heartbeat period, for the page's watchdog (static/clubscore/live.js)."""
    return round(settings.LIVE_HEARTBEAT_SECONDS * 1000)


def _not_modified(request: HttpRequest, tag: str) -> bool:
    return request.headers.get("If-None-Match", "").strip() == f'"{tag}"'


def _tagged(response: HttpResponse, tag: str) -> HttpResponse:
    response["ETag"] = f'"{tag}"'
    response["Cache-Control"] = "no-cache"
    return response


def follow_context(session: Session, my_seat: int | None) -> dict[str, Any]:
    """The live sheet of one table: the state now, and every deal in words with each seat's word on it."""
    players = selectors.seated_now(session=session)  # who holds each seat now (issue 37: substitutes)
    names = [p.name for p in players]
    hands = list(selectors.hand_list(session=session))
    settlement = {"hands": [h.settled for h in hands]}
    rows = reads.sheet_rows(session=session, names=names, settlement=settlement, raws={h.number: h.raw for h in hands})
    checks: dict[int, dict[int, Any]] = {}
    for check in selectors.deal_checks(session=session):
        checks.setdefault(check.number, {})[check.seat] = check
    return follow_state(session, names, follow_deals(session, rows, checks, names, my_seat), my_seat)


def follow_deals(
    session: Session,
    rows: list[reads.SheetRow],
    checks: dict[int, dict[int, Any]],
    names: list[str],
    my_seat: int | None,
) -> list[dict[str, Any]]:
    """Each deal of `rows` (every deal, or those a live change carries), the last first, with each
    seat's word on it (a `DealCheck`, or a live change's dict of its state, reason and outcome)."""
    deals = []
    lapse = deal_notes.claims_lapse(session.rules)
    last = session.hands_count  # the session's last deal, whichever rows are shown
    for row in reversed(rows):
        said = checks.get(row.number, {})
        seats = [
            {"seat": s, "name": names[s], "check": said.get(s), "mine": s == my_seat, "delta": row.deltas[s]}
            for s in range(4)
        ]
        disputed = any(_said(c, "state") == DealCheck.State.DISPUTED and not _said(c, "outcome") for c in said.values())
        deals.append(
            {
                "row": row,
                "seats": seats,
                "mine": said.get(my_seat) if my_seat is not None else None,
                "disputed": disputed,
                # Claims lapse (002:189): a deal stands once the next is recorded; said before anyone asks.
                "lapsed": lapse and row.number < last,
                "claim": (
                    deal_notes.lapsed_words(row.number)
                    if row.number < last
                    else deal_notes.open_claim_words(row.number)
                )
                if lapse and session.status == Session.Status.OPEN
                else "",
            }
        )
    return deals


def _said(check: Any, name: str) -> Any:
    return check[name] if isinstance(check, dict) else getattr(check, name)


def follow_state(
    session: Session, names: list[str], deals: list[dict[str, Any]], my_seat: int | None
) -> dict[str, Any]:
    """The follow fragment's context: the table now and `deals`."""
    next_deal = session.next_deal
    close = session.closing if session.status == Session.Status.CLOSED else None
    return {
        "session": session,
        "tag": session_tag(session),
        "names": names,
        "balances": [{"name": n, "balance": b} for n, b in zip(names, session.balances, strict=True)],
        "close": close,
        "result": closed_result(close, names) if close else [],
        "payments": reads.payments(close=close, names=close_names(close, names)) if close else [],
        "pools": session.pools,
        "pool_label": catalog.pool_label(session.variant),
        "next_dealer": names[next_deal["dealer"]] if next_deal else None,
        "next_number": next_deal["number"] if next_deal else None,
        "next_game_deal": next_deal.get("deal") if next_deal else None,  # where a misdeal made it differ
        "next_double": bool(next_deal and next_deal.get("double")),
        "deals": deals,
        "my_seat": my_seat,
        "my_name": names[my_seat] if my_seat is not None else None,
        "is_open": session.status == Session.Status.OPEN,
        "variant_title": catalog.variant_title(session.variant),
    }


def closed_result(close: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """Each seat's result as the close gives it (issue 38, item 9): the counters once the pools are
    divided, and the money at the stake, not the counters the last deal left."""
    if "stints" in close:  # a seat changed hands (issue 37): each player-stint's own
        return [{"name": s["player"], "final": s["final"], "money": s.get("money")} for s in close["stints"]]
    return [
        {"name": name, "final": close["final"][i], "money": close["money"][i] if "money" in close else None}
        for i, name in enumerate(names)
    ]


def close_names(close: dict[str, Any], names: list[str]) -> list[str]:
    """The names of the close's parties as its payments index them: the stints' when a seat changed hands."""
    return [s["player"] for s in close["stints"]] if "stints" in close else names


def _follow_page(
    request: HttpRequest,
    session: Session,
    my_seat: int | None,
    urls: dict[str, str],
    shared: bool = False,
    conditions_url: str = "",
) -> HttpResponse:
    """`conditions_url`: the printable conditions, for a member (a seat link has no login to read it)."""
    context = follow_context(session, my_seat)
    context["shared"] = shared
    context["conditions_url"] = conditions_url
    context["config"] = {"tag": context["tag"], "seat": my_seat, "heartbeat": heartbeat_ms(), **urls}
    context["conditions"] = session_conditions(session)  # open before deal 1, a tap away after it
    return render(request, "web/follow.html", context)


def _rows(request: HttpRequest, session: Session, my_seat: int | None) -> HttpResponse:
    tag = session_tag(session)
    if _not_modified(request, tag):
        return _tagged(HttpResponseNotModified(), tag)
    return _tagged(render(request, "web/_follow_rows.html", follow_context(session, my_seat)), tag)


@require_GET
@page
def follow(request: AuthedRequest, session_id: int) -> HttpResponse:
    """A member follows a table; his own seat (if he sits at it) gets ✓ and "That's not right"."""
    found = selectors.session_get(user=request.user, session_id=session_id)
    seat = selectors.seat_of(session=found, user=request.user)
    api = f"/api/v1/sessions/{found.pk}/hands/"
    return _follow_page(
        request,
        found,
        seat,
        {
            "events": reverse("live-session", args=[found.pk]) + "?view=follow",
            "rows": reverse("web:follow-rows", args=[found.pk]),
            "confirm": api + "{n}/confirm/",
            "dispute": api + "{n}/dispute/",
        },
        conditions_url=reverse("web:conditions", args=[found.pk]),
    )


@require_GET
@page
def follow_rows(request: AuthedRequest, session_id: int) -> HttpResponse:
    found = selectors.session_get(user=request.user, session_id=session_id)
    return _rows(request, found, selectors.seat_of(session=found, user=request.user))


JOIN_SALT = "clubscore.table-join"


def join_signature(session_id: int) -> str:
    """The table QR code's proof that it was shown at the table: without it, `/t/<id>/` names nothing to
    a visitor with no login (table numbers are sequential, the players' names the club's)."""
    return salted_hmac(JOIN_SALT, str(session_id)).hexdigest()[:16]


def short_url(request: HttpRequest, session_id: int) -> str:
    path = reverse("web:short-link", args=[session_id])
    return request.build_absolute_uri(f"{path}?k={join_signature(session_id)}")


@require_GET
def short_link(request: HttpRequest, session_id: int) -> HttpResponse:
    """`/t/<id>/`, the short link the table's QR code says: a logged-in member follows the table; a player
    with no login, from the QR code, sees which table it is and how to follow it (issue 38, item 10): log
    in, or scan his seat's code on the scorer's phone. Anyone else is asked to log in, as before."""
    if request.user.is_authenticated:
        return _short_link_member(request, session_id)
    given = request.GET.get("k", "")
    if not given or not constant_time_compare(given, join_signature(session_id)):
        return redirect_to_login(request.get_full_path())
    found = Session.objects.select_related("club").filter(pk=session_id).first()
    if found is None:
        raise Http404("no such table")
    use_club_zone(request, session_id=found.pk)
    names = [p.name for p in selectors.session_players(session=found)]
    follow = reverse("web:short-link", args=[found.pk])
    return render(
        request,
        "web/join_table.html",
        {
            "session": found,
            "club": found.club,
            "names": names,
            "variant_title": catalog.variant_title(found.variant),
            "login_url": f"{reverse('login')}?next={follow}",
        },
    )


@page
def _short_link_member(request: AuthedRequest, session_id: int) -> HttpResponse:
    selectors.session_get(user=request.user, session_id=session_id)
    return redirect("web:follow", session_id=session_id)


def _seat_link(request: HttpRequest, key: str) -> SeatLink:
    """The live seat link of the key, its club's zone now the request's (its page's times are the club's)."""
    try:
        link = selectors.seat_link_get(key=key)
    except NotFound:
        raise Http404("no such link") from None
    use_club_zone(request, session_id=link.session_id)
    return link


@require_GET
def seat_follow(request: HttpRequest, key: str) -> HttpResponse:
    """`/s/<key>/`: a seat link's page, no login: its session only, ✓ and dispute for its seat only."""
    link = _seat_link(request, key)
    api = f"/api/v1/seat/{key}/hands/"
    phone = request.COOKIES.get(PHONE_COOKIE) or secrets.token_urlsafe(12)
    response = _follow_page(
        request,
        link.session,
        link.seat,
        {
            "events": reverse("live-seat", args=[key]),
            "rows": reverse("web:seat-rows", args=[key]),
            "confirm": api + "{n}/confirm/",
            "dispute": api + "{n}/dispute/",
        },
        shared=other_phones(link.pk, phone),
    )
    response.set_cookie(
        PHONE_COOKIE, phone, max_age=365 * 24 * 3600, secure=request.is_secure(), httponly=True, samesite="Lax"
    )
    return response


PHONE_COOKIE = "clubscore_phone"
PHONES_SEEN_SECONDS = 12 * 3600  # an evening: a phone that opened the link tonight still holds it


def other_phones(link_id: int, phone: str) -> bool:
    """Note this phone on the seat link and say whether another phone opened it this evening: both then
    act as the one seat, which the second phone is told (issue 38, item 10). In the cache: a phone is
    a random cookie, and forgetting one costs a missing notice, never a refusal."""
    cache_key = f"clubscore:seat-phones:{link_id}"
    now = time.time()
    seen = {p: t for p, t in (cache.get(cache_key) or {}).items() if now - t < PHONES_SEEN_SECONDS}
    others = any(p != phone for p in seen)
    seen[phone] = now
    cache.set(cache_key, seen, PHONES_SEEN_SECONDS)
    return others


@require_GET
def seat_rows(request: HttpRequest, key: str) -> HttpResponse:
    link = _seat_link(request, key)
    return _rows(request, link.session, link.seat)


# --- joining a table: the QR code, the short link, seat links ----------------------------------------


def qr_svg(url: str, title: str) -> str:
    """The URL as an inline SVG QR code (segno), dark on light whatever the page's colours."""
    svg = segno.make(url, error="m").svg_inline(scale=6, dark="#000", light="#fff", title=title)
    return mark_safe(svg)  # segno escapes the URL and the title in its own markup


@require_http_methods(["GET", "POST"])
@page
def join(request: AuthedRequest, session_id: int) -> HttpResponse:
    """What the scorer shows the table: a QR code and the short link to follow it; seat links for the
    players without a login (scorers issue and revoke them here)."""
    found = selectors.session_get(user=request.user, session_id=session_id)
    role = selectors.club_role(user=request.user, club_id=found.club_id)
    can_score = _may(role, Role.SCORER)
    names = [p.name for p in selectors.seated_now(session=found)]
    if request.method == "POST":
        if not can_score:  # a member who may not issue: 403, as every page (the matrix, issue 29)
            raise PermissionDenied()
        try:
            _join_action(request, found, names)
        except (ValueError, LedgerError) as exc:
            from django.contrib import messages

            messages.error(request, refusal_text(exc) if isinstance(exc, LedgerError) else gettext("Choose a seat."))
        return redirect(reverse("web:join", args=[found.pk]) + "#links-title")
    links = list(selectors.seat_links(user=request.user, session=found)) if can_score else []
    held = _held_keys(request, found.pk)
    codes = []
    for link in sorted(links, key=lambda link: link.seat):
        if str(link.pk) in held:
            url = request.build_absolute_uri(reverse("web:seat-follow", args=[held[str(link.pk)]]))
            title = gettext("Seat link for %(name)s") % {"name": names[link.seat]}
            codes.append({"link": link, "name": names[link.seat], "url": url, "qr": qr_svg(url, title)})
    short = short_url(request, found.pk)
    return render(
        request,
        "web/join.html",
        {
            "session": found,
            "club": found.club,
            "short": short,
            "qr": qr_svg(short, gettext("Follow this table")),
            "can_score": can_score,
            "seats": [{"seat": i, "name": n} for i, n in enumerate(names)],
            "links": [{"link": link, "name": names[link.seat], "shown": str(link.pk) in held} for link in links],
            "codes": codes,
            "variant_title": catalog.variant_title(found.variant),
            "conditions": session_conditions(found),
        },
    )


SEAT_KEYS = "clubscore_seat_keys"  # the scorer's login session: {session id: {link id: key}}


def _held_keys(request: HttpRequest, session_id: int) -> dict[str, str]:
    """The keys of the seat links this login issued for the session: a key is kept hashed in the
    database, so only the scorer's own session can show a code again (issue 38, item 10)."""
    return dict(request.session.get(SEAT_KEYS, {}).get(str(session_id), {}))


def _hold_key(request: HttpRequest, session_id: int, link_id: int, key: str) -> None:
    kept = dict(request.session.get(SEAT_KEYS, {}))
    kept[str(session_id)] = {**kept.get(str(session_id), {}), str(link_id): key}
    request.session[SEAT_KEYS] = kept


def _join_action(request: AuthedRequest, found: Session, names: list[str]) -> None:
    """Revoke a link; issue one seat's; or issue every seat's whose code this phone cannot show."""
    action = request.POST.get("action")
    if action == "revoke":
        seat_link_revoke(actor=request.user, session_id=found.pk, link_id=int(request.POST.get("link") or 0))
        return
    if action == "issue-all":
        held = _held_keys(request, found.pk)
        live = {link.seat for link in selectors.seat_links(user=request.user, session=found) if str(link.pk) in held}
        seats = [seat for seat in range(len(names)) if seat not in live]
    else:
        seats = [int(request.POST.get("seat") or -1)]
    for seat in seats:
        key, link = seat_link_issue(actor=request.user, session_id=found.pk, seat=seat)
        _hold_key(request, found.pk, link.pk, key)


# --- the room board ----------------------------------------------------------------------------------


def board_tag(sessions: list[Session]) -> str:
    """One tag for the board: every open table's live tag (a table opened or closed changes it too)."""
    text = ",".join(f"{s.pk}:{session_tag(s)}" for s in sessions)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _fit(names: list[str], balances: list[int]) -> int:
    """The longest seat line in characters (name, space, signed total), from 8 to 24: the board's class
    `fit-N` shrinks a table's names just enough to fit it whole (a class: the CSP allows no style="")."""
    longest = max(len(n) + 1 + len(f"{b:+,}") for n, b in zip(names, balances, strict=True))
    return min(24, max(8, longest))


def board_tables(sessions: list[Session]) -> list[dict[str, Any]]:
    tables = []
    for s in sessions:
        names = [p.name for p in selectors.seated_now(session=s)]  # who sits now (issue 37)
        variant = get_variant(s.variant)
        rules = variant.declaration.deals
        # The game's last deal from the variant's declaration: its limit, or a partie's last double (the
        # 40th in French and Russian, played on past it); None: a game with no end, counted only.
        deals = rules.last(variant.parse_options(s.rules or {}))
        if deals is None and rules.doubles is not None:
            deals = game_break(s.variant)
        # The game's deals, not the sheet's hands: a misdeal passes the deal but is no deal of the game.
        if s.next_deal:
            played = s.next_deal.get("deal", s.next_deal["number"]) - 1
        else:
            played = s.hands_count - (selectors.session_misdeals(session=s) if s.hands_count else 0)
        last = selectors.session_last_hand(session=s) if s.hands_count else None
        events = (
            deal_notes.deal_notes(
                variant=s.variant,
                rules=s.rules,
                first_dealer=s.first_dealer,
                raw=last.raw,
                settled=last.settled,
                names=names,
            )
            if last is not None
            else []
        )
        tables.append(
            {
                "session": s,
                "title": catalog.variant_short_title(s.variant),
                "seats": [{"name": n, "balance": b} for n, b in zip(names, s.balances, strict=True)],
                "fit": _fit(names, s.balances),
                "pools": s.pools,
                "pool_label": catalog.pool_label(s.variant),
                "hands": played,
                "last_number": last.number if last is not None else None,
                "last_events": [n.event for n in events],  # the last deal's table-law event, in words
                "of": deals,
                "next_dealer": names[s.next_deal["dealer"]] if s.next_deal else None,
                "disputes": getattr(s, "open_disputes", 0),
            }
        )
    return tables


def room_tag(club: Any) -> tuple[str, list[Session], nights.NightBoard | None]:
    """The board's tag (its open tables', and tonight's tables and waiting line once drawn), the open
    tables and tonight: what the board page shows and what its stream opens with."""
    sessions = selectors.board_sessions(club_id=club.pk)
    tonight = nights.night_board(club=club)
    tag = board_tag(sessions)
    if tonight is not None:
        tag = hashlib.sha256(f"{tag}|{tonight.tag}".encode()).hexdigest()[:16]
    return tag, sessions, tonight


def _board(request: HttpRequest, club: Any, urls: dict[str, str], fragment: bool) -> HttpResponse:
    tag, sessions, tonight = room_tag(club)
    if fragment and _not_modified(request, tag):
        return _tagged(HttpResponseNotModified(), tag)
    config = {"tag": tag, "heartbeat": heartbeat_ms(), **urls}
    tables = board_tables(sessions)
    if tonight is not None:  # tonight's tables first, by number, named by number and game
        for t in tables:
            t["night"] = tonight.games.get(t["session"].pk)
        tables.sort(key=lambda t: (t["night"] is None, t["night"] or (0, 0)))
    context = {"club": club, "tables": tables, "tag": tag, "config": config, "tonight": tonight}
    template = "web/_board_tables.html" if fragment else "web/board.html"
    return _tagged(render(request, template, context), tag)


@require_GET
@page
def club_board(request: AuthedRequest, club_id: int) -> HttpResponse:
    club = selectors.club_get(user=request.user, club_id=club_id)
    urls = {"events": reverse("live-club", args=[club_id]), "rows": reverse("web:club-board-tables", args=[club_id])}
    return _board(request, club, urls, fragment=False)


@require_GET
@page
def club_board_tables(request: AuthedRequest, club_id: int) -> HttpResponse:
    club = selectors.club_get(user=request.user, club_id=club_id)
    return _board(request, club, {}, fragment=True)


def _board_link(request: HttpRequest, key: str) -> Any:
    """The live board link of the key, its club's zone now the request's."""
    try:
        link = selectors.board_link_get(key=key)
    except NotFound:
        raise Http404("no such link") from None
    use_club_zone(request, club_id=link.club_id)
    return link


@require_GET
def board(request: HttpRequest, key: str) -> HttpResponse:
    """`/b/<key>/`: the room board through a board link, read-only, no login."""
    link = _board_link(request, key)
    urls = {"events": reverse("live-board", args=[key]), "rows": reverse("web:board-tables", args=[key])}
    return _board(request, link.club, urls, fragment=False)


@require_GET
def board_tables_view(request: HttpRequest, key: str) -> HttpResponse:
    return _board(request, _board_link(request, key).club, {}, fragment=True)


@require_http_methods(["GET", "POST"])
@page
def board_links(request: AuthedRequest, club_id: int) -> HttpResponse:
    """The admin's board links: issue one for the room's screen (its QR code and link shown once), revoke."""
    club = selectors.club_get(user=request.user, club_id=club_id, role=Role.ADMIN)
    issued = None
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            try:
                board_link_revoke(actor=request.user, club_id=club_id, link_id=int(request.POST.get("link") or 0))
            except (ValueError, NotFound):
                raise Http404("no such link") from None
        else:
            key, _ = board_link_issue(actor=request.user, club_id=club_id, label=request.POST.get("label", ""))
            url = request.build_absolute_uri(reverse("web:board", args=[key]))
            issued = {"url": url, "qr": qr_svg(url, gettext("Board link"))}
    links = list(selectors.board_links(user=request.user, club_id=club_id))
    return render(request, "web/board_links.html", {"club": club, "links": links, "issued": issued})


# --- the treasurer's disputes (the close page) ---------------------------------------------------------


@require_POST
@page
def dispute_settle(request: AuthedRequest, session_id: int) -> HttpResponse:
    from django.contrib import messages

    try:
        settle(
            actor=request.user,
            session_id=session_id,
            number=int(request.POST.get("number") or 0),
            seat=int(request.POST.get("seat") or 0),
            outcome=request.POST.get("outcome", ""),
            note=request.POST.get("note", ""),
        )
    except ValueError:
        raise Http404("no such dispute") from None
    except (NotFound, PermissionDenied):  # a member below treasurer: 403, not a message on the close page
        raise
    except LedgerError as exc:
        messages.error(request, refusal_text(exc))
    return redirect(reverse("web:settlement", args=[session_id]) + "#disputes")


# --- a table's conditions, printed --------------------------------------------------------------------


@require_GET
@page
def conditions_sheet(request: AuthedRequest, session_id: int) -> HttpResponse:
    """One printable page for the table: who sits where, who deals first, the stake and every house
    rule in words, and the code to follow the table."""
    found = selectors.session_get(user=request.user, session_id=session_id)
    players = selectors.session_players(session=found)
    short = request.build_absolute_uri(reverse("web:short-link", args=[found.pk]))
    return render(
        request,
        "web/conditions.html",
        {
            "session": found,
            "club": found.club,
            "names": [p.name for p in players],
            "first_dealer": players[found.first_dealer].name if players else "",
            "conditions": session_conditions(found),
            "qr": qr_svg(short, gettext("Follow this table")),
            "short": short,
            "can_score": _may(selectors.club_role(user=request.user, club_id=found.club_id), Role.SCORER),
        },
    )
