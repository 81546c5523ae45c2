"""Celery tasks: thin wrappers around services (eager, in-process, when REDIS_URL is unset).

Every task here is safe to run twice: acks late (a worker killed mid-task leaves its message to be
delivered again), rejected back to the queue when its worker process is lost, retried a bounded
number of times with exponential backoff, and bounded in time (settings: CELERY_TASK_*).
"""

from __future__ import annotations

from typing import Any

from clubscore.celery import app
from ledger import followup

FOLLOWUP_MAX_RETRIES = 5


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


@app.task(ignore_result=True, expires=60)
def heartbeat() -> float:
    """Celery beat, every HEARTBEAT_SECONDS: a worker notes the time, which `/health/` reads."""
    from clubscore.health import write_heartbeat

    return write_heartbeat()


@app.task(acks_late=True, soft_time_limit=1800, time_limit=1900)
def nightly_backup() -> str:
    """Celery beat, nightly when BACKUP_DIR is set: one snapshot (`manage.py backup`), the last BACKUP_KEEP kept."""
    from django.conf import settings

    from ledger.backup import backup_write

    return str(backup_write(folder=str(settings.BACKUP_DIR), keep=settings.BACKUP_KEEP))
