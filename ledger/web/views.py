"""The page views. Each reads through `ledger.selectors` (or `reads`, which composes them) and writes
through one `ledger.services` function; a ledger refusal becomes a 404/403 page or an error beside the
field it names. What a page does after loading (recording, previews, polling) its script asks the API."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import wraps
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.timezone import localtime
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from ledger import calendar, nights, selectors
from ledger.engine import EngineError
from ledger.engine.variants import get_variant, variant_names
from ledger.exceptions import DisputesOpen, LedgerError, NotFound, PermissionDenied
from ledger.i18n import error_body as engine_error_body
from ledger.i18n.refusals import ledger_text
from ledger.live import live_tag
from ledger.models import CheckIn, Club, Role, Session
from ledger.money import POOL
from ledger.money import selectors as money_selectors
from ledger.services.clubs import player_create, player_mail_set
from ledger.services.sessions import parse_closed_at, played_at, session_close, session_open, session_reopen

from . import books, catalog, deal_notes, legal, paycodes, printing, reads
from .forms import ConditionsForm, NewSessionForm, RefusableForm, parse_past_filters, rule_input_name
from .zone_choices import zone_choices

DEAL_LOOKAHEAD = 60  # deals past the recorded ones the scorer can number while offline

P = ParamSpec("P")


class AuthedRequest(HttpRequest):
    """A request a `page` view is handed: `login_required` has let it through, so its user is signed in
    (a `User`, what the services take as `actor`), never the `AnonymousUser` a plain request may carry."""

    user: User


def page(
    view: Callable[Concatenate[AuthedRequest, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """Login required; the ledger's NotFound is a 404 page, its PermissionDenied a 403 page."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        try:
            # The one place request.user is narrowed: login_required (above) sent anonymous users away.
            return view(cast(AuthedRequest, request), *args, **kwargs)
        except NotFound as exc:
            raise Http404(refusal_text(exc)) from None
        except PermissionDenied as exc:
            raise DjangoPermissionDenied(refusal_text(exc)) from None

    return wrapper


def _ledger_words(exc: LedgerError, english: str) -> str:
    """A ledger refusal's text in the request's language; one with numbers or names in it has no entry
    in the catalog (ledger/i18n/refusals.py), and gives way to its kind's own words, not to English."""
    said = ledger_text(english)
    if said == english and not (get_language() or "en").startswith("en"):
        return ledger_text(type(exc).default_message)
    return said


def refusal_text(exc: LedgerError | EngineError) -> str:
    """A refusal of the ledger or the engine, said in the request's language."""
    if isinstance(exc, EngineError):
        return str(engine_error_body(exc)["error"]["message"])
    return _ledger_words(exc, exc.message)


def refusal_fields(exc: LedgerError | EngineError) -> dict[str, list[str]]:
    """A refusal's messages by the field they name ("__all__" when it names none), in the request's language."""
    if isinstance(exc, EngineError):
        body = engine_error_body(exc)["error"]
        return body["fields"] or {"__all__": [body["message"]]}
    return {name: [_ledger_words(exc, m) for m in msgs] for name, msgs in exc.fields.items()} or {
        "__all__": [refusal_text(exc)]
    }


def say_refusal(request: HttpRequest, exc: LedgerError | EngineError) -> None:
    """A form's refusal as the page's messages, one per field's rule, in the request's language."""
    for msgs in refusal_fields(exc).values():
        for message in msgs:
            messages.error(request, message)


def _may(role: str, needed: str) -> bool:
    return Role.rank(role) >= Role.rank(needed)


def _session_context(request: HttpRequest, session: Session) -> dict[str, Any]:
    return session_context(session, selectors.club_role(user=request.user, club_id=session.club_id))


def session_context(session: Session, role: str) -> dict[str, Any]:
    """What every page of a session shows, for a reader of `role` (a request's, or the mail's: a player)."""
    players = selectors.seated_now(session=session)  # who holds each seat now (issue 37: substitutes)
    return {
        "session": session,
        "club": session.club,
        "role": role,
        "names": [p.name for p in players],
        "players": players,
        "variant_title": catalog.variant_title(session.variant),
        "pool_label": catalog.pool_label(session.variant),
        "one_pool": catalog.one_pool(session.variant),
        "can_score": _may(role, Role.SCORER),
        "can_close": _may(role, Role.TREASURER),
    }


