"""A club's presets as pages (issue 42): treasurers and admins keep them (list, new, edit into a new
version, archive); a scorer opens a table from one in two taps from the club page (its "Open a table",
then "Start", the seats already chosen); and a table's conditions in words, for the join, follower and
printable conditions pages (`ledger.web.table`).

The forms are the new session's own (`forms.parse_conditions`, `views.variant_forms`): every house rule
is read from the variant's declaration, none is named here.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from ledger import selectors
from ledger.engine import EngineError
from ledger.engine.variants import variant_names
from ledger.exceptions import LedgerError, NotFound, PermissionDenied
from ledger.models import Player, Preset, Role, Session
from ledger.services.presets import preset_archive, preset_create, preset_update
from ledger.services.sessions import session_open

from . import catalog
from .forms import NewSession, parse_conditions, parse_seats
from .views import AuthedRequest, page, refusal_fields, variant_forms


def table_conditions(variant: str, rules: dict[str, Any]) -> dict[str, Any]:
    """What the pages show of a table's conditions: the variant's title and each house rule in words."""
    return {"title": catalog.variant_title(variant), "rules": catalog.conditions(variant, rules)}


def session_conditions(session: Session) -> dict[str, Any]:
    """A session's conditions (its own copy of its rules and stake), and the preset version it keeps."""
    chosen = session.preset_version
    return {
        **table_conditions(session.variant, session.rules),
        "stake": session.stake,
        "preset": chosen.preset.name if chosen else None,
        "preset_version": chosen.version if chosen else None,
    }


def _preset_rows(presets: list[Preset]) -> list[dict[str, Any]]:
    rows = []
    for preset in presets:
        current = selectors.preset_current(preset)
        rows.append(
            {
                "preset": preset,
                "current": current,
                "conditions": {**table_conditions(current.variant, current.rules), "stake": current.stake},
            }
        )
    return rows


# --- keeping the presets (treasurers and admins) ---------------------------------------------------


@require_GET
@page
def preset_list(request: AuthedRequest, club_id: int) -> HttpResponse:
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.TREASURER)
    rows = _preset_rows(list(selectors.preset_list(user=request.user, club_id=club_id)))
    return render(request, "web/presets.html", {"club": found, "rows": rows})


def _form_page(
    request: AuthedRequest, club: Any, form: NewSession | None, preset: Preset | None, name: str, status: int
) -> HttpResponse:
    current = selectors.preset_current(preset) if preset is not None else None
    if form is None and current is not None:
        form = NewSession(variant=current.variant, rules=current.rules, stake=current.stake)
    initial = (current.variant, current.rules) if current is not None else None
    chosen = (form.variant if form else "") or request.GET.get("variant") or "american"
    posted = request.POST if request.method == "POST" else None
    return render(
        request,
        "web/preset_form.html",
        {
            "club": club,
            "preset": preset,
            "current": current,
            "name": name,
            "variants": variant_forms(form, posted, initial),
            "chosen": chosen if chosen in variant_names() else "american",
            "form": form,
            "errors": form.errors if form else {},
            "all_errors": [m for msgs in (form.errors.values() if form else []) for m in msgs],
            "versions": list(selectors.preset_versions(user=request.user, club_id=club.pk, preset_id=preset.pk))
            if preset is not None
            else [],
        },
        status=status,
    )


def _save(request: AuthedRequest, club_id: int, preset: Preset | None) -> tuple[NewSession, str, Preset | None]:
    """Parse the posted preset and write it; the form with its refusals when it was not written."""
    form = parse_conditions(request.POST)
    name = (request.POST.get("name") or "").strip()
    if form.errors:
        return form, name, None
    try:
        if preset is None:
            saved = preset_create(
                actor=request.user, club_id=club_id, name=name, variant=form.variant, rules=form.rules, stake=form.stake
            )
        else:
            saved = preset_update(
                actor=request.user,
                club_id=club_id,
                preset_id=preset.pk,
                expected_version=int(request.POST.get("version") or 0),
                name=name,
                variant=form.variant,
                rules=form.rules,
                stake=form.stake,
            )
    except (NotFound, PermissionDenied):
        raise
    except (LedgerError, EngineError, ValueError) as exc:
        if isinstance(exc, ValueError):
            form.error("version", gettext("the preset has changed: read it again"))
        else:
            form.refused(refusal_fields(exc))
        return form, name, None
    return form, name, saved


