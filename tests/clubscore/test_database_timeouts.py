"""A PostgreSQL that does not answer costs a request seconds, not ten or more (issue 39, point 11).

A listener on loopback accepts the connection and never says a word (a server hung, or a firewall
that lets the handshake through): the production settings must give up on it within their connect
timeout, with and without the pool of connections. Each case runs Django's own settings in a process
of its own, as a web server would.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CONNECT = """
import time, django
django.setup()
from django.db import connection, OperationalError
started = time.monotonic()
try:
    connection.ensure_connection()
except OperationalError as exc:
    print(f"failed {time.monotonic() - started:.2f} {type(exc.__cause__ or exc).__name__}")
else:
    print("connected")
"""


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A TCP port on loopback that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(2)
        for conn in accepted:
            conn.close()
        listener.close()


@pytest.mark.parametrize("pool", ["0", "1"])
def test_a_silent_database_fails_a_connection_within_seconds(silent_server: int, pool: str) -> None:
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="clubscore.settings",
        DATABASE_URL=f"postgres://clubscore@127.0.0.1:{silent_server}/clubscore",
        DB_POOL=pool,
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", CONNECT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=40
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    outcome = done.stdout.strip().splitlines()[-1]
    assert outcome.startswith("failed"), outcome
    waited = float(outcome.split()[1])
    print(f"pool={pool}: gave up after {waited:.2f} s ({outcome.split()[2]}), the process in {elapsed:.1f} s")
    assert waited < 6, outcome  # the settings' 3 s to connect (4 s for a connection from the pool)