# --- home and clubs --------------------------------------------------------------------------------


@page
def home(request: AuthedRequest) -> HttpResponse:
    """The user's clubs; a member of one club (most scorers) lands on it, one tap nearer his table."""
    clubs = list(selectors.club_list(user=request.user))
    if len(clubs) == 1:
        return redirect("web:club", club_id=clubs[0].pk)
    open_sessions = list(selectors.session_list(user=request.user, status=Session.Status.OPEN)[:20])
    return render(request, "web/home.html", {"clubs": clubs, "open_sessions": open_sessions})


@page
def club(request: AuthedRequest, club_id: int) -> HttpResponse:
    found = selectors.club_get(user=request.user, club_id=club_id)
    sessions = selectors.session_list(user=request.user, club=club_id)
    players = list(selectors.player_list(user=request.user, club_id=club_id))
    past = parse_past_filters(request.GET, variants=set(variant_names()), players={p.pk for p in players})
    closed = selectors.session_list(
        user=request.user,
        club=club_id,
        status=Session.Status.CLOSED,
        player=past.player,
        variant=past.variant,
        date_from=past.date_from,
        date_to=past.date_to,
    )
    return render(
        request,
        "web/club.html",
        {
            "club": found,
            "role": found.role,
            "can_score": _may(found.role, Role.SCORER),
            "is_admin": found.role == Role.ADMIN,
            "club_zone_name": format_html('<span lang="zxx" translate="no">{}</span>', found.time_zone),
            "zones": zone_choices(found.time_zone) if found.role == Role.ADMIN else (),
            "open_sessions": list(sessions.filter(status=Session.Status.OPEN)),
            "past": past,
            "past_page": Paginator(closed, PAST_PAGE).get_page(request.GET.get("page")),
            "variant_choices": catalog.variant_choices(),
            "players": players,
            "presets": [
                {"preset": p, "title": catalog.variant_title(selectors.preset_current(p).variant)}
                for p in selectors.preset_list(user=request.user, club_id=club_id)
            ],
            "can_keep_presets": _may(found.role, Role.TREASURER),
            **_club_money(request, club_id, found.role),
            **_club_night(request, found, found.role),
        },
        status=400 if past.errors else 200,
    )


PAST_PAGE = 20  # past sessions a page of the club's list


def _club_night(request: AuthedRequest, club: Club, role: str) -> dict[str, Any]:
    """Tonight's club night (issue 37): its link, whether the member is checked in, the last nights."""
    tonight = nights.night_of_today(user=request.user, club=club)
    here = tonight is not None and CheckIn.objects.filter(night=tonight, player__user=request.user).exists()
    return {
        "tonight": tonight,
        "tonight_here": here,
        "can_run_night": _may(role, Role.TREASURER),
        "recent_nights": list(nights.night_list(user=request.user, club_id=club.pk)[:5]),
        "calendar_feed": calendar.calendar_feed_of(user=request.user, club_id=club.pk),
    }


BOARD_PERIODS = [
    ("all", _("All time")),
    ("year", _("This year")),
    ("month", _("This month")),
    ("past-year", _("A past year")),
    ("past-month", _("A past month")),
]
BOARD_MEASURES = [("rating", _("Rating")), ("money", _("Money")), ("success", _("Success rate"))]


def _club_money(request: HttpRequest, club_id: int, role: str) -> dict[str, Any]:
    """The club page's money parts: the leaderboard's currencies (most used first) and the books' links."""
    dates = _board_dates(request, club_id)
    return {
        "board_periods": BOARD_PERIODS if dates["board_years"] else BOARD_PERIODS[:3],
        "board_measures": BOARD_MEASURES,
        **dates,
        "currencies": books.club_currencies(user=request.user, club_id=club_id),
        "can_keep_books": books.may_keep_books(role),
        "own_player": books.own_player(user=request.user, club_id=club_id),
    }


