"""Celery tasks: thin wrappers around services (eager, in-process, when REDIS_URL is unset)."""

from __future__ import annotations

from celery import shared_task

from ledger import services


@shared_task
def idempotency_purge() -> int:
    """Forget the Idempotency-Keys past their keeping time (settings.IDEMPOTENCY_KEEP_HOURS)."""
    return services.idempotency_purge()
