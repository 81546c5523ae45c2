"""The club's books (treasurers and admins), a player's statement, the import of past evenings and a
session's export. Thin like `views.py`: reads through `books` and the selectors, writes through the
money ledger's services (a payment, its reversal) or, for the import page, its script calls the API."""

from __future__ import annotations

import csv
import io
import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger import selectors
from ledger.currency import decimal_text, money_text, parse_money
from ledger.exceptions import LedgerError, NotFound, PermissionDenied
from ledger.models import Role
from ledger.money import POOL, Party
from ledger.money import services as money_writes

from . import books, catalog, reads
from .views import AuthedRequest, _session_context, page, refusal_text

STATUS_CHOICES = [("paid", _("Paid")), ("partly_paid", _("Partly paid")), ("written_off", _("Written off"))]


@page
def club_books(request: AuthedRequest, club_id: int) -> HttpResponse:
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.TREASURER)
    if request.method == "POST":
        _books_action(request, club_id)
        return redirect("web:books", club_id=club_id)
    ledger = books.club_books(user=request.user, club_id=club_id)
    currencies = books.club_currencies(user=request.user, club_id=club_id)
    for book in ledger.currencies:
        if book.currency not in currencies:
            currencies.append(book.currency)
    return render(
        request,
        "web/books.html",
        {
            "club": found,
            "books": ledger,
            "currencies": currencies,
            "statuses": STATUS_CHOICES,
            "prefill": _prefill(request, ledger, currencies),
        },
    )


def _prefill(request: HttpRequest, ledger: books.Books, currencies: list[str]) -> dict[str, str]:
    """The payment form filled from a settlement's "record" link (`?from=&to=&cents=&currency=`)."""
    parties = [value for value, _name in ledger.parties]
    payer, payee = request.GET.get("from", ""), request.GET.get("to", "")
    currency = request.GET.get("currency", "")
    cents = _int(request.GET.get("cents"))
    if currency not in currencies:
        return {}
    return {
        "from": payer if payer in parties else "",
        "to": payee if payee in parties else "",
        "currency": currency,
        # as the page's language writes a decimal (4,40 in French), which the form reads back
        "amount": decimal_text(money_text(cents, currency, grouped=False)) if 0 < cents <= 10**15 else "",
    }


def _books_action(request: AuthedRequest, club_id: int) -> None:
    """Record a payment or reverse one; a refusal comes back as a message in the server's words."""
    action = request.POST.get("action")
    try:
        if action == "pay":
            currency = request.POST.get("currency", "")
            try:
                cents = parse_money(request.POST.get("amount", ""), currency)
            except ValueError as exc:
                messages.error(request, gettext("Amount: %(reason)s.") % {"reason": exc})
                return
            tx = money_writes.payment_record(
                actor=request.user,
                club_id=club_id,
                payer=_party(request.POST.get("from", "")),
                payee=_party(request.POST.get("to", "")),
                currency=currency,
                cents=cents,
                status=request.POST.get("status", ""),
                note=request.POST.get("note", ""),
            )
            messages.success(request, gettext("Recorded: payment #%(n)s.") % {"n": tx.pk})
        elif action == "reverse":
            tx = money_writes.payment_reverse(
                actor=request.user,
                club_id=club_id,
                transaction_id=_int(request.POST.get("transaction")),
                note=request.POST.get("note", ""),
            )
            messages.success(request, gettext("Payment #%(n)s is reversed.") % {"n": tx.reverses_id})
        else:
            messages.error(request, gettext("Nothing to do: record a payment or reverse one."))
    except (NotFound, PermissionDenied):
        raise
    except LedgerError as exc:
        messages.error(request, refusal_text(exc))


def _party(text: str) -> Party:
    return POOL if text == POOL else _int(text)


def _int(text: str | None) -> int:
    try:
        return int(text or "")
    except ValueError:
        return 0


@page
def statement(request: AuthedRequest, player_id: int) -> HttpResponse:
    found = books.statement(user=request.user, player_id=player_id)
    role = selectors.club_role(user=request.user, club_id=found.player.club_id)
    return render(
        request,
        "web/statement.html",
        {
            "statement": found,
            "player": found.player,
            "club": found.player.club,
            "can_keep_books": books.may_keep_books(role),
            "csv_url": f"/api/v1/players/{found.player.pk}/statement/?format=csv",
        },
    )


@page
def history_import(request: AuthedRequest, club_id: int) -> HttpResponse:
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.TREASURER)
    config = {
        "club": club_id,
        "api": {
            "settle": "/api/v1/settle/",
            "import": "/api/v1/sessions/import/",
            "players": f"/api/v1/clubs/{club_id}/players/",
        },
        "pages": {"settlement": reverse("web:settlement", args=[0]).replace("/0/", "/{id}/")},
        "titles": {name: title for name, title in catalog.variant_choices()},
    }
    return render(request, "web/import.html", {"club": found, "config": config})


@page
def session_export(request: AuthedRequest, session_id: int, fmt: str) -> HttpResponse:
    """The session as its score-sheet JSON (re-importable) or as CSV, a line per deal."""
    found = selectors.session_get(user=request.user, session_id=session_id)
    sheet = selectors.session_sheet(session=found)
    name = f"session-{found.pk}"
    if fmt == "json":
        response = HttpResponse(json.dumps(sheet, indent=1, ensure_ascii=False), content_type="application/json")
    else:
        context = _session_context(request, found)
        settlement = selectors.session_settlement(session=found)
        rows = reads.sheet_rows(session=found, names=context["names"], settlement=settlement)
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")
        names = context["names"]
        writer.writerow(
            ["deal", "dealer", "double", "bidder", "partner", "bid", "trump", "tricks"]
            + [f"{n} change" for n in names]
            + [f"{n} total" for n in names]
            + ["pools"]
        )
        for r in rows:
            writer.writerow(
                [
                    r.number,
                    r.dealer,
                    "yes" if r.double else "",
                    r.bidder,
                    r.partner,
                    r.bid,
                    r.trump,
                    r.tricks_all,
                    *r.deltas,
                    *r.balances,
                    " ".join(str(p) for p in r.pools),
                ]
            )
        response = HttpResponse(buffer.getvalue().encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response
