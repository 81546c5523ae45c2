"""The API's own refusal words (api/errors.py) and the ledger's fixed ones, in this package's catalog.

They live here, not in api/ or ledger/, so that `makemessages` files them with the engine's words
(ledger/i18n/locale) and not in the pages' catalog. `code`, `hand` and the field keys never change;
only these texts follow the request's language.
"""

from __future__ import annotations

from django.utils.translation import pgettext, pgettext_lazy

IF_MATCH_REQUIRED = pgettext_lazy("api", 'this write needs If-Match: "<version>", the session version it was based on')
IDEMPOTENCY_KEY_REQUIRED = pgettext_lazy(
    "api", "recording a hand needs an Idempotency-Key header: a UUID the client generates"
)
IDEMPOTENCY_IN_FLIGHT = pgettext_lazy(
    "api", "the first request with this Idempotency-Key is still running: retry in a moment"
)
IDEMPOTENCY_KEY_REUSED = pgettext_lazy("api", "this Idempotency-Key was used with another body")
NOT_VALID = pgettext_lazy("api", "the request is not valid")
TOO_LARGE = pgettext_lazy("api", "the request body is larger than {limit} bytes")
NO_SUCH_RESOURCE = pgettext_lazy("api", "no such resource: {path}")
CSRF_FAILED = pgettext_lazy("api", "CSRF check failed: {reason}")
SERVER_ERROR = pgettext_lazy("api", "the server failed to answer; the error is logged")
BAD_REQUEST = pgettext_lazy("api", "bad request")
FORBIDDEN = pgettext_lazy("api", "forbidden")

# The ledger's refusals whose text has no parameter (ledger/exceptions.py's defaults and the fixed
# ones raised by the services and selectors): translated by their English, context "ledger". A text
# with numbers in it is not here and stays English.
LEDGER = (
    pgettext_lazy("ledger", "the request is not valid"),
    pgettext_lazy("ledger", "not found"),
    pgettext_lazy("ledger", "your role in this club does not allow this"),
    pgettext_lazy("ledger", "the session is closed: reopen it first"),
    pgettext_lazy("ledger", "the session is open: only a closed session can be reopened"),
    pgettext_lazy("ledger", "only the last hand can be undone"),
    pgettext_lazy("ledger", "the carried pools are already claimed by another session"),
    pgettext_lazy("ledger", "the session has changed since that version"),
    pgettext_lazy("ledger", "no such club"),
    pgettext_lazy("ledger", "no such session"),
    pgettext_lazy("ledger", "no such session in this club"),
    pgettext_lazy("ledger", "no such player"),
    pgettext_lazy("ledger", "no such variant"),
    pgettext_lazy("ledger", "no such payment in this club"),
    pgettext_lazy("ledger", "no such device token"),
    pgettext_lazy("ledger", "a player's statement is for the player and the club's treasurers"),
)


def ledger_text(english: str) -> str:
    """A ledger refusal's text in the active language (itself when the catalog does not have it)."""
    return pgettext("ledger", english)
