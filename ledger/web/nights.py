"""The club night's pages (issue 37): tonight opened from the club page, members checked in (a guest by
name), who is here, who plays and who waits, the tables drawn (each with its seat links, shown once) and
one settlement for the room. Thin: the writes are `ledger.nights`' and the money ledger's."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ledger import nights, selectors
from ledger.engine import EngineError
from ledger.exceptions import LedgerError, NotFound, PermissionDenied
from ledger.models import Night, Role
from ledger.money import POOL
from ledger.money import selectors as money_selectors

from . import catalog
from .forms import parse_stake_fields
from .table import qr_svg
from .views import AuthedRequest, _may, page, refusal_fields, refusal_text

SHOWN = {
    "player",
    "name",
    "method",
    "variant",
    "stake",
    "players",
    "preset",
    "table",
    "game",
}  # the fields the night's page shows errors beside


def _night(request: AuthedRequest, club_id: int, night_id: int, role: str = Role.PLAYER) -> Night:
    night = nights.night_get(user=request.user, night_id=night_id, role=role)
    if night.club_id != club_id:
        raise NotFound("no such night")
    return night


@page
@require_POST
def night_open(request: AuthedRequest, club_id: int) -> HttpResponse:
    """Tonight's night (the club's date), opened by the treasurer if it is not yet."""
    night, _opened = nights.night_open(actor=request.user, club_id=club_id)
    return redirect("web:night", club_id=club_id, night_id=night.pk)


def _render(
    request: AuthedRequest,
    night: Night,
    *,
    errors: dict[str, list[str]] | None = None,
    drawn: nights.DrawnLinks | None = None,
) -> HttpResponse:
    role = selectors.club_role(user=request.user, club_id=night.club_id)
    room = nights.night_room(night=night)
    here = {c.player_id for c in room.here}
    players = list(selectors.player_list(user=request.user, club_id=night.club_id))
    own = next((p for p in players if p.user_id == request.user.pk), None)
    links: dict[int, list[dict[str, Any]]] = {}
    if drawn is not None:
        for session_id, seats in drawn.links.items():
            links[session_id] = [
                {"seat": seat, "url": request.build_absolute_uri(reverse("web:seat-follow", args=[key]))}
                for seat, key, _link in seats
            ]
    can_run = _may(role, Role.TREASURER)
    cut = "lot" if request.GET.get("cut") == "lot" else "longest"
    tables = [
        {
            "number": table.number,
            "game": table.game,
            "session": table.session,
            "title": catalog.variant_short_title(table.session.variant),
            "players": seated,
            "dealer": seated[table.session.first_dealer].name,
            "links": [dict(link, name=seated[link["seat"]].name) for link in links.get(table.session.pk, [])],
            "earlier": [t for t, _players in room.tables if t.number == table.number and t.game < table.game],
            "cut": _proposal(night, table.number, cut) if can_run and room.waiting else None,
        }
        for table, seated in room.current
    ]
    response = render(
        request,
        "web/night.html",
        {
            "club": night.club,
            "night": night,
            "role": role,
            "room": room,
            "tables": tables,
            "own": own,
            "own_here": own is not None and own.pk in here,
            "absent": [p for p in players if p.pk not in here],
            "can_score": _may(role, Role.SCORER),
            "can_run": can_run,
            "cut_method": cut,
            "door": _door(request, night) if _may(role, Role.SCORER) else None,
            "errors": errors or {},
            "other_errors": [m for name, said in (errors or {}).items() if name not in SHOWN for m in said],
            "variants": catalog.variant_choices(),
            "presets": list(selectors.preset_list(user=request.user, club_id=night.club_id)),
            "typed": request.POST if errors else {},
        },
        status=400 if errors else 200,
    )
    response["Cache-Control"] = "no-store"  # seat links are shown once
    return response


def _proposal(night: Night, number: int, method: str) -> nights.CutProposal | None:
    """The table's cut-in proposal, None when there is none to make (no cut-in can be proposed)."""
    try:
        return nights.cut_in_proposal(night=night, number=number, method=method)
    except LedgerError:
        return None


def _door(request: AuthedRequest, night: Night) -> dict[str, str]:
    """The night's QR code for the door: the night's page, where a member checks himself in with one tap
    (a login first, which comes back to it)."""
    url = request.build_absolute_uri(reverse("web:night", args=[night.club_id, night.pk])) + "#check-in"
    return {"url": url, "qr": qr_svg(url, gettext("Check in at tonight's club night"))}


@page
def night(request: AuthedRequest, club_id: int, night_id: int) -> HttpResponse:
    return _render(request, _night(request, club_id, night_id))


