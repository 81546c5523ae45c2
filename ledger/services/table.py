"""The whole table (issue 25): each seat's confirmation or dispute of a deal, the treasurer's word on a
dispute, the seat links and the room board's links."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ledger.exceptions import (
    DisputesOpen,
    InvalidRequest,
    NotFound,
    PermissionDenied,
)
from ledger.live import CHECK, announce, announce_revoked, link_channel
from ledger.models import (
    BoardLink,
    DealCheck,
    Role,
    Seat,
    SeatLink,
    Session,
)
from ledger.names import NAME_MAX
from ledger.selectors import (
    club_role,
    token_hash,
)
from ledger.services.locks import check_open, lock_session

# --- the whole table (issue 25): confirmations, disputes, seat and board links ------------------------

REASON_MAX = 200
LINK_KEY_BYTES = 18  # 24 URL-safe characters: a short link that cannot be guessed


def clear_checks(session: Session, number: int) -> None:
    """An amend or undo of deal `number` asks its seats again: their checks are cleared (kept as history)."""
    DealCheck.objects.filter(session=session, number=number, cleared_at__isnull=True).update(cleared_at=timezone.now())


def check_no_open_dispute(session: Session) -> None:
    found = (
        DealCheck.objects.filter(session=session, state=DealCheck.State.DISPUTED, cleared_at__isnull=True, outcome="")
        .order_by("number", "seat")
        .first()
    )
    if found is not None:
        raise DisputesOpen(fields={"disputes": [f"deal {found.number} is disputed by seat {found.seat + 1}"]})


def _clean_reason(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest.field("reason", "say in a few words what is not right")
    text = " ".join(value.split())
    if len(text) > REASON_MAX:
        raise InvalidRequest.field("reason", f"a reason has at most {REASON_MAX} characters")
    return text


def _lock_for_link(link: SeatLink) -> Session:
    session = Session.objects.select_for_update(no_key=True).filter(pk=link.session_id).first()
    if session is None:
        raise NotFound("no such session")
    return session


def _own_seat(session: Session, actor: User) -> int:
    seat = Seat.objects.filter(session=session, player__user_id=actor.pk).values_list("seat", flat=True).first()
    if seat is None:
        raise PermissionDenied("only a player seated at this table confirms or disputes its deals")
    return seat


def deal_check(
    *,
    session_id: int,
    number: int,
    state: str,
    reason: Any = "",
    actor: User | None = None,
    link: SeatLink | None = None,
) -> DealCheck:
    """One seat's ✓ or dispute of deal `number`: a club member for his own seat, or a seat link for its seat.

    Idempotent: the same word again changes nothing. A seat may change its word (a ✓ after a dispute
    withdraws it); the earlier one is kept, cleared. The table is never held up: nothing waits for it."""
    if state not in DealCheck.State.values:
        raise InvalidRequest.field("state", "a check is confirmed or disputed")
    text = _clean_reason(reason) if state == DealCheck.State.DISPUTED else ""
    with transaction.atomic(durable=True):
        if link is not None:
            session, seat = _lock_for_link(link), link.seat
        elif actor is not None:
            session = lock_session(session_id, actor, Role.PLAYER)
            seat = _own_seat(session, actor)
        else:
            raise NotFound("no such session")
        check_open(session)
        if not 1 <= number <= session.hands_count:
            raise NotFound(f"the session has no hand {number}")
        live = DealCheck.objects.filter(session=session, number=number, seat=seat, cleared_at__isnull=True).first()
        if live is not None and live.state == state and live.reason == text:
            return live
        now = timezone.now()
        if live is not None:
            live.cleared_at = now
            live.save(update_fields=["cleared_at"])
        check = DealCheck.objects.create(
            session=session, number=number, seat=seat, state=state, reason=text, by=actor, by_link=link, at=now
        )
        _bump_checks(session, number)
    return check


def dispute_settle(*, actor: User, session_id: int, number: int, seat: int, outcome: str, note: Any = "") -> DealCheck:
    """The treasurer's word on an open dispute: resolved (put right, or agreed) or overruled (the deal
    stands as recorded); who and when are kept on it. Idempotent for the same outcome."""
    if outcome not in DealCheck.Outcome.values:
        raise InvalidRequest.field("outcome", '`outcome` must be "resolved" or "overruled"')
    if not isinstance(note, str):
        raise InvalidRequest.field("note", "a note is a string")
    note = " ".join(note.split())
    if len(note) > REASON_MAX:
        raise InvalidRequest.field("note", f"a note has at most {REASON_MAX} characters")
    with transaction.atomic(durable=True):
        session = lock_session(session_id, actor, Role.TREASURER)
        dispute = DealCheck.objects.filter(
            session=session, number=number, seat=seat, state=DealCheck.State.DISPUTED, cleared_at__isnull=True
        ).first()
        if dispute is None:
            raise NotFound(f"no open dispute of seat {seat + 1} on deal {number}")
        if dispute.outcome:
            if dispute.outcome == outcome:
                return dispute
            raise InvalidRequest.field("outcome", "this dispute is already settled")
        dispute.outcome = outcome
        dispute.note = note
        dispute.settled_by = actor
        dispute.settled_at = timezone.now()
        dispute.save(update_fields=["outcome", "note", "settled_by", "settled_at"])
        _bump_checks(session, number)
    return dispute


def _bump_checks(session: Session, number: int) -> None:
    session.checks_version += 1
    session.save(update_fields=["checks_version"])
    announce(session, moved=CHECK, deals=[number])


def seat_link_issue(*, actor: User, session_id: int, seat: Any) -> tuple[str, SeatLink]:
    """A link for one seat of one open session (scorers and above); the key is shown once, kept hashed."""
    if type(seat) is not int or not 0 <= seat <= 3:
        raise InvalidRequest.field("seat", "a seat is 0, 1, 2 or 3")
    with transaction.atomic(durable=True):
        session = lock_session(session_id, actor, Role.SCORER)
        check_open(session)
        return seat_link_add(actor=actor, session=session, seat=seat)


def seat_link_add(*, actor: User, session: Session, seat: int) -> tuple[str, SeatLink]:
    """`seat_link_issue`'s write, inside the caller's transaction (a night's draw readies its tables' links)."""
    key = secrets.token_urlsafe(LINK_KEY_BYTES)
    link = SeatLink.objects.create(session=session, seat=seat, key_hash=token_hash(key), created_by=actor)
    return key, link


def seat_link_revoke(*, actor: User, session_id: int, link_id: int) -> None:
    with transaction.atomic(durable=True):
        lock_session(session_id, actor, Role.SCORER)
        revoked = SeatLink.objects.filter(pk=link_id, session_id=session_id, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        if revoked:
            announce_revoked(link_channel("seat", link_id))  # its open streams end (ledger/live.py)
    if not revoked:
        raise NotFound("no such seat link")


def board_link_issue(*, actor: User, club_id: int, label: Any = "") -> tuple[str, BoardLink]:
    """A read-only link to the club's room board (admins); the key is shown once, kept hashed."""
    if not isinstance(label, str):
        raise InvalidRequest.field("label", "a label is a string")
    label = " ".join(label.split())
    if len(label) > NAME_MAX:
        raise InvalidRequest.field("label", f"a name has at most {NAME_MAX} characters")
    key = secrets.token_urlsafe(LINK_KEY_BYTES)
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.ADMIN)
        link = BoardLink.objects.create(club_id=club_id, label=label, key_hash=token_hash(key), created_by=actor)
    return key, link


def board_link_revoke(*, actor: User, club_id: int, link_id: int) -> None:
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.ADMIN)
        revoked = BoardLink.objects.filter(pk=link_id, club_id=club_id, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        if revoked:
            announce_revoked(link_channel("board", link_id))
    if not revoked:
        raise NotFound("no such board link")
