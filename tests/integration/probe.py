"""A receiver of `ledger.background.session_changed` for the tests, connected when this module is
imported (the test worker imports it with `celery worker --include tests.integration.probe`).

It does nothing unless CLUBSCORE_PROBE_DIR names a directory. Then each run appends the session's id
to `runs` in it; a file `fail` there makes it raise; a file `hold` makes it write `held-<session>-<pid>`
and wait (up to a minute) until `hold` is gone: a task caught in the middle, for a test to kill.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from ledger.background import session_changed

HOLD_SECONDS = 60


def probe_dir() -> Path | None:
    value = os.environ.get("CLUBSCORE_PROBE_DIR")
    return Path(value) if value else None


def probe(sender: Any, *, session_id: int, **kwargs: Any) -> None:
    where = probe_dir()
    if where is None:
        return
    if (where / "fail").exists():
        raise RuntimeError(f"probe: told to fail for session {session_id}")
    if (where / "hold").exists():
        (where / f"held-{session_id}-{os.getpid()}").touch()
        deadline = time.monotonic() + HOLD_SECONDS
        while (where / "hold").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    with open(where / "runs", "a", encoding="utf-8") as log:
        log.write(f"{session_id}\n")


session_changed.connect(probe, dispatch_uid="probe")


def runs(where: Path) -> list[int]:
    path = where / "runs"
    return [int(line) for line in path.read_text(encoding="utf-8").split()] if path.exists() else []
