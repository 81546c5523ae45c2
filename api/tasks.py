"""Celery tasks of the API: forgetting old Idempotency-Keys (Celery beat, hourly)."""

from __future__ import annotations

from clubscore.celery import app
from ledger.idempotency import idempotency_purge as purge


@app.task
def idempotency_purge() -> int:
    """Forget the Idempotency-Keys past their keeping time (settings.IDEMPOTENCY_KEEP_HOURS)."""
    return purge()
