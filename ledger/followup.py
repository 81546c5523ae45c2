"""A session's background work: what runs after a close, a reopen, or the import of a closed session.

1. The write (`ledger.services`) calls `ledger.tasks.followup_request` inside its transaction: the
   session's work is now due at its new version (`Session.followup_version`), and the task
   `ledger.tasks.session_followup` is enqueued once the transaction commits (`transaction.on_commit`),
   so a worker never looks for a session that is not there yet. This module is the work itself and
   knows nothing of Celery; `ledger.tasks` wraps it and hands it over (no import circle between them).
2. The task runs `followup_run`: the money ledger's difference for the session's current state
   (`ledger.money.services.session_money_post`), then the receivers of the signal
   `ledger.background.session_changed` (the statistics), then marks the work done up to the version
   it started from (`followup_done_version`). Each step is idempotent, so a redelivered task (acks
   late: a worker killed mid-task leaves its message to be delivered again), a retry, or two runs at
   once have the effect of one.
3. If the broker cannot take the task (Redis is down), `ledger.tasks.followup_enqueue` logs it and returns: the
   write has committed and stands, and the session stays `pending`. The periodic `followup_catch_up`
   (Celery beat, `FOLLOWUP_CATCH_UP_SECONDS`) runs the work of every session left pending for more than
   `FOLLOWUP_GRACE_SECONDS`.

Without REDIS_URL, Celery runs the task eagerly, in the request, right after the commit.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .background import receiver_name, session_changed
from .models import Session
from .money import services as money_services

logger = logging.getLogger(__name__)


def background_state(session: Session) -> str:
    """`pending` while the work of the session's last close or reopen has not run; else `done`."""
    return "pending" if session.background_pending else "done"


@dataclass(frozen=True)
class FollowupResult:
    session_id: int
    version: int
    posted: list[int] = field(default_factory=list)
    reversed: list[int] = field(default_factory=list)
    receivers: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "session": self.session_id,
            "version": self.version,
            "posted": self.posted,
            "reversed": self.reversed,
            "receivers": self.receivers,
        }


def followup_run(*, session_id: int) -> FollowupResult | None:
    """The session's background work for its current state; None if there is no such session.

    Not one transaction: the money posting and each receiver commit on their own (each is idempotent).
    If a receiver raises, the work is not marked done and the exception goes to the caller (the task
    retries it; the catch-up runs it again later).
    """
    sync = money_services.session_money_post(session_id=session_id)
    if sync is None:
        return None
    ran = session_changed.send(sender=Session, session_id=session_id)
    names = [receiver_name(receiver) for receiver, _ in ran]
    with transaction.atomic(durable=True):
        Session.objects.filter(pk=session_id, followup_done_version__lt=sync.version).update(
            followup_done_version=sync.version, followup_done_at=timezone.now()
        )
    return FollowupResult(session_id, sync.version, sync.posted, sync.reversed, names)


def followup_due(*, grace_seconds: float | None = None, limit: int = 100) -> list[int]:
    """Sessions whose work is pending and whose last write is older than the grace (oldest first)."""
    grace = settings.FOLLOWUP_GRACE_SECONDS if grace_seconds is None else grace_seconds
    cutoff = timezone.now() - timedelta(seconds=grace)
    due = Session.objects.filter(followup_done_version__lt=F("followup_version"), updated_at__lte=cutoff)
    return list(due.order_by("updated_at", "id").values_list("pk", flat=True)[:limit])


def followup_catch_up(
    *, grace_seconds: float | None = None, limit: int = 100, budget_seconds: float | None = None
) -> list[int]:
    """Run the work of the sessions left pending (the broker was down, a task gave up): up to `limit`
    of them, oldest first, stopping once `budget_seconds` have passed. Returns the ids it completed;
    one session's failure is logged and does not stop the others."""
    budget = settings.FOLLOWUP_CATCH_UP_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    deadline = time.monotonic() + budget
    done = []
    for session_id in followup_due(grace_seconds=grace_seconds, limit=limit):
        if time.monotonic() > deadline:
            break
        try:
            followup_run(session_id=session_id)
        except Exception:
            logger.exception("session %s: the periodic catch-up of its follow-up failed", session_id)
            continue
        done.append(session_id)
    return done
