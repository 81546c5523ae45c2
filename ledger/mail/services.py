"""The evening's mail, composed and sent (issue 41). `evening_mail_send` is the task's work.

At most once per player and close: the row (`EveningMail`) is written `sending` in its own transaction
before the message goes to the SMTP server, and only a `failed` row (the server could not be reached) is
tried again. A refused address (`SMTPRecipientsRefused`) marks the row and the player `bounced`: nothing
more goes to him until the treasurer gives another address. A player who opted out gets nothing.

A later close of the same evening (after a reopen) sends a correction to each player who had the first
mail, saying what changed for him (before → after).
"""

from __future__ import annotations

import datetime
import logging
import smtplib
from dataclasses import dataclass, field
from email.mime.image import MIMEImage
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from ledger import selectors
from ledger.currency import money_text
from ledger.i18n.account import language_of
from ledger.models import EveningMail, Player, Role, Session
from ledger.money import selectors as money_selectors
from ledger.paycode import PaymentCode, evening_code, evening_day, seat_owes
from ledger.stats import seasons
from ledger.web import printing, reads
from ledger.web.views import sheet_context

logger = logging.getLogger(__name__)

STOP_SALT = "clubscore.evening-mail.stop"


def stop_token(player_id: int) -> str:
    """The opt-out link's key: the player's id, signed (no login, never expires)."""
    return signing.dumps({"p": player_id}, salt=STOP_SALT)


def stop_player_id(token: str) -> int | None:
    try:
        value = signing.loads(token, salt=STOP_SALT)
    except signing.BadSignature:
        return None
    return int(value["p"]) if isinstance(value, dict) and isinstance(value.get("p"), int) else None


def season_place(player: Player, session: Session) -> str | None:
    """The player's place in the club's season of the evening's day, in words (`ledger.stats.seasons`);
    None (the line is left out of the mail) when the club has no season that day."""
    found = seasons.season_place(session.club_id, player.pk, datetime.date.fromisoformat(evening_day(session)))
    if found is None:
        return None
    season, rank = found
    if rank is None:
        return gettext("not ranked yet in %(season)s") % {"season": season.name}
    return gettext("number %(rank)s in %(season)s") % {"rank": rank, "season": season.name}


def address_of(player: Player) -> str:
    """The player's own address, else his login's."""
    if player.email:
        return player.email
    return player.user.email if player.user is not None and player.user.email else ""


def language_for(player: Player) -> str:
    """The player's language for the mail: his own, else his login's (the switcher's), else the site's."""
    offered = dict(settings.LANGUAGES)
    if player.language in offered:
        return player.language
    chosen = language_of(user=player.user) if player.user is not None else None
    return chosen if chosen in offered else settings.LANGUAGE_CODE


@dataclass
class Outcome:
    sent: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    bounced: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"sent": self.sent, "skipped": self.skipped, "bounced": self.bounced, "failed": self.failed}


class MailNotSent(Exception):
    """The SMTP server could not take some of the evening's mail: the task tries again."""


def evening_mail_send(*, session_id: int, close_version: int) -> dict[str, Any]:
    """Each player of the evening closed at `close_version` gets his mail (those not sent it yet). Raises
    `MailNotSent` after trying every player if the server failed for some (the task retries those)."""
    session = Session.objects.select_related("club").filter(pk=session_id).first()
    outcome = Outcome()
    if session is None or session.status != Session.Status.CLOSED or session.version != close_version:
        return outcome.as_json()  # reopened since: the next close sends its own
    players = selectors.session_players(session=session)
    sheets: dict[str, bytes] = {}  # the score sheet's PDF, drawn once per language
    for seat, player in enumerate(players):
        address = address_of(player)
        if not address or player.mail_stopped:
            outcome.skipped.append(player.pk)
            continue
        row = _claim(session, player, close_version, address)
        if row is None:
            outcome.skipped.append(player.pk)
            continue
        try:
            message = compose(session, seat, players, row, sheets)
            message.send()
        except smtplib.SMTPRecipientsRefused as exc:
            _bounced(row, player, str(exc))
            outcome.bounced.append(player.pk)
        except (smtplib.SMTPException, OSError) as exc:
            EveningMail.objects.filter(pk=row.pk).update(state=EveningMail.State.FAILED, error=str(exc)[:500])
            outcome.failed.append(player.pk)
        else:
            EveningMail.objects.filter(pk=row.pk).update(state=EveningMail.State.SENT, sent_at=timezone.now(), error="")
            outcome.sent.append(player.pk)
    if outcome.failed:
        raise MailNotSent(f"session {session_id}: the mail of players {outcome.failed} was not sent")
    return outcome.as_json()


