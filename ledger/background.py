"""What runs in the background after a session changes: the club's money ledger, then the receivers
of `session_changed` (the statistics, `ledger.stats`).

Services never call these directly. After a close, a reopen, or the import of a closed session
commits (hands are amended only in open sessions), the session's follow-up task (`ledger.tasks`)
posts its money and then sends `session_changed` with the session's id; its receivers run in the
order they connected. Each must be idempotent: it recomputes its projection of that session from
the hands, so running it twice (a redelivered task, the periodic catch-up) has the effect of running
it once. A receiver that raises stops the others and leaves the work pending (`Signal.send`, not
`send_robust`): the task retries it.

Connect a module-level function (signals hold receivers weakly) with a `dispatch_uid`, so importing
its module twice connects it once:

    session_changed.connect(refresh, dispatch_uid="stats")

and write it as `def refresh(sender, *, session_id, **kwargs)`; the sender is `Session`.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import Signal

session_changed = Signal()


def receiver_name(receiver: Any) -> str:
    """How the follow-up's result names a receiver that ran: its module and name."""
    return f"{receiver.__module__}.{receiver.__qualname__}"
