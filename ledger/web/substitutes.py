"""A substitute mid-game (issue 37): the page where the scorer or the treasurer seats a new player, a
member or a guest, at a seat from the next deal. Thin: the write is `seat_substitute`."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from ledger import selectors
from ledger.exceptions import LedgerError, NotFound, PermissionDenied
from ledger.models import Role
from ledger.services.substitutions import seat_substitute

from .views import AuthedRequest, page, refusal_fields

SHOWN = {"seat", "player", "name", "number"}  # the fields the page shows errors beside


@page
def substitute(request: AuthedRequest, session_id: int) -> HttpResponse:
    """GET: the form (a seat, a member not seated or a guest's name). POST: seat him from the next deal;
    the form's key, drawn when the page was shown, makes a second tap seat nobody twice."""
    found = selectors.session_get(user=request.user, session_id=session_id, role=Role.SCORER)
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        post = request.POST
        seat, player, guest = post.get("seat", ""), post.get("player", ""), post.get("guest", "").strip()
        number = post.get("number", "")
        try:
            key = uuid.UUID(post.get("key", ""))
        except ValueError:
            key = None
        try:
            change = seat_substitute(
                actor=request.user,
                session_id=found.pk,
                seat=int(seat) if seat.isdigit() else None,
                player_id=int(player) if player.isdigit() and not guest else None,
                name=guest or None,
                number=int(number) if number.isdigit() else None,
                client_key=key,
            )
        except (NotFound, PermissionDenied):
            raise
        except LedgerError as exc:
            errors = refusal_fields(exc)
        else:
            messages.success(
                request,
                gettext("%(name)s takes seat %(seat)d from deal %(number)d.")
                % {"name": change.player.name, "seat": change.seat + 1, "number": change.from_hand},
            )
            return redirect("web:score", session_id=found.pk)
        found = selectors.session_get(user=request.user, session_id=session_id, role=Role.SCORER)
    seated = selectors.seated_now(session=found)
    here = {p.pk for p in seated}
    members = [p for p in selectors.player_list(user=request.user, club_id=found.club_id) if p.pk not in here]
    context = {
        "session": found,
        "club": found.club,
        "seats": [{"seat": i, "name": p.name} for i, p in enumerate(seated)],
        "members": members,
        "number": found.hands_count + 1,
        "key": uuid.uuid4(),
        "changes": selectors.seat_changes(session=found),
        "errors": errors,
        "other_errors": [m for f, ms in errors.items() if f not in SHOWN for m in ms],
        "typed": request.POST if request.method == "POST" else {},
    }
    return render(request, "web/substitute.html", context, status=400 if errors else 200)