def _board_dates(request: HttpRequest, club_id: int) -> dict[str, Any]:
    """The years and months a past leaderboard may be asked for: those of the club's closed sessions
    (by their closing day, as the statistics date them), newest first."""
    closed = selectors.session_list(user=request.user, club=club_id, status=Session.Status.CLOSED)
    months = list(closed.order_by().dates("closed_at", "month", order="DESC"))
    years = sorted({m.year for m in months}, reverse=True)
    return {"board_years": years, "board_months": months}


@page
@require_POST
def player_new(request: AuthedRequest, club_id: int) -> HttpResponse:
    try:
        player = player_create(actor=request.user, club_id=club_id, name=request.POST.get("name", ""))
    except (NotFound, PermissionDenied):
        raise
    except (LedgerError, EngineError) as exc:
        messages.error(request, refusal_text(exc))
    else:
        messages.success(request, gettext("%(name)s joined the club's players.") % {"name": player.name})
    return redirect("web:club", club_id=club_id)


@page
def session_new(request: AuthedRequest, club_id: int) -> HttpResponse:
    found = selectors.club_get(user=request.user, club_id=club_id, role=Role.SCORER)
    posted = request.POST if request.method == "POST" else None
    form = NewSessionForm(posted, variant=request.GET.get("variant"))
    if form.is_valid() and (opened := open_session(request, form, club_id=club_id, **form.session())) is not None:
        return opened
    return render(
        request, "web/session_new.html", _session_new_context(request, found, form), status=400 if form.errors else 200
    )


def open_session(request: AuthedRequest, form: RefusableForm, **arguments: Any) -> HttpResponse | None:
    """`session_open` with a valid form's `arguments`, then the new session's scorer page; a
    refusal is put beside the form's fields (None: the form is shown again)."""
    try:
        session = session_open(actor=request.user, **arguments)
    except (NotFound, PermissionDenied):
        raise
    except (LedgerError, EngineError) as exc:
        form.refused(refusal_fields(exc))
        return None
    return redirect("web:score", session_id=session.pk)


def _session_new_context(request: AuthedRequest, club: Club, form: NewSessionForm) -> dict[str, Any]:
    claimable = [
        {"session": s, "carried": (s.closing or {}).get("carried"), "title": catalog.variant_title(s.variant)}
        for s in money_selectors.carried_pools(user=request.user, club_id=club.pk)
    ]
    opened = selectors.session_list(user=request.user, club=club.pk, status=Session.Status.OPEN)[:50]
    return {
        "club": club,
        **form_context(form),
        "players": list(selectors.player_list(user=request.user, club_id=club.pk)),
        "claimable": claimable,
        "open_tables": [
            {"session": s.pk, "players": sorted(p.pk for p in selectors.session_players(session=s))} for s in opened
        ],
        "other_errors": form.non_field_errors(),
        "seats": form.seats,
    }


def form_context(form: ConditionsForm) -> dict[str, Any]:
    """What the new-session and preset pages draw from their form: every variant's house rules, the
    chosen one open, and the errors (each beside its field, and all of them above the form)."""
    return {
        "form": form,
        "variants": variant_forms(form),
        "chosen": form.shown_variant,
        "errors": form.errors,
        "all_errors": [m for msgs in form.errors.values() for m in msgs],
    }


def variant_forms(form: ConditionsForm) -> list[dict[str, Any]]:
    """Every variant's house rules as the template draws them, from the fields the declaration made:
    the chosen variant's from `form` (with its errors), each other's from a form of its own over the
    same post (what was typed there again), unposted: the declared defaults, or a preset's rules."""
    variants = []
    for name, title in catalog.variant_choices():
        shown = form.rules_form(name)
        rows = []
        for rule in catalog.house_rules(name):
            field_name = rule_input_name(name, rule.name)
            value = shown[field_name].value()
            values = value if rule.nested else {rule.name: value}
            errors = form.errors.get(field_name) if shown is form else None
            inputs = [_rule_input(item, name, values[item.path]) for item in rule.inputs]
            rows.append({"rule": rule, "inputs": inputs, "errors": errors})
        variants.append({"name": name, "title": title, "rules": rows})
    return variants


