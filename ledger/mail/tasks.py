"""The evening's mail as a Celery task: acks late, retried with backoff while the SMTP server cannot be
reached; what was sent is recorded per player and close (`EveningMail`), so a retry sends only the rest."""

from __future__ import annotations

from typing import Any

from clubscore.celery import app

MAIL_MAX_RETRIES = 6


@app.task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(Exception,),
    max_retries=MAIL_MAX_RETRIES,
    retry_backoff=30,
    retry_backoff_max=1800,
    retry_jitter=True,
    soft_time_limit=100,
    time_limit=120,
)
def evening_mail(session_id: int, close_version: int) -> dict[str, Any]:
    """Send the evening's mail of the close at `close_version` to each player not yet sent it."""
    from .services import evening_mail_send

    return evening_mail_send(session_id=session_id, close_version=close_version)