def _claim(session: Session, player: Player, close_version: int, address: str) -> EveningMail | None:
    """The row to send, written `sending` before the server sees the message; None if it was sent (or is
    being sent, or bounced) already."""
    with transaction.atomic(durable=True):
        row, created = EveningMail.objects.select_for_update().get_or_create(
            session=session,
            player=player,
            close_version=close_version,
            defaults={"address": address, "language": language_for(player), "state": EveningMail.State.SENDING},
        )
        if not created and row.state != EveningMail.State.FAILED:
            return None
        if not created:
            row.state, row.address = EveningMail.State.SENDING, address
            row.save(update_fields=["state", "address"])
    return row


def _bounced(row: EveningMail, player: Player, error: str) -> None:
    with transaction.atomic(durable=True):
        EveningMail.objects.filter(pk=row.pk).update(state=EveningMail.State.BOUNCED, error=error[:500])
        Player.objects.filter(pk=player.pk).update(mail_stopped="bounced", mail_stopped_at=timezone.now())


# --- the message ------------------------------------------------------------------------------------------


def figures_of(session: Session, seat: int) -> dict[str, Any]:
    """What the mail says of the seat's evening, kept with the row for a later correction to compare."""
    close = session.closing or {}
    payments = [
        {"from": p["from"], "to": p["to"], "cents": int(p["cents"])}
        for p in close.get("payments", [])
        if seat in (p["from"], p["to"])
    ]
    return {
        "final": close.get("final", [0, 0, 0, 0])[seat],
        "money": close["money"][seat] if "money" in close else None,
        "owes": seat_owes(close, seat),
        "currency": close.get("currency"),
        "payments": payments,
    }


def _changes(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, str]]:
    """The lines of a correction: each figure of the player's that moved, before → after."""
    currency = after.get("currency") or before.get("currency")
    lines = []
    if before.get("final") != after.get("final"):
        lines.append(
            {"label": gettext("Final counters"), "before": str(before.get("final")), "after": str(after.get("final"))}
        )
    for key, label in (("money", gettext("Money")), ("owes", gettext("You pay"))):
        if before.get(key) != after.get(key) and currency:
            lines.append(
                {
                    "label": label,
                    "before": money_text(before.get(key) or 0, currency, with_currency=True),
                    "after": money_text(after.get(key) or 0, currency, with_currency=True),
                }
            )
    return lines


def compose(
    session: Session, seat: int, players: list[Player], row: EveningMail, sheets: dict[str, bytes] | None = None
) -> EmailMultiAlternatives:
    """The player's message in his language: a text body, the same as HTML, the score sheet's PDF, and
    the payment code as an image when he owes."""
    player = players[seat]
    with translation.override(row.language):
        context = _context(session, seat, players, row)
        subject = context["subject"]
        text = render_to_string("mail/evening.txt", context)
        html = render_to_string("mail/evening.html", context)
        sheets = {} if sheets is None else sheets
        if row.language not in sheets:
            sheets[row.language] = printing.template_pdf("web/sheet.html", sheet_context(session, Role.PLAYER))
        sheet = sheets[row.language]
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.address],
        headers={
            "List-Unsubscribe": f"<{context['stop_url']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
            "Content-Language": row.language,
            # For the club's own filters (and the tests): which evening, which close, which kind of mail.
            "X-Clubscore-Evening": f"{session.pk}.{row.close_version}",
            "X-Clubscore-Kind": str(context["kind"]),
        },
    )
    message.attach_alternative(html, "text/html")
    message.attach(f"score-sheet-{session.pk}.pdf", sheet, "application/pdf")
    code: PaymentCode | None = context["code"]
    if code is not None and code.has_code:
        image = MIMEImage(code.png(), "png")
        image.add_header("Content-ID", "<payment-code>")
        image.add_header("Content-Disposition", "inline", filename=f"payment-code-{session.pk}.png")
        message.attach(image)
    EveningMail.objects.filter(pk=row.pk).update(figures=figures_of(session, seat), kind=context["kind"])
    logger.info("session %s: the evening's mail to player %s", session.pk, player.pk)
    return message


