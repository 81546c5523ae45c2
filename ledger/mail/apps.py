from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.apps import AppConfig

logger = logging.getLogger(__name__)


def evening_closed(sender: Any, *, session_id: int, **kwargs: Any) -> None:
    """The receiver of `session_changed`: a session closed by a treasurer (not imported closed: version 1)
    is handed to the mail task once the follow-up's work commits. Never raises: a broker that is down
    costs the mail, not the evening's statistics."""
    from django.conf import settings
    from django.db import transaction

    from ledger.models import Session

    if settings.EMAIL_BACKEND.endswith("smtp.EmailBackend") and not settings.EMAIL_HOST:
        return  # no SMTP server configured (docs/production.md): no mail

    found = Session.objects.filter(pk=session_id).values_list("status", "version").first()
    if found is None or found[0] != Session.Status.CLOSED or found[1] <= 1:
        return
    transaction.on_commit(partial(mail_enqueue, session_id, found[1]), robust=True)


def mail_enqueue(session_id: int, close_version: int) -> bool:
    from .tasks import evening_mail

    try:
        evening_mail.apply_async((session_id, close_version), retry=False)
    except Exception:
        logger.warning("session %s: its evening's mail was not enqueued or failed", session_id, exc_info=True)
        return False
    return True


class MailConfig(AppConfig):
    """The evening's mail: a receiver of the session's follow-up, a task, the opt-out link."""

    name = "ledger.mail"
    label = "evening_mail"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from ledger.background import session_changed

        session_changed.connect(evening_closed, dispatch_uid="evening-mail")
