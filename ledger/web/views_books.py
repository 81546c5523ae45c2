"""The club's books (treasurers and admins), a player's statement, the import of past evenings and a
session's export. Thin like `views.py`: reads through `books` and the selectors, writes through the
money ledger's services (a payment, its reversal) or, for the import page, its script calls the API."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from ledger import display, nights, selectors, zones
from ledger.csvfile import Amount, csv_text
from ledger.currency import money_text, parse_money
from ledger.elision import elide
from ledger.exceptions import LedgerError, NotFound, PermissionDenied
from ledger.models import Night, Role, Session
from ledger.money import POOL, Party
from ledger.money import selectors as money_selectors
from ledger.money import services as money_writes
from ledger.web.dates import day as day_text

from . import books, catalog, printing, reads
from .views import AuthedRequest, _session_context, page, refusal_fields, refusal_text

CSV_TYPE = "text/csv; charset=utf-8"
STATUS_CHOICES = [("paid", _("Paid")), ("partly_paid", _("Partly paid")), ("written_off", _("Written off"))]


@page
def club_books(request: AuthedRequest, club_id: int) -> HttpResponse:
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.TREASURER)
    ledger = books.club_books(user=request.user, club_id=club_id)
    currencies = books.club_currencies(user=request.user, club_id=club_id)
    for book in ledger.currencies:
        if book.currency not in currencies:
            currencies.append(book.currency)
    refused: PaymentForm | None = None
    if request.method == "POST":
        refused = _books_action(request, club_id, ledger)
        if refused is None:  # what was done is said at the top, where the page opens (not at the form's #record)
            return redirect(reverse("web:books", args=[club_id]) + "#messages")
    form = refused or _prefill(request, ledger, currencies)
    evening = _evening_of(request, club_id, form.session)
    response = render(
        request,
        "web/books.html",
        {
            "club": found,
            "books": ledger,
            "currencies": currencies,
            "statuses": STATUS_CHOICES,
            "form": form,
            "evening": evening,
            # its night's room is being paid: the form gives way to where to pay (a night is paid once)
            "paid_by_night": money_selectors.settled_by_night(session_id=evening.pk) if evening else None,
            "night": _night_of(request, club_id, form.night),
        },
        status=400 if refused else 200,
    )
    response["Cache-Control"] = "no-store"
    return response


@dataclass
class PaymentForm:
    """The payment form as it is shown: filled from a settlement's link, or as typed when refused."""

    payer: str = ""
    payee: str = ""
    currency: str = ""
    amount: str = ""
    status: str = "paid"
    note: str = ""
    session: str = ""  # the evening whose transfer it pays ("": a free payment)
    night: str = ""  # or the club night whose room transfer it pays (issue 37)
    key: str = field(default_factory=lambda: str(uuid.uuid4()))  # one per rendered form (Idempotency-Key)
    errors: dict[str, list[str]] = field(default_factory=dict)
    confirm: str = ""  # "overpay" or "duplicate": the question the treasurer is asked
    question: str = ""
    overpay: bool = False
    duplicate_ok: bool = False


def _prefill(request: HttpRequest, ledger: books.Books, currencies: list[str]) -> PaymentForm:
    """The payment form filled from a settlement's "record" link (`?from=&to=&cents=&currency=&session=`,
    or `&night=` from a night's room settlement)."""
    parties = [value for value, _name in ledger.parties]
    payer, payee = request.GET.get("from", ""), request.GET.get("to", "")
    currency = request.GET.get("currency", "")
    cents = _int(request.GET.get("cents"))
    if currency not in currencies:
        return PaymentForm()
    return PaymentForm(
        payer=payer if payer in parties else "",
        payee=payee if payee in parties else "",
        currency=currency,
        # as the page's language writes a decimal (4,40 in French), which the form reads back
        amount=money_text(cents, currency) if 0 < cents <= 10**15 else "",
        session=str(_int(request.GET.get("session")) or ""),
        night=str(_int(request.GET.get("night")) or ""),
    )


def _evening_of(request: AuthedRequest, club_id: int, session: str) -> Session | None:
    """The evening the form's payment is tied to, if it is one of the club's."""
    number = _int(session)
    if not number:
        return None
    return selectors.session_list(user=request.user, club=club_id).filter(pk=number).first()


def _night_of(request: AuthedRequest, club_id: int, night: str) -> Night | None:
    """The club night the form's payment is tied to, if it is one of the club's."""
    number = _int(night)
    return nights.night_list(user=request.user, club_id=club_id).filter(pk=number).first() if number else None


def _posted(request: AuthedRequest) -> PaymentForm:
    post = request.POST
    return PaymentForm(
        payer=post.get("from", ""),
        payee=post.get("to", ""),
        currency=post.get("currency", ""),
        amount=post.get("amount", ""),
        status=post.get("status", "paid"),
        note=post.get("note", ""),
        session=post.get("session", ""),
        night=post.get("night", ""),
        key=post.get("key", "") or str(uuid.uuid4()),
        overpay=post.get("overpay") == "yes",
        duplicate_ok=post.get("duplicate_ok") == "yes",
    )


