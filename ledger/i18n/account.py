"""The language remembered for a user (issue 17): written when a logged-in user uses the switcher, read
on every request before the cookie, so the choice follows the user to another browser or device.

The write and the read of `Account.language` (ledger.models) are here, with the language code they
accept, rather than in ledger/services/ and selectors.py: nothing else of the ledger uses them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from ledger.models import Account


def is_offered(code: Any) -> bool:
    return isinstance(code, str) and code in dict(settings.LANGUAGES)


def language_remember(*, user: Any, language: str) -> None:
    """Remember `language` (one of `settings.LANGUAGES`) for `user`; anything else is ignored."""
    if not is_offered(language):
        return
    Account.objects.update_or_create(user=user, defaults={"language": language})


def language_of(*, user: Any) -> str | None:
    """The language `user` chose with the switcher, or None (anonymous, or never chosen)."""
    if not getattr(user, "is_authenticated", False):
        return None
    language = Account.objects.filter(user=user).values_list("language", flat=True).first()
    return language if is_offered(language) else None
