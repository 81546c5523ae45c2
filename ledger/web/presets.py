"""A club's presets as pages (issue 42): treasurers and admins keep them (list, new, edit into a new
version, archive); a scorer opens a table from one in two taps from the club page (its "Open a table",
then "Start", the seats already chosen); and a table's conditions in words, for the join, follower and
printable conditions pages (`ledger.web.table`).

The forms are the new session's own (`forms.ConditionsForm`, `views.form_context`): every house rule is
a field built from the variant's declaration, none is named here.
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
from ledger.exceptions import LedgerError, NotFound, PermissionDenied
from ledger.models import Player, Preset, Role, Session
from ledger.services.presets import preset_archive, preset_create, preset_update

from . import catalog
from .forms import PresetForm, SeatsForm
from .views import AuthedRequest, form_context, open_session, page, refusal_fields


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


def _form_page(request: AuthedRequest, club: Any, form: PresetForm, preset: Preset | None, status: int) -> HttpResponse:
    return render(
        request,
        "web/preset_form.html",
        {
            "club": club,
            "preset": preset,
            "current": selectors.preset_current(preset) if preset is not None else None,
            "name": str(form["name"].value() or "").strip(),
            **form_context(form),
            "versions": list(selectors.preset_versions(user=request.user, club_id=club.pk, preset_id=preset.pk))
            if preset is not None
            else [],
        },
        status=status,
    )


def _unposted(request: AuthedRequest, preset: Preset | None) -> PresetForm:
    """The form as a preset's page opens: the preset's current conditions, or a new one's defaults."""
    if preset is None:
        return PresetForm(variant=request.GET.get("variant"))
    current = selectors.preset_current(preset)
    return PresetForm(variant=current.variant, rules=current.rules, stake=current.stake, initial={"name": preset.name})


def _save(request: AuthedRequest, club_id: int, preset: Preset | None) -> tuple[PresetForm, Preset | None]:
    """Read the posted preset and write it; the form with its refusals when it was not written."""
    form = PresetForm(request.POST)
    if not form.is_valid():
        return form, None
    name = form.cleaned_data["name"]
    try:
        if preset is None:
            saved = preset_create(actor=request.user, club_id=club_id, name=name, **form.conditions())
        else:
            saved = preset_update(
                actor=request.user,
                club_id=club_id,
                preset_id=preset.pk,
                expected_version=form.cleaned_data["version"] or 0,
                name=name,
                **form.conditions(),
            )
    except (NotFound, PermissionDenied):
        raise
    except (LedgerError, EngineError) as exc:
        form.refused(refusal_fields(exc))
        return form, None
    return form, saved


@require_http_methods(["GET", "POST"])
@page
def preset_new(request: AuthedRequest, club_id: int) -> HttpResponse:
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.TREASURER)
    if request.method == "GET":
        return _form_page(request, found, _unposted(request, None), None, 200)
    form, saved = _save(request, club_id, None)
    if saved is None:
        return _form_page(request, found, form, None, 400)
    messages.success(request, gettext("The preset %(name)s is saved.") % {"name": saved.name})
    return redirect("web:presets", club_id=club_id)


@require_http_methods(["GET", "POST"])
@page
def preset_edit(request: AuthedRequest, club_id: int, preset_id: int) -> HttpResponse:
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.TREASURER)
    preset = selectors.preset_get(user=request.user, club_id=club_id, preset_id=preset_id, role=Role.TREASURER)
    if request.method == "GET":
        return _form_page(request, found, _unposted(request, preset), preset, 200)
    if preset.archived_at is not None:  # the page offers no save then; a stale tab's post is said so
        messages.error(request, gettext("This preset is archived: no table opens from it any more."))
        return redirect("web:presets", club_id=club_id)
    if request.POST.get("action") == "archive":
        preset_archive(actor=request.user, club_id=club_id, preset_id=preset.pk)
        messages.success(request, gettext("The preset %(name)s is archived.") % {"name": preset.name})
        return redirect("web:presets", club_id=club_id)
    form, saved = _save(request, club_id, preset)
    if saved is None:
        return _form_page(request, found, form, preset, 400)
    messages.success(
        request,
        gettext("The preset %(name)s is at version %(version)d.") % {"name": saved.name, "version": saved.version},
    )
    return redirect("web:presets", club_id=club_id)


# --- opening a table from a preset (scorers) -------------------------------------------------------


def _last_seats(players: list[Player], preset: Preset) -> list[int | None]:
    """The seats a preset's table opens with: those of the last table opened from the preset (else the
    club's last table; else the club's four players when it has just four)."""
    last = selectors.preset_last_seats(preset=preset)
    if not last and len(players) == 4:
        last = [p.pk for p in players]
    known = {p.pk for p in players}
    return [pid if pid in known else None for pid in last] if len(last) == 4 else [None] * 4


@require_http_methods(["GET", "POST"])
@page
def preset_open(request: AuthedRequest, club_id: int, preset_id: int) -> HttpResponse:
    """Open a table from a preset: the seats come chosen (the last table's), the first dealer is seat 1;
    "Start" opens the session with the preset's current version and goes to the scorer page."""
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.SCORER)
    preset = selectors.preset_get(user=request.user, club_id=club_id, preset_id=preset_id)
    players = list(selectors.player_list(user=request.user, club_id=club_id))
    posted = request.POST if request.method == "POST" else None
    form = SeatsForm(posted, initial={"players": None if posted else _last_seats(players, preset)})
    if form.is_valid():
        chosen = form.cleaned_data
        opened = open_session(
            request,
            form,
            club_id=club_id,
            variant="",
            rules=None,
            player_ids=chosen["players"],
            first_dealer=chosen["first_dealer"],
            preset_id=preset.pk,
        )
        if opened is not None:
            return opened
    current = selectors.preset_current(preset)
    return render(
        request,
        "web/preset_open.html",
        {
            "club": found,
            "preset": preset,
            "current": current,
            "conditions": {**table_conditions(current.variant, current.rules), "stake": current.stake},
            "players": players,
            "seats": form.seats,
            "first_dealer": 0 if form.dealer is None else form.dealer,
            "errors": form.errors,
            "all_errors": [m for msgs in form.errors.values() for m in msgs],
            "archived": preset.archived_at is not None,
        },
        status=400 if form.errors else 200,
    )
