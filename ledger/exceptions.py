"""The ledger's refusals. Each has the `code` of `api.md`; the API's one error handler maps them to
their HTTP status. (The engine's own refusals are `ledger.engine.EngineError`.)"""

from __future__ import annotations

from typing import Any


class LedgerError(Exception):
    code = "invalid_request"
    default_message = "the request is not valid"

    def __init__(self, message: str | None = None, fields: dict[str, list[str]] | None = None) -> None:
        self.message = message or self.default_message
        self.fields = fields or {}
        super().__init__(self.message)


class InvalidRequest(LedgerError):
    code = "invalid_request"

    @classmethod
    def field(cls, name: str, message: str) -> InvalidRequest:
        return cls(message, {name: [message]})


class NotFound(LedgerError):
    code = "not_found"
    default_message = "not found"


class PermissionDenied(LedgerError):
    code = "permission_denied"
    default_message = "your role in this club does not allow this"


class SessionClosed(LedgerError):
    code = "session_closed"
    default_message = "the session is closed: reopen it first"


class SessionNotClosed(LedgerError):
    code = "session_not_closed"
    default_message = "the session is open: only a closed session can be reopened"


class NotLastHand(LedgerError):
    code = "not_last_hand"
    default_message = "only the last hand can be undone"


class ClaimLapsed(LedgerError):
    """Russian `claims_lapse` (rules.md §0.11, 002:189): a deal is closed to claims once the next is recorded."""

    code = "claim_lapsed"
    default_message = "this deal can no longer be amended: claims lapse once the next deal is recorded"


class SeatChanged(LedgerError):
    """A substitute for a seat that another request has just given away from the same deal (issue 37)."""

    code = "seat_changed"
    default_message = "this seat already changes hands at the next deal"


class PoolsClaimed(LedgerError):
    code = "pools_claimed"
    default_message = "the carried pools are already claimed by another session"


class VersionMismatch(LedgerError):
    code = "version_mismatch"
    default_message = "the session has changed since that version"


class DisputesOpen(LedgerError):
    """A close while a deal's dispute waits for the treasurer (issue 25)."""

    code = "disputes_open"
    default_message = "a deal is disputed: the treasurer resolves or overrules each dispute before the close"


class StaleNumber(LedgerError):
    """The posted deal number is below the next one: another device recorded it."""

    code = "stale_number"

    def __init__(self, message: str, session: Any) -> None:
        super().__init__(message, {"number": [message]})
        self.session = session


class NightDrawn(LedgerError):
    """A second draw of a night's tables (issue 37): a draw is made once, its seed kept."""

    code = "night_drawn"
    default_message = "the tables of this night are drawn already"


class GameMoved(LedgerError):
    """A cut-in for a game the table has left (issue 37): another tap, or another treasurer, cut in first."""

    code = "game_moved"
    default_message = "this table has moved on to its next game: read the night again"


class SettledByNight(LedgerError):
    """A payment of a table's own transfer while its night's room settlement is being paid (issue 37,
    follow-up): the room's payments count that table already, so paying it on its own would pay twice.
    `night` is the night whose settlement to pay from."""

    code = "settled_by_night"

    def __init__(self, message: str, night: Any) -> None:
        super().__init__(message, {"session": [message]})
        self.night = night


class KeyInFlight(LedgerError):
    """The Idempotency-Key's first request is still running (`ledger.idempotency`)."""

    code = "idempotency_in_flight"
    default_message = "the first request with this Idempotency-Key is still running: retry in a moment"


class KeyReused(LedgerError):
    """The Idempotency-Key was used with another body (`ledger.idempotency`)."""

    code = "idempotency_key_reused"
    default_message = "this Idempotency-Key was used with another body"