def _key(text: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(text)
    except ValueError:
        return None


FIELD_OF = {"cents": "amount", "from": "from", "to": "to", "currency": "currency", "status": "status"}


def _books_action(request: AuthedRequest, club_id: int, ledger: books.Books) -> PaymentForm | None:
    """Record a payment or reverse one: None when done (a message says what), else the payment form as
    typed, its refusals by field (next to the field, in money and names) or the question to confirm."""
    action = request.POST.get("action")
    if action == "reverse":
        if request.POST.get("confirm") != "yes":  # a reversal is asked twice (issue 38): the box says which payment
            messages.error(request, gettext("Nothing reversed: tick the box that names the payment to reverse it."))
            return None
        try:
            tx = money_writes.payment_reverse(
                actor=request.user,
                club_id=club_id,
                transaction_id=_int(request.POST.get("transaction")),
                note=request.POST.get("note", ""),
            )
            messages.success(request, gettext("Payment #%(n)s is reversed.") % {"n": tx.reverses_id})
        except (NotFound, PermissionDenied):
            raise
        except LedgerError as exc:
            messages.error(request, refusal_text(exc))
        return None
    if action != "pay":
        messages.error(request, gettext("Nothing to do: record a payment or reverse one."))
        return None
    form = _posted(request)
    names = dict(ledger.parties)
    try:
        cents = parse_money(form.amount, form.currency)
    except ValueError as exc:
        form.errors["amount"] = [str(exc)]
        return form
    if cents <= 0:
        form.errors["amount"] = [gettext("the amount must be more than 0")]
        return form
    try:
        tx = money_writes.payment_record(
            actor=request.user,
            club_id=club_id,
            payer=_party(form.payer),
            payee=_party(form.payee),
            currency=form.currency,
            cents=cents,
            status=form.status,
            note=form.note,
            client_key=_key(form.key),
            session_id=_int(form.session) or None,
            night_id=_int(form.night) or None,
            overpay=form.overpay,
            duplicate_ok=form.duplicate_ok,
        )
    except money_writes.Overpayment as exc:
        form.confirm, form.question = "overpay", _overpay_question(exc, names, form)
        return form
    except money_writes.LikelyDuplicate as exc:
        form.confirm = "duplicate"
        form.question = gettext("The same payment was recorded at %(time)s (payment #%(n)s). Record a second one?") % {
            "time": day_text(exc.earlier.created_at, "time"),
            "n": exc.earlier.pk,
        }
        return form
    except (NotFound, PermissionDenied):
        raise
    except LedgerError as exc:
        for name, said in refusal_fields(exc).items():
            form.errors.setdefault(FIELD_OF.get(name, "form"), []).extend(said)
        return form
    amount = money_text(cents, form.currency, with_currency=True)
    messages.success(
        request,
        gettext("Recorded: %(payer)s → %(payee)s: %(amount)s (payment #%(n)s).")
        % {"payer": names.get(form.payer, "?"), "payee": names.get(form.payee, "?"), "amount": amount, "n": tx.pk},
    )
    return None


def _overpay_question(exc: money_writes.Overpayment, names: dict[str, str], form: PaymentForm) -> str:
    def amount(cents: int, signed: bool = False) -> str:
        return money_text(cents, exc.currency, with_currency=True, signed=signed)

    words = {
        "payer": names.get(form.payer, "?"),
        "payee": names.get(form.payee, "?"),
        "owed": amount(exc.owed),
        "amount": amount(exc.cents),
        "more": amount(exc.cents - exc.owed),
        "payer_before": amount(exc.payer_balance, True),
        "payer_after": amount(exc.payer_balance + exc.cents, True),
        "payee_before": amount(exc.payee_balance, True),
        "payee_after": amount(exc.payee_balance - exc.cents, True),
    }
    if form.session:  # tonight's words (issue 38): what tonight asks, and what it leaves owed back tonight
        said = gettext("%(owed)s is left to pay of this evening's transfer %(payer)s → %(payee)s.") % words
        return (
            said
            + " "
            + gettext(
                "Recording %(amount)s pays %(more)s more than tonight asks: %(payee)s will owe %(payer)s "
                "%(more)s back for this evening, as its settlement will say."
            )
            % words
        )
    else:
        said = gettext("%(payer)s owes %(payee)s %(owed)s across every evening.") % words
    return elide(
        said
        + " "
        + gettext(
            "Recording %(amount)s pays %(more)s more: %(payer)s's balance goes from %(payer_before)s to "
            "%(payer_after)s, %(payee)s's from %(payee_before)s to %(payee_after)s."
        )
        % words
    )


def _party(text: str) -> Party:
    return POOL if text == POOL else _int(text)


def _int(text: str | None) -> int:
    try:
        return int(text or "")
    except ValueError:
        return 0


def _statement_context(request: AuthedRequest, player_id: int) -> dict[str, Any]:
    found = books.statement(user=request.user, player_id=player_id)
    role = selectors.club_role(user=request.user, club_id=found.player.club_id)
    return {
        "statement": found,
        "player": found.player,
        "club": found.player.club,
        "can_keep_books": books.may_keep_books(role),
        "csv_url": reverse("web:statement-csv", args=[found.player.pk]),
        "pdf_url": reverse("web:statement-pdf", args=[found.player.pk]),
    }


@page
def statement(request: AuthedRequest, player_id: int) -> HttpResponse:
    response = render(request, "web/statement.html", _statement_context(request, player_id))
    response["Cache-Control"] = "no-store"  # money: never kept by a shared browser or a proxy (issue 29)
    return response


@page
def statement_pdf(request: AuthedRequest, player_id: int) -> HttpResponse:
    """The player's statement as a PDF (A4, or `?paper=letter`): the page's own template, printed."""
    context = _statement_context(request, player_id)
    pdf = printing.template_pdf("web/statement.html", context, request=request, size=printing.paper(request))
    return printing.pdf_response(pdf, gettext("statement %(name)s") % {"name": context["player"].name})


@page
def statement_csv(request: AuthedRequest, player_id: int) -> HttpResponse:
    """The player's statement as the page shows it, for a spreadsheet in the page's language: a table per
    currency in the page's order, dates in the club's time, kinds in words."""
    found = books.statement(user=request.user, player_id=player_id)
    text = display.statement_csv(player=found.player)
    response = HttpResponse(text.encode("utf-8"), content_type=CSV_TYPE)
    response["Content-Disposition"] = f'attachment; filename="statement-{found.player.pk}.csv"'
    response["Cache-Control"] = "no-store"
    return response


@page
def books_csv(request: AuthedRequest, club_id: int) -> HttpResponse:
    """The club's books for a spreadsheet in the page's language (issue 38): every open balance per
    currency, then every payment recorded, newest first, with its evening and its reversal."""
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.TREASURER)
    ledger = books.club_books(user=request.user, club_id=club_id, history=10**9)
    header = [
        gettext("Currency"),
        gettext("Date"),
        gettext("What"),
        gettext("From"),
        gettext("To"),
        gettext("Amount"),
        gettext("Session"),
        gettext("Note"),
        gettext("Payment"),
        gettext("Reversed"),
    ]

    def when(moment: Any) -> str:
        return zones.local(moment, found.time_zone).strftime("%Y-%m-%d %H:%M")

    now = timezone.now()
    rows: list[list[Any]] = [
        [
            book.currency,
            when(now),
            gettext("balance"),
            line.name,
            "",
            Amount(line.balance, book.currency),
            "",
            "",
            "",
            "",
        ]
        for book in ledger.currencies
        for line in book.balances
    ]
    rows += [
        [
            p.tx.currency,
            when(p.tx.created_at),
            p.label,
            p.payer_name,
            p.payee_name,
            Amount(p.cents, p.tx.currency),
            p.tx.for_session_id or "",
            p.tx.note,
            p.tx.pk,
            when(p.reversal.created_at) if p.reversal else "",
        ]
        for p in ledger.payments
    ]
    response = HttpResponse(csv_text(header, rows, for_people=True).encode("utf-8"), content_type=CSV_TYPE)
    response["Content-Disposition"] = f'attachment; filename="club-{club_id}-books.csv"'
    response["Cache-Control"] = "no-store"
    return response


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
        hands = {h.number: h.raw for h in selectors.hand_list(session=found)}
        names = context["names"]
        # A Russian game's бостон is the ♥J when diamonds are trumps (issue 38).
        jack_column = gettext("Jack of diamonds (♦J)")
        if found.variant == "russian":
            jack_column = pgettext("deals column", "Boston (♦J/♥J)")
        header = [
            gettext("Deal"),
            gettext("Dealer"),
            gettext("Double deal"),
            gettext("Bidder"),
            gettext("Partner"),
            gettext("Bid"),
            gettext("Trump"),
            gettext("Turned"),
            gettext("Honours"),
            jack_column,
            gettext("Conceded"),
            *[gettext("%(name)s: tricks") % {"name": n} for n in names],
            *[gettext("%(name)s: change") % {"name": n} for n in names],
            *[gettext("%(name)s: total") % {"name": n} for n in names],
            gettext("Pools"),
            gettext("Note"),  # a table-law event in words (rules.md §0.11): what it cost each seat
        ]
        yes = gettext("yes")
        lines = []
        for r in rows:
            raw = hands.get(r.number, {})
            tricks = raw.get("tricks") or [None] * 4
            jack = raw.get("jack")
            lines.append(
                [
                    r.number,
                    r.dealer,
                    yes if r.double else "",
                    r.bidder,
                    r.partner,
                    r.bid,
                    r.trump,
                    reads.trump_text(raw.get("turned")),
                    raw.get("honours", ""),
                    names[jack] if isinstance(jack, int) and 0 <= jack < 4 else "",
                    yes if r.conceded else "",
                    *tricks,
                    *r.deltas,
                    *r.balances,
                    " ".join(str(p) for p in r.pools),
                    r.note,
                ]
            )
        response = HttpResponse(csv_text(header, lines, for_people=True).encode("utf-8"), content_type=CSV_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    response["Cache-Control"] = "no-store"
    return response
