"""The locks every write of a session or club takes, and the checks made under them."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import OuterRef, QuerySet, Subquery

from ledger.exceptions import (
    NotFound,
    SessionClosed,
    VersionMismatch,
)
from ledger.models import (
    Club,
    Membership,
    Session,
)
from ledger.selectors import (
    role_check,
)


def lock_club(club_id: int) -> None:
    """Lock the club's row until the transaction ends: its players are made one at a time (NO KEY: rows
    that refer to the club, a money write's, are not held up by it)."""
    list(Club.objects.select_for_update(no_key=True).filter(pk=club_id).values_list("pk", flat=True))


def lock_sessions(*ids: int) -> dict[int, Session]:
    """Lock the session rows in primary-key order (so concurrent writers never deadlock)."""
    rows = Session.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk")
    return {s.pk: s for s in rows}


def lock_session(session_id: int, actor: User, role: str) -> Session:
    """Lock the session and read the actor's role in its club in the same statement (one round trip
    on every write: recording a hand is the hot path, bench/api.py).

    FOR NO KEY UPDATE, not FOR UPDATE: writers of the session still queue, but a transaction that only
    references the row (a foreign key check takes FOR KEY SHARE) does not wait for them, which closed a
    deadlock between a reopen and the close's background work (docs/decisions.md)."""
    return locked(locking(session_id, actor.pk).first(), role)


def locking(session_id: int, user_id: int) -> QuerySet[Session]:
    member = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=user_id).values("role")[:1]
    return (
        Session.objects.select_for_update(of=("self",), no_key=True)
        .annotate(actor_role=Subquery(member))
        .filter(pk=session_id)
    )


def locked(session: Session | None, role: str) -> Session:
    found = getattr(session, "actor_role", None)  # the annotation of `locking`
    if session is None or found is None:
        raise NotFound("no such session")
    role_check(found=found, role=role)
    return session


def check_open(session: Session) -> None:
    if session.status == Session.Status.CLOSED:
        raise SessionClosed()


def check_version(session: Session, expected_version: int | None) -> None:
    if expected_version != session.version:
        raise VersionMismatch(f"the session is at version {session.version}, not {expected_version}")