def _rule_input(item: catalog.RuleInput, variant: str, value: Any) -> dict[str, Any]:
    """One house-rule input as the template draws it, at `value` (as posted, or initially)."""
    name = rule_input_name(variant, item.path)
    text = "" if value is None else str(value)
    return {
        "input": item,
        "name": name,
        "id": name.replace(".", "-"),
        "value": text,
        "checked": value is True,
        "choices": [{"value": str(c), "word": item.word(c), "selected": str(c) == text} for c in item.choices],
    }


def _int_or_none(text: str | None) -> int | None:
    try:
        return int(text) if text else None
    except ValueError:
        return None


# --- a session -------------------------------------------------------------------------------------


@page
def session(request: AuthedRequest, session_id: int) -> HttpResponse:
    found = selectors.session_get(user=request.user, session_id=session_id)
    role = selectors.club_role(user=request.user, club_id=found.club_id)
    if found.status == Session.Status.OPEN and _may(role, Role.SCORER):
        return redirect("web:score", session_id=session_id)
    if found.status == Session.Status.CLOSED:
        return redirect("web:settlement", session_id=session_id)
    return redirect("web:sheet", session_id=session_id)


@page
def score(request: AuthedRequest, session_id: int) -> HttpResponse:
    found = selectors.session_get(user=request.user, session_id=session_id)
    context = _session_context(request, found)
    deals = catalog.deal_table(found.variant, found.rules, found.first_dealer, found.hands_count + DEAL_LOOKAHEAD)
    first = selectors.session_first_hand(session=found) if found.hands_count else None
    legal.deal_bids(found.variant, found.rules, deals, first)
    config = {
        "session": found.pk,
        "club": found.club_id,
        "players": context["names"],
        "variant": catalog.scorer_variant(found.variant),
        "deals": deals,
        "legal": legal.scorer_legal(found.variant, found.rules),
        "can_close": context["can_close"],
        "can_score": context["can_score"],
        "role": context["role"],
        "user": request.user.get_username(),
        "api": {
            "session": f"/api/v1/sessions/{found.pk}/",
            "hands": f"/api/v1/sessions/{found.pk}/hands/",
            "sheet": f"/api/v1/sessions/{found.pk}/sheet/",
            "checks": f"/api/v1/sessions/{found.pk}/checks/",
            "settle": "/api/v1/settle/",
        },
        # The live channel (issue 25): the stream says the session's tag moved, the page reads again.
        "live": {
            "events": reverse("live-session", args=[found.pk]),
            "tag": live_tag(found.version, found.checks_version),
        },
        "service_worker": reverse("web:service-worker"),
        "pages": {
            "sheet": reverse("web:sheet", args=[found.pk]),
            "settlement": reverse("web:settlement", args=[found.pk]),
            "login": reverse("login") + "?next=" + request.path,
        },
    }
    left_out = legal.bids_left_out(found.variant, found.rules)
    return render(request, "web/score.html", {**context, "config": config, "bids_left_out": ", ".join(left_out)})


def _sheet_context(request: HttpRequest, session_id: int) -> dict[str, Any]:
    found = selectors.session_get(user=request.user, session_id=session_id)
    return sheet_context(found, selectors.club_role(user=request.user, club_id=found.club_id))


def sheet_context(found: Session, role: str) -> dict[str, Any]:
    """The score sheet page's context (the page, its PDF, and the PDF the evening's mail attaches)."""
    context = session_context(found, role)
    settlement = selectors.session_settlement(session=found)
    context["settlement"] = settlement
    context["rows"] = reads.sheet_rows(session=found, names=context["names"], settlement=settlement)
    context["deal_count"] = len(context["rows"])
    context["heartbeat"] = round(settings.LIVE_HEARTBEAT_SECONDS * 1000)  # the live channel's (sheet.js)
    context["multi_pool"] = get_variant(found.variant).multi_pool
    return context