@require_http_methods(["GET", "POST"])
@page
def preset_new(request: AuthedRequest, club_id: int) -> HttpResponse:
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.TREASURER)
    if request.method == "GET":
        return _form_page(request, found, None, None, "", 200)
    form, name, saved = _save(request, club_id, None)
    if saved is None:
        return _form_page(request, found, form, None, name, 400)
    messages.success(request, gettext("The preset %(name)s is saved.") % {"name": saved.name})
    return redirect("web:presets", club_id=club_id)


@require_http_methods(["GET", "POST"])
@page
def preset_edit(request: AuthedRequest, club_id: int, preset_id: int) -> HttpResponse:
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.TREASURER)
    preset = selectors.preset_get(user=request.user, club_id=club_id, preset_id=preset_id, role=Role.TREASURER)
    if request.method == "GET":
        return _form_page(request, found, None, preset, preset.name, 200)
    if preset.archived_at is not None:  # the page offers no save then; a stale tab's post is said so
        messages.error(request, gettext("This preset is archived: no table opens from it any more."))
        return redirect("web:presets", club_id=club_id)
    if request.POST.get("action") == "archive":
        preset_archive(actor=request.user, club_id=club_id, preset_id=preset.pk)
        messages.success(request, gettext("The preset %(name)s is archived.") % {"name": preset.name})
        return redirect("web:presets", club_id=club_id)
    form, name, saved = _save(request, club_id, preset)
    if saved is None:
        return _form_page(request, found, form, preset, name, 400)
    messages.success(
        request,
        gettext("The preset %(name)s is at version %(version)d.") % {"name": saved.name, "version": saved.version},
    )
    return redirect("web:presets", club_id=club_id)


# --- opening a table from a preset (scorers) -------------------------------------------------------


def _seats(posted: Any, players: list[Player], preset: Preset) -> list[dict[str, Any]]:
    """The seats as the page shows them: the posted players again, else those of the last table opened
    from the preset (else the club's last table; else the club's four players when it has just four)."""
    if posted is not None:
        chosen = [posted.get(f"seat-{s}") or "" for s in range(4)]
    else:
        last = selectors.preset_last_seats(preset=preset)
        if not last and len(players) == 4:
            last = [p.pk for p in players]
        known = {p.pk for p in players}
        chosen = [str(pid) if pid in known else "" for pid in last] if len(last) == 4 else [""] * 4
    return [{"seat": s, "chosen": chosen[s]} for s in range(4)]


@require_http_methods(["GET", "POST"])
@page
def preset_open(request: AuthedRequest, club_id: int, preset_id: int) -> HttpResponse:
    """Open a table from a preset: the seats come chosen (the last table's), the first dealer is seat 1;
    "Start" opens the session with the preset's current version and goes to the scorer page."""
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.SCORER)
    preset = selectors.preset_get(user=request.user, club_id=club_id, preset_id=preset_id)
    form: NewSession | None = None
    if request.method == "POST":
        form = NewSession()
        parse_seats(request.POST, form)
        if not form.errors and form.first_dealer is not None:
            try:
                session = session_open(
                    actor=request.user,
                    club_id=club_id,
                    variant="",
                    rules=None,
                    player_ids=form.players,
                    first_dealer=form.first_dealer,
                    preset_id=preset.pk,
                )
            except (NotFound, PermissionDenied):
                raise
            except (LedgerError, EngineError) as exc:
                form.refused(refusal_fields(exc))
            else:
                return redirect("web:score", session_id=session.pk)
    players = list(selectors.player_list(user=request.user, club_id=club_id))
    current = selectors.preset_current(preset)
    dealer = form.first_dealer if form and form.first_dealer is not None else 0
    return render(
        request,
        "web/preset_open.html",
        {
            "club": found,
            "preset": preset,
            "current": current,
            "conditions": {**table_conditions(current.variant, current.rules), "stake": current.stake},
            "players": players,
            "seats": _seats(request.POST if form else None, players, preset),
            "first_dealer": dealer,
            "errors": form.errors if form else {},
            "all_errors": [m for msgs in (form.errors.values() if form else []) for m in msgs],
            "archived": preset.archived_at is not None,
        },
        status=400 if form and form.errors else 200,
    )
