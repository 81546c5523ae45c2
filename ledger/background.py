"""What runs in the background after a session changes: the club's money ledger, the statistics.

Services never call these directly. After a close, a reopen or an amendment of a closed session
commits, the session's follow-up task (`ledger.tasks`) runs every handler registered here, in
registration order, with the session's id. Each handler must be idempotent: it recomputes its
projection of that session from the hands, so running it twice (a redelivered task, the periodic
catch-up) has the effect of running it once.
"""

from __future__ import annotations

from collections.abc import Callable

SessionHandler = Callable[[int], None]
_HANDLERS: list[tuple[str, SessionHandler]] = []


def on_session_change(name: str) -> Callable[[SessionHandler], SessionHandler]:
    """Register `fn(session_id)` under `name` (registering a name again replaces it)."""

    def register(fn: SessionHandler) -> SessionHandler:
        for i, (existing, _) in enumerate(_HANDLERS):
            if existing == name:
                _HANDLERS[i] = (name, fn)
                break
        else:
            _HANDLERS.append((name, fn))
        return fn

    return register


def session_handlers() -> list[tuple[str, SessionHandler]]:
    return list(_HANDLERS)