@page
def sheet(request: AuthedRequest, session_id: int) -> HttpResponse:
    context = _sheet_context(request, session_id)
    context["seat_changes"] = selectors.seat_changes(session=context["session"])  # issue 37
    return render(request, "web/sheet.html", context)


@page
def sheet_pdf(request: AuthedRequest, session_id: int) -> HttpResponse:
    """The score sheet as a PDF (A4, or `?paper=letter`): the page's own template, printed."""
    context = _sheet_context(request, session_id)
    pdf = printing.template_pdf("web/sheet.html", context, request=request, size=printing.paper(request))
    return printing.pdf_response(pdf, gettext("score sheet %(n)s") % {"n": session_id})


@page
def sheet_rows(request: AuthedRequest, session_id: int) -> HttpResponse:
    """The sheet's table alone, for the page to swap in when it missed a live change (static/clubscore/
    sheet.js): 304 to `If-None-Match` with the session's live tag, read before anything is rendered."""
    found = selectors.session_get(user=request.user, session_id=session_id)
    tag = f'"{live_tag(found.version, found.checks_version)}"'
    if request.headers.get("If-None-Match", "").strip() == tag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = render(request, "web/_sheet_table.html", _sheet_context(request, session_id))
    response["ETag"] = tag
    response["Cache-Control"] = "no-cache"
    return response


@page
def settlement(request: AuthedRequest, session_id: int) -> HttpResponse:
    found = selectors.session_get(user=request.user, session_id=session_id)
    if request.method == "POST":
        return _settlement_action(request, found)
    response = render(request, "web/settlement.html", _settlement_context(request, found))
    response["Cache-Control"] = "no-store"
    return response


@page
def settlement_pdf(request: AuthedRequest, session_id: int) -> HttpResponse:
    """The settlement as a PDF (A4, or `?paper=letter`), with the debtors' payment codes."""
    found = selectors.session_get(user=request.user, session_id=session_id)
    context = _settlement_context(request, found)
    pdf = printing.template_pdf("web/settlement.html", context, request=request, size=printing.paper(request))
    return printing.pdf_response(pdf, gettext("settlement %(n)s") % {"n": session_id})


def _settlement_context(request: AuthedRequest, found: Session) -> dict[str, Any]:
    context = _session_context(request, found)
    result = selectors.session_settlement(session=found)
    close = result.get("close")
    parties = selectors.closing_players(session=found)  # the four by seat, then each substitute (issue 37)
    context.update(
        {
            "settlement": result,
            "close": close,
            "payments": reads.payments(close=close, names=[p.name for p in parties], player_ids=[p.pk for p in parties])
            if close
            else [],
            "deals": len(result["hands"]),
            "seats": _stint_rows(result, close)
            if close and "stints" in close
            else [
                {
                    "name": name,
                    "balance": result["balances"][i],
                    "division": close["division"][i] if close else None,
                    "final": close["final"][i] if close else None,
                    "money": close["money"][i] if close and "money" in close else None,
                }
                for i, name in enumerate(context["names"])
            ],
            "claimed_by": Session.objects.filter(carry_pools_from=found).values_list("pk", flat=True).first(),
            "evening_paid": money_selectors.evening_paid(session=found) if close else None,
            "can_keep_books": books.may_keep_books(context["role"]),
            **_disputes(found, context["names"]),
            "history": list(found.events.select_related("by").order_by("at", "id")),
            "played_at": played_at(found) if not close else None,
            "tied_payments": found.payments_for.filter(reversed_by__isnull=True).count() if close else 0,
            # a table of a night whose room is being paid: its own transfers are paid there (no record link)
            "paid_by_night": money_selectors.settled_by_night(session_id=found.pk) if close else None,
        }
    )
    if context["evening_paid"]:
        evening = context["evening_paid"]
        for line, paid in zip(context["payments"], evening.transfers, strict=False):
            line.paid, line.open, line.mark = paid.paid, paid.left, reads.paid_mark(paid, evening.currency)
        for debtor in evening.debtors:
            if debtor.party == POOL:
                debtor.name = reads.pool_name()
        for t in [*evening.back, *evening.tied]:
            t.payer_name, t.payee_name = (reads.pool_name() if n == POOL else n for n in (t.payer_name, t.payee_name))
        for tied in evening.tied:
            tied.label = str(books.PAYMENT_LABELS[tied.tx.kind])
    context["pay_codes"] = paycodes.evening_codes(found, context["players"]) if close else []
    return context