def _context(session: Session, seat: int, players: list[Player], row: EveningMail) -> dict[str, Any]:
    player = players[seat]
    names = [p.name for p in players]
    settlement = selectors.session_settlement(session=session)
    close = session.closing or {}
    currency = close.get("currency")
    rows = reads.sheet_rows(session=session, names=names, settlement=settlement)
    played = [
        {"number": r.number, "bid": r.bid, "delta": r.deltas[seat], "total": r.balances[seat]}
        for r in rows
        if player.name in (r.bidder, r.partner)
    ]
    table = [
        {
            "name": name,
            "final": close.get("final", settlement["balances"])[i],
            "money": money_text(close["money"][i], currency, signed=True, with_currency=True)
            if currency and "money" in close
            else "",
            "me": i == seat,
        }
        for i, name in enumerate(names)
    ]
    payments = [
        {
            "text": gettext("%(payer)s pays %(payee)s %(amount)s")
            % {
                "payer": reads.pool_name() if p["from"] == "pool" else names[p["from"]],
                "payee": reads.pool_name() if p["to"] == "pool" else names[p["to"]],
                "amount": money_text(int(p["cents"]), currency, with_currency=True),
            },
            "mine": seat in (p["from"], p["to"]),
        }
        for p in close.get("payments", [])
        if currency
    ]
    balances = [
        {"currency": c, "text": money_text(cents, c, signed=True, with_currency=True)}
        for c, cents in money_selectors.statement_balances(player=player).items()
    ]
    earlier = (
        EveningMail.objects.filter(
            session=session, player=player, close_version__lt=row.close_version, state=EveningMail.State.SENT
        )
        .order_by("-close_version")
        .first()
    )
    kind = EveningMail.Kind.CORRECTION if earlier is not None else EveningMail.Kind.RESULT
    changes = _changes(earlier.figures, figures_of(session, seat)) if earlier is not None else []
    code = evening_code(session, seat, player.name)
    day = evening_day(session)
    site = settings.SITE_URL
    subject = (
        gettext("Correction: %(club)s, the evening of %(day)s (#%(n)s)")
        if kind == EveningMail.Kind.CORRECTION
        else gettext("%(club)s: your evening of %(day)s (#%(n)s)")
    ) % {"club": session.club.name, "day": day, "n": session.pk}
    return {
        "subject": subject,
        "kind": kind,
        "correction": kind == EveningMail.Kind.CORRECTION,
        "changes": changes,
        "player": player,
        "club": session.club,
        "session": session,
        "day": day,
        "deals": len(rows),
        "played": played,
        "table": table,
        "currency": currency,
        "payments": payments,
        "my_money": money_text(close["money"][seat], currency, signed=True, with_currency=True)
        if currency and "money" in close
        else "",
        "balances": balances,
        "season": season_place(player, session),
        "code": code,
        "owes": money_text(code.cents, code.currency, with_currency=True) if code is not None else "",
        "stop_url": site + reverse("evening-mail-stop", args=[stop_token(player.pk)]),
        "settlement_url": site + reverse("web:settlement", args=[session.pk]),
    }
