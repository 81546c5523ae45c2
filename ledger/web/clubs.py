"""Making a club and its settings (issue 26): a new club is asked its name and time zone; the club's
admin changes the time zone. Thin: the writes are `club_create` and `club_time_zone_set`."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_POST

from ledger import selectors, zones
from ledger.exceptions import LedgerError, NotFound, PermissionDenied
from ledger.models import Role
from ledger.services.clubs import club_create, club_payment_set, club_time_zone_set

from .views import AuthedRequest, page, refusal_fields, say_refusal
from .zone_choices import LIKELY, zone_choices


@page
def club_new(request: AuthedRequest) -> HttpResponse:
    """A club of the user's, who becomes its admin: its name and the time zone its pages show times in."""
    typed = {"name": request.POST.get("name", ""), "time_zone": request.POST.get("time_zone", "")}
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        try:
            club = club_create(actor=request.user, name=typed["name"], time_zone=typed["time_zone"])
        except LedgerError as exc:
            errors = refusal_fields(exc)
        else:
            return redirect("web:club", club_id=club.pk)
    return render(
        request,
        "web/club_new.html",
        {
            "typed": typed,
            "errors": errors,
            "other_errors": [m for name, msgs in errors.items() if name not in typed for m in msgs],
            "zones": zone_choices(typed["time_zone"] or LIKELY.get(get_language(), zones.DEFAULT)),
        },
        status=400 if errors else 200,
    )


@page
@require_POST
def club_time_zone(request: AuthedRequest, club_id: int) -> HttpResponse:
    """The club's admin sets its time zone."""
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.ADMIN)
    try:
        club = club_time_zone_set(actor=request.user, club_id=found.pk, time_zone=request.POST.get("time_zone", ""))
    except (NotFound, PermissionDenied):
        raise
    except LedgerError as exc:
        say_refusal(request, exc)
    else:
        messages.success(request, gettext("The club's times are now shown in %(zone)s.") % {"zone": club.time_zone})
    return redirect("web:club", club_id=club_id)


PAYMENT_FIELDS = (
    "payee_name",
    "iban",
    "bic",
    "ru_account",
    "ru_bank_name",
    "ru_bik",
    "ru_corresp_account",
    "payment_instructions",
)


@page
@require_POST
def club_payment(request: AuthedRequest, club_id: int) -> HttpResponse:
    """The club's treasurer gives its payment details (issue 41); a wrong IBAN is said beside the form."""
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.TREASURER)
    details = {key: request.POST.get(key, "") for key in PAYMENT_FIELDS}
    try:
        club_payment_set(actor=request.user, club_id=found.pk, details=details)
    except (NotFound, PermissionDenied):
        raise
    except LedgerError as exc:
        say_refusal(request, exc)
    else:
        messages.success(request, gettext("The club's payment details are saved."))
    return redirect(reverse("web:club", args=[club_id]) + "#payment")