def _stint_rows(result: dict[str, Any], close: dict[str, Any]) -> list[dict[str, Any]]:
    """The close's rows when a seat changed hands (issue 37): one per player-stint, its own deals'
    counters, its share of the pools (the variant's custom) and its money."""
    rows = []
    for stint in close["stints"]:
        last = len(result["hands"]) if stint["to"] is None else stint["to"]
        own = sum(h["deltas"][stint["seat"]] for h in result["hands"][stint["from"] - 1 : last])
        if stint["to"] is None and stint["from"] == 1:
            label = stint["player"]
        elif stint["to"] is None:
            label = gettext("%(name)s, from deal %(first)s") % {"name": stint["player"], "first": stint["from"]}
        else:
            label = gettext("%(name)s, deals %(first)s–%(last)s") % {
                "name": stint["player"],
                "first": stint["from"],
                "last": stint["to"],
            }
        rows.append(
            {
                "name": label,
                "balance": own,
                "division": stint["final"] - own,
                "final": stint["final"],
                "money": stint.get("money"),
            }
        )
    return rows


def _disputes(found: Session, names: list[str]) -> dict[str, Any]:
    """The close page's disputes (issue 25): the open ones, which the treasurer resolves or overrules
    before the close, and the settled ones, with who and when."""
    disputed = [c for c in selectors.deal_checks(session=found, history=True) if c.state == "disputed"]
    waiting = [c for c in disputed if c.cleared_at is None and not c.outcome]
    rows = {}
    if waiting:  # each dispute shows its deal as recorded, so the treasurer can judge it (issue 38, item 11)
        hands = [h.settled for h in selectors.hand_list(session=found)]
        rows = {r.number: r for r in reads.sheet_rows(session=found, names=names, settlement={"hands": hands})}
    open_ = [
        {
            "number": c.number,
            "seat": c.seat,
            "name": names[c.seat],
            "check": c,
            "row": rows.get(c.number),
            "seats": list(zip(names, rows[c.number].deltas, strict=True)) if c.number in rows else [],
            # Claims lapse (002:189): the amend would be refused (409 claim_lapsed); say why and what to do.
            "lapsed": deal_notes.lapsed_words(c.number)
            if deal_notes.claims_lapse(found.rules) and c.number < found.hands_count
            else "",
        }
        for c in waiting
    ]
    settled = [{"number": c.number, "seat": c.seat, "name": names[c.seat], "check": c} for c in disputed if c.outcome]
    return {
        "disputes": open_,
        "settled_disputes": settled,
        "disputed_deals": sorted({d["number"] for d in open_}),
        "amend_url": reverse("web:score", args=[found.pk]),
    }


def _settlement_action(request: AuthedRequest, found: Session) -> HttpResponse:
    selectors.session_get(user=request.user, session_id=found.pk, role=Role.TREASURER)
    action = request.POST.get("action")
    version = _int_or_none(request.POST.get("version"))
    try:
        if action == "close" and request.POST.get("confirm") != "yes":
            messages.error(request, gettext("Not closed: tick “Every deal is recorded” to confirm the close."))
        elif action == "close":
            pools = request.POST.get("pools", "divide")
            session_close(
                actor=request.user,
                session_id=found.pk,
                pools=pools,
                expected_version=version,
                closed_at=_played_on(found, request.POST.get("played_on", "")),
            )
            messages.success(request, gettext("The session is closed and settled."))
        elif action == "reopen" and request.POST.get("confirm") != "yes":
            messages.error(request, gettext("Not reopened: tick the box that says what reopening undoes."))
        elif action == "reopen":
            session_reopen(actor=request.user, session_id=found.pk, expected_version=version)
            messages.success(request, gettext("The session is open again."))
        else:
            messages.error(request, gettext("Nothing to do: choose close or reopen."))
    except (NotFound, PermissionDenied):
        raise
    except DisputesOpen:  # a dispute came since the page was read: name its deal (issue 38, item 11)
        deals = _disputes(found, [p.name for p in selectors.session_players(session=found)])["disputed_deals"]
        said = ", ".join(str(n) for n in deals)
        messages.error(
            request,
            ngettext(
                "Not closed: deal %(deals)s is disputed. Amend it, or overrule its dispute below.",
                "Not closed: deals %(deals)s are disputed. Amend them, or overrule their disputes below.",
                len(deals),
            )
            % {"deals": said},
        )
    except (LedgerError, EngineError) as exc:
        messages.error(request, refusal_text(exc))
    return redirect("web:settlement", session_id=found.pk)