@page
@require_POST
def night_check_in(request: AuthedRequest, club_id: int, night_id: int) -> HttpResponse:
    """Check a member in (himself, or anyone for a scorer), or add a guest by name and check him in."""
    found = _night(request, club_id, night_id)
    guest = request.POST.get("guest")
    try:
        if guest is not None:
            arrival = nights.guest_check_in(actor=request.user, night_id=found.pk, name=guest)
        else:
            player = request.POST.get("player", "")
            player_id = int(player) if player.isdigit() else None
            arrival = nights.check_in(actor=request.user, night_id=found.pk, player_id=player_id)
    except (NotFound, PermissionDenied):
        raise
    except LedgerError as exc:
        return _render(request, found, errors=refusal_fields(exc))
    messages.success(
        request,
        gettext("%(name)s is checked in (arrival %(n)d).") % {"name": arrival.player.name, "n": arrival.arrival},
    )
    return redirect("web:night", club_id=club_id, night_id=found.pk)


@page
@require_POST
def night_draw(request: AuthedRequest, club_id: int, night_id: int) -> HttpResponse:
    """Draw the tables (the treasurer): the page that answers shows each table's seat links, once."""
    found = _night(request, club_id, night_id, Role.TREASURER)
    preset = request.POST.get("preset", "")
    try:
        stake = None if preset else parse_stake_fields(request.POST)
    except ValueError as exc:
        return _render(request, found, errors={"stake": [str(exc)]})
    try:
        drawn = nights.night_draw(
            actor=request.user,
            night_id=found.pk,
            method=request.POST.get("method", "lot"),
            variant=request.POST.get("variant", ""),
            stake=stake,
            preset_id=int(preset) if preset.isdigit() else None,
        )
    except (NotFound, PermissionDenied):
        raise
    except (LedgerError, EngineError) as exc:
        return _render(request, found, errors=refusal_fields(exc))
    return _render(request, drawn.night, drawn=drawn)


@page
@require_POST
def night_cut_in(request: AuthedRequest, club_id: int, night_id: int, number: int) -> HttpResponse:
    """Cut in at a table's break (the treasurer): the game closed with its pools carried, the next opened
    with the waiting player seated; the page that answers shows the new game's seat links, once."""
    found = _night(request, club_id, night_id, Role.TREASURER)
    game = request.POST.get("game", "")
    try:
        done = nights.night_cut_in(
            actor=request.user,
            night_id=found.pk,
            number=number,
            game=int(game) if game.isdigit() else None,
            method=request.POST.get("method", "longest"),
        )
    except (NotFound, PermissionDenied):
        raise
    except (LedgerError, EngineError) as exc:
        return _render(request, found, errors=refusal_fields(exc))
    messages.success(
        request,
        gettext("Table %(n)d, game %(game)d: %(into)s cut in, %(out)s cut out.")
        % {
            "n": done.opened.number,
            "game": done.opened.game,
            "into": ", ".join(p.name for p in done.proposal.into),
            "out": ", ".join(p.name for p in done.proposal.out),
        },
    )
    drawn = nights.DrawnLinks(night=done.night, links={done.opened.session_id: done.links})
    return _render(request, done.night, drawn=drawn)


@page
def night_settlement(request: AuthedRequest, club_id: int, night_id: int) -> HttpResponse:
    """One settlement for the room (the treasurer): each player's total over every table, the fewest
    transfers that square them, each with its "record" link tied to the night; each table's own
    settlement a link away."""
    found = _night(request, club_id, night_id, Role.TREASURER)
    room = money_selectors.night_settlement(night_id=found.pk)
    books = reverse("web:books", args=[club_id])
    transfers = [
        {
            "t": t,
            "record": f"{books}?from={t.payer}&to={t.payee}&cents={t.left}&currency={room.currency}&night={found.pk}",
        }
        for t in room.transfers
    ]
    response = render(
        request,
        "web/night_settlement.html",
        {
            "club": found.club,
            "night": found,
            "room": room,
            "games": list(zip(room.games, room.tables, strict=True)),  # labelled by table and game
            "alone": [  # the tables paid on their own, which the room leaves out ("Table 2 · game 1")
                gettext("Table %(n)s · game %(game)s") % {"n": number, "game": game}
                for (number, game), s in zip(room.games, room.tables, strict=True)
                if s.pk in room.alone
            ],
            "refusal": _refusal(room),
            "transfers": transfers,
            "pool": POOL,
        },
    )
    response["Cache-Control"] = "no-store"
    return response


def _refusal(room: money_selectors.RoomSettlement) -> str:
    if room.currencies:
        return gettext(
            "The tables were played for %(currencies)s: the room is settled in one currency only. "
            "Settle each table on its own."
        ) % {"currencies": ", ".join(room.currencies)}
    return refusal_text(LedgerError(room.refusal)) if room.refusal else ""
