"""gunicorn's settings for the production web server (bin/production, issue 27): uvicorn's ASGI
workers serving `clubscore.asgi:application` behind Caddy, from the environment:

- `WEB_BIND` (default 127.0.0.1:8001): only the proxy in front talks to it;
- `WEB_WORKERS` (default: one per core): each worker is an event loop, so a slow client costs a
  coroutine, not a worker; Caddy buffers request bodies and times out slow headers in front anyway.

A worker dies with its master (`PR_SET_PDEATHSIG`): after a `kill -9` of the master, the supervisor
starts a new one, and the old workers must not go on serving the old code on the shared port.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from typing import Any

bind = os.environ.get("WEB_BIND", "127.0.0.1:8001")
workers = int(os.environ.get("WEB_WORKERS") or os.cpu_count() or 2)
worker_class = "clubscore.gunicorn_worker.Worker"  # uvicorn's, its graceful stop bounded
wsgi_app = "clubscore.asgi:application"
# The master imports the app once and forks ready workers: after a `kill -9` of the master, the new
# one answers seconds sooner than workers each importing Django on a busy machine. (So an upgrade
# restarts the master, `supervisorctl restart web`: a HUP would fork the old code again.)
preload_app = True
reuse_port = True  # the new master binds while the old one's workers finish and close
timeout = 30  # a worker that stops answering its master's heartbeat is replaced
graceful_timeout = 20  # a restart lets requests in flight finish; streams are cut after 5 s (gunicorn_worker.py)
keepalive = 75  # longer than Caddy's idle connections to it, so Caddy closes first
forwarded_allow_ips = "127.0.0.1,::1"  # X-Forwarded-Proto and -For from the proxy on this machine only
accesslog = "-"  # standard output: the supervisor keeps it
errorlog = "-"
loglevel = os.environ.get("WEB_LOG_LEVEL", "info")
proc_name = "clubscore-web"

PR_SET_PDEATHSIG = 1
SWITCH_INTERVAL = 0.0005  # seconds


def post_fork(server: Any, worker: Any) -> None:
    """In each worker: SIGTERM when its master dies (Linux), so it stops gracefully."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:  # not Linux: the worker outlives a killed master until its own timeout
        server.log.warning("prctl(PR_SET_PDEATHSIG) is not available: a killed master leaves its workers")
    # A thread waiting for the GIL (a request whose database answer came, the event loop with the next
    # request) waits up to the switch interval while another thread computes: 5 ms by default, and a
    # hand makes a dozen such waits (PostgreSQL, Redis, the event loop's hand-offs). At 0.5 ms, the
    # hands' p95 at 60 % of the capacity went from 88.7 to 56.7 ms, the capacity unchanged
    # (bench/api.py, bench/README.md "round 5").
    sys.setswitchinterval(SWITCH_INTERVAL)
