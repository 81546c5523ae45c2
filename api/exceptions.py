"""The API's own refusals, raised by its operations: each is a DRF exception with its status and code,
which the one error handler (`api.errors`) answers like every other.

Apart from `api.errors` so that what an operation raises and how every refusal is answered stay two
things: the handler renders a session for a `stale_number` (`api.sessions`), and the sessions' module
raises these through `api.common`, which would be an import circle if they lived in the handler's module.
"""

from __future__ import annotations

from rest_framework import exceptions as drf

from ledger.i18n import refusals


class PreconditionRequired(drf.APIException):
    status_code = 428
    default_code = "if_match_required"
    default_detail = refusals.IF_MATCH_REQUIRED


class IdempotencyKeyRequired(drf.APIException):
    status_code = 400
    default_code = "idempotency_key_required"
    default_detail = refusals.IDEMPOTENCY_KEY_REQUIRED


class IdempotencyConflict(drf.APIException):
    """409 idempotency_in_flight or 422 idempotency_key_reused."""

    def __init__(self, code: str) -> None:
        self.default_code = code
        if code == "idempotency_in_flight":
            self.status_code = 409
            detail = str(refusals.IDEMPOTENCY_IN_FLIGHT)
        else:
            self.status_code = 422
            detail = str(refusals.IDEMPOTENCY_KEY_REUSED)
        super().__init__(detail, code)
