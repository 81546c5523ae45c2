"""The production web server's worker (clubscore/gunicorn_conf.py): uvicorn's, with a bound on its
graceful stop.

On SIGTERM uvicorn stops accepting, lets the requests in hand finish, and waits for every one of them
with no limit of its own; an open event stream (a follower's page, the scorer's live channel) never
finishes, so each restart waited for gunicorn's `graceful_timeout` (20 s) and its SIGKILL. An upgrade
drains a web server first (Caddy sends it nothing new, bin/production), so what it still holds after
STREAM_GRACE_SECONDS is streams: they are cut then and reconnect to another web server, and the
upgrade goes on 15 s sooner per web server (issue 39).
"""

from __future__ import annotations

from typing import Any

from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]

STREAM_GRACE_SECONDS = 5


class Worker(UvicornWorker):
    CONFIG_KWARGS: dict[str, Any] = {**UvicornWorker.CONFIG_KWARGS, "timeout_graceful_shutdown": STREAM_GRACE_SECONDS}
