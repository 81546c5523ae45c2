"""Integration tests against a real Redis and real Celery workers that the tests start and stop.

A worker is `python -m celery -A clubscore worker` in a process group of its own (so a test can kill it,
children and all, with SIGKILL), with DATABASE_URL naming the test database (PostgreSQL: the worker is
another process and must see what the tests commit, hence `django_db(transaction=True)`), REDIS_URL
naming the broker, and `--include tests.integration.probe` (a background handler that records its runs).

Skipped, with the reason, when REDIS_URL is unset or the database is SQLite. Redis servers of their own
(for the tests that stop one) are started on a free port in a temporary directory: the machine's main
Redis is never stopped.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

from tests.api.conftest import *  # noqa: F403
from tests.ledger_fixtures import *  # noqa: F403

ROOT = Path(__file__).resolve().parents[2]
WORKER_READY_SECONDS = 60


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    reason = None
    if not settings.REDIS_URL:
        reason = (
            "needs a real Redis and a Celery worker: set REDIS_URL (e.g. redis://127.0.0.1:6379/15) and "
            "DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubscore"
        )
    elif connection.vendor != "postgresql":
        reason = (
            "the worker is another process: it needs the test database on a server, not SQLite's in-memory one; "
            "set DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubscore"
        )
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent == here:
            item.add_marker(pytest.mark.integration)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


def database_url() -> str:
    """The test database (pytest-django renamed it) as a URL for the worker processes."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    host = db["HOST"] or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{quote(db['NAME'], safe='')}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate: Callable[[], Any], seconds: float, what: str, step: float = 0.1) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


@dataclass
class Worker:
    """A Celery worker process group of our own."""

    process: subprocess.Popen
    log: Path
    name: str

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL the whole group: the main process and its pool's children, mid-task or not."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(30)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # warm shutdown
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        else:
            self.process.wait(1)


@dataclass
class Workers:
    tmp: Path
    probe_dir: Path
    started: list[Worker] = field(default_factory=list)

    def start(self, *, redis_url: str | None = None, beat: bool = False, **env: str) -> Worker:
        name = f"clubscore-test-{uuid.uuid4().hex[:8]}@%h"
        log = self.tmp / f"worker-{len(self.started)}.log"
        environment = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "REDIS_URL": redis_url or settings.REDIS_URL,
            "CLUBSCORE_PROBE_DIR": str(self.probe_dir),
            "PYTHONDONTWRITEBYTECODE": "1",
            **env,
        }
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "clubscore",
            "worker",
            "--loglevel=INFO",
            "--pool=prefork",
            "--concurrency=2",
            "--without-gossip",
            "--without-mingle",
            "--include=tests.integration.probe",
            "-n",
            name,
        ]
        if beat:
            command += ["--beat", "--schedule", str(self.tmp / f"beat-{len(self.started)}")]
        with open(log, "wb") as out:
            process = subprocess.Popen(
                command, cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        worker = Worker(process, log, name)
        self.started.append(worker)
        wait_for(
            lambda: " ready." in worker.text() or process.poll() is not None,
            WORKER_READY_SECONDS,
            "the worker to be ready",
        )
        assert process.poll() is None, f"the worker exited:\n{worker.text()[-3000:]}"
        return worker

    def stop_all(self) -> None:
        for worker in self.started:
            worker.stop()


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    """Start workers with `workers.start()`; all are stopped after the test (and their logs shown if it
    failed, through the assertion messages that read them)."""
    from clubscore.celery import app

    app.control.purge()  # messages left on the test broker by earlier runs (their sessions are gone)
    probe_dir = tmp_path / "probe"
    probe_dir.mkdir()
    pool = Workers(tmp_path, probe_dir)
    try:
        yield pool
    finally:
        pool.stop_all()


@dataclass
class RedisServer:
    """A Redis server of our own on a free port, in a temporary directory, that a test may stop."""

    port: int
    directory: Path
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [
            shutil.which("redis-server") or "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.directory),
        ]
        log = open(self.directory / "redis.log", "ab")  # noqa: SIM115 - kept open by the server process
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_for(self.answers, 20, f"Redis on port {self.port}")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(20)
        self.process = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    directory = tmp_path / "redis"
    directory.mkdir()
    server = RedisServer(free_port(), directory)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def broker_at() -> Iterator[Callable[[str], None]]:
    """Point this process's Celery app (where the API enqueues) at another broker URL; restored after."""
    from clubscore.celery import app

    original = app.conf.broker_url

    def point(url: str) -> None:
        app.conf.broker_url = url
        app.close()  # drop the pooled connections and producers: the next enqueue connects to `url`

    try:
        yield point
    finally:
        point(original)