def _played_on(found: Session, typed: str) -> datetime | None:
    """The date a close gives the evening: None (the service keeps the date a reopen undid, or takes
    now) unless the treasurer typed another day than that one."""
    kept = played_at(found)
    if not typed or (kept is not None and timezone.localdate(kept).isoformat() == typed):
        return None
    return parse_closed_at(typed, closed=True, time_zone=found.club.time_zone)  # a day of the club's


# --- players -----------------------------------------------------------------------------------------


@page
@require_POST
def player_mail(request: AuthedRequest, player_id: int) -> HttpResponse:
    """The player's address and language for the evening's mail (the player himself, or a treasurer)."""
    try:
        player_mail_set(
            actor=request.user,
            player_id=player_id,
            email=request.POST.get("email", ""),
            language=request.POST.get("language", ""),
        )
    except (NotFound, PermissionDenied):
        raise
    except LedgerError as exc:
        say_refusal(request, exc)
    else:
        messages.success(request, gettext("The address for the evening's mail is saved."))
    return redirect(reverse("web:player", args=[player_id]) + "#player-mail")


@page
def player(request: AuthedRequest, player_id: int) -> HttpResponse:
    found = reads.player_get(user=request.user, player_id=player_id)
    results = reads.player_results(user=request.user, player=found)
    titles = {name: catalog.variant_title(name) for name in variant_names()}
    return render(
        request,
        "web/player.html",
        {
            "player": found,
            "club": found.club,
            "results": results,
            "titles": titles,
            "years": sorted(
                {localtime(r.session.closed_at).year for r in results.rows if r.final and r.session.closed_at},
                reverse=True,
            ),
            "can_see_statement": found.user_id == request.user.pk
            or books.may_keep_books(selectors.club_role(user=request.user, club_id=found.club_id)),
            "variant_totals": [
                {
                    "variant": v,
                    "title": titles.get(v, v),
                    "counters": c,
                    "sessions": results.sessions_by_variant.get(v, 0),
                }
                for v, c in results.counters_by_variant.items()
            ],
            "config": {
                "player": found.pk,
                "club": found.club_id,
                "stats": f"/api/v1/players/{found.pk}/stats/",
                "ratings": f"/api/v1/players/{found.pk}/ratings/",
                "series": results.series,
                "titles": titles,
                "bids": {v: {b: catalog.bid_label(v, b) for b in get_variant(v).bids} for v in variant_names()},
            },
        },
    )


# --- rules -------------------------------------------------------------------------------------------


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "web/rules_index.html", {"variants": catalog.variant_choices()})


def rules(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in variant_names():
        raise Http404("no such variant")
    return render(
        request, "web/rules.html", {"page": catalog.rules_page(variant), "variants": catalog.variant_choices()}
    )


# --- the scorer's service worker -----------------------------------------------------------------------


def service_worker(request: HttpRequest) -> HttpResponse:
    """static/clubscore/sw.js served from the site's root, so that it may control the scorer pages."""
    found = finders.find("clubscore/sw.js") or str(Path(settings.STATIC_ROOT) / "clubscore" / "sw.js")
    body = Path(found).read_text(encoding="utf-8")
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
