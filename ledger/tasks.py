"""Celery tasks: thin wrappers around services (eager, in-process, when REDIS_URL is unset), and the
hand-over of a session's background work to them.

Every task here is safe to run twice: acks late (a worker killed mid-task leaves its message to be
delivered again), rejected back to the queue when its worker process is lost, retried a bounded
number of times with exponential backoff, and bounded in time (settings: CELERY_TASK_*).

`ledger.followup` is the work and knows nothing of Celery; this module wraps it and enqueues it, so the
import goes one way (tasks -> followup). The writes (`ledger.services`) import this module when they
first need it, so a process that never writes never imports Celery (clubscore/__init__.py).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db import transaction

from clubscore.celery import app
from ledger import followup
from ledger.models import Session

FOLLOWUP_MAX_RETRIES = 5

logger = logging.getLogger(__name__)


@app.task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(Exception,),
    max_retries=FOLLOWUP_MAX_RETRIES,
    retry_backoff=2,
    retry_backoff_max=300,
    retry_jitter=True,
    soft_time_limit=100,
    time_limit=120,
)
def session_followup(session_id: int) -> dict[str, Any] | None:
    """A session's background work after a close or reopen: its money, then every receiver of
    `ledger.background.session_changed` (`ledger.followup.followup_run`). Idempotent."""
    result = followup.followup_run(session_id=session_id)
    return result.as_json() if result is not None else None


@app.task(acks_late=True, soft_time_limit=100, time_limit=120)
def followup_catch_up() -> list[int]:
    """Celery beat: the background work of sessions left pending (the broker was down at the write)."""
    return followup.followup_catch_up()


def followup_request(*, session: Session) -> None:
    """Inside the writing transaction, with the session locked: its work is due at its version now, and
    `session_followup` is enqueued once the transaction commits."""
    session.followup_version = session.version
    Session.objects.filter(pk=session.pk).update(followup_version=session.version)
    transaction.on_commit(partial(followup_enqueue, session.pk), robust=True)


def followup_enqueue(session_id: int) -> bool:
    """Hand the session's follow-up to Celery. Never raises: a broker that is down (or, eagerly, a
    failing receiver) leaves the session pending for `followup_catch_up`."""
    try:
        session_followup.apply_async((session_id,), retry=False)
    except Exception:
        logger.warning(
            "session %s: its follow-up was not enqueued or failed; it stays pending for the periodic catch-up",
            session_id,
            exc_info=True,
        )
        return False
    return True


@app.task(ignore_result=True, expires=60)
def heartbeat() -> float:
    """Celery beat, every HEARTBEAT_SECONDS: a worker notes the time, which `/health/` reads."""
    from clubscore.health import write_heartbeat

    return write_heartbeat()


@app.task(acks_late=True, soft_time_limit=1800, time_limit=1900)
def nightly_backup() -> str:
    """Celery beat, nightly when BACKUP_DIR is set: one snapshot (`manage.py backup`), the last BACKUP_KEEP
    kept. How it went is kept for `/health/` (clubscore/health.py, `backup`), so a failure that comes
    back every night is seen there, not only in the worker's log (issue 39)."""
    from django.conf import settings

    from clubscore.health import write_backup_status
    from ledger.backup import backup_write

    try:
        snapshot = backup_write(folder=str(settings.BACKUP_DIR), keep=settings.BACKUP_KEEP)
    except Exception as exc:
        write_backup_status(ok=False, detail=f"{type(exc).__name__}: {exc}"[:500])
        raise
    write_backup_status(ok=True, detail=snapshot.name)
    return str(snapshot)
