"""The database connection is lost in the middle of recording a hand.

Whatever the moment, the client gets an error answer (never a 201 for a hand that is not there), the
database holds the whole hand or nothing of it (no hand row without its revision, projection and
version), the Idempotency-Key is free (a 5xx answer is not kept), and a retry with the same key
records the hand exactly once; a second retry replays that answer.

- On PostgreSQL a second connection waits until the request holds the session lock and is blocked
  half-way through its writes, then kills the request's backend with `pg_terminate_backend`.
- On both databases a statement hook (Django's `connection.execute_wrapper`, installed around one
  request) drops the connection just before a chosen statement of the write: on PostgreSQL the
  backend terminates itself (`pg_terminate_backend(pg_backend_pid())`), so the server really closes
  the connection mid-transaction; SQLite has no server connection to lose, so there the statement
  fails as SQLite fails on a lost disk (`OperationalError: disk I/O error`).
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.db import OperationalError, connection, connections

from ledger.models import Hand, HandRevision, IdempotencyRecord
from tests.api.conftest import Api
from tests.ledger_fixtures import AMERICAN_HANDS, assert_projection, fresh, record_all

pytestmark = pytest.mark.django_db(transaction=True)

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="pg_terminate_backend needs PostgreSQL (DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubscore)",
)

HAND = dict(AMERICAN_HANDS[1], number=2)


@pytest.fixture
def phone(admin: Any, api_for: Callable[..., Api]) -> Api:
    """The admin's client; a server error comes back as the 500 answer, as a phone would get it."""
    client = api_for(admin)
    client.raise_request_exception = False
    return client


def assert_nothing_of_deal_2(session: Any, key: str) -> None:
    assert list(Hand.objects.filter(session=session).values_list("number", flat=True)) == [1]
    assert not HandRevision.objects.filter(session=session, number=2).exists()
    assert fresh(session).version == 2
    assert fresh(session).hands_count == 1
    assert_projection(session)
    # The key is released (a 5xx answer is not kept), so the phone may retry it at once.
    assert not IdempotencyRecord.objects.filter(key=key).exists()


def assert_retry_records_once(phone: Api, session: Any, key: str) -> None:
    first = phone.record(session.pk, HAND, key)
    assert first.status_code == 201, first.content[:300]
    assert first.json()["number"] == 2
    again = phone.record(session.pk, HAND, key)
    assert (again.status_code, again.json(), again.headers["ETag"]) == (201, first.json(), first.headers["ETag"])
    assert list(Hand.objects.filter(session=session).values_list("number", flat=True)) == [1, 2]
    assert fresh(session).version == 3
    assert_projection(session)


def assert_server_error(response: Any) -> None:
    """A lost connection is an outage (issue 27): 503, try again in a moment."""
    assert response.status_code == 503, (response.status_code, response.content[:300])
    assert response.json()["error"]["code"] == "service_unavailable"
    assert int(response.headers["Retry-After"]) > 0


# --- a second connection kills the request's backend ----------------------------------------------


def _blocked_by(blocker: psycopg.Connection, timeout: float = 20) -> int:
    """The pid of the backend that waits for one of `blocker`'s locks."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        blocker.execute("SELECT pg_stat_clear_snapshot()")  # else the view stays as first read in the transaction
        row = blocker.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pg_backend_pid() = ANY(pg_blocking_pids(pid))"
        ).fetchone()
        if row:
            return row[0]
        time.sleep(0.02)
    raise AssertionError("the request never waited for the blocker's lock")


@postgres_only
def test_backend_killed_while_the_request_holds_the_session_lock(phone: Api, admin: Any, session: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS[:1])
    assert Hand.objects.filter(session=session).exists()  # deal 1: the request must leave it
    key = str(uuid.uuid4())
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params) as blocker:
        # Lock the revisions' table against writers: the request takes the session lock, writes the new
        # hand and the session's projection, then stops at the hand's revision, half-way
        # through its transaction.
        blocker.execute("LOCK TABLE ledger_handrevision IN EXCLUSIVE MODE")
        answer: dict[str, Any] = {}

        def request() -> None:
            try:
                answer["response"] = phone.record(session.pk, HAND, key)
            finally:
                connections.close_all()

        thread = threading.Thread(target=request)
        thread.start()
        victim = _blocked_by(blocker)
        # The request holds the session lock.
        with pytest.raises(psycopg.errors.LockNotAvailable), blocker.transaction():
            blocker.execute("SELECT id FROM ledger_session WHERE id = %s FOR UPDATE NOWAIT", [session.pk])
        assert blocker.execute("SELECT pg_terminate_backend(%s)", [victim]).fetchone() == (True,)
        blocker.rollback()
        thread.join(30)
    assert not thread.is_alive()
    assert_server_error(answer["response"])
    assert_nothing_of_deal_2(session, key)
    assert_retry_records_once(phone, session, key)


# --- a hook drops the connection before one statement of the write --------------------------------

# Each statement of a hand's recording, in the order it runs, all in one transaction: the session lock
# (with the earlier hands), the key's record (issue 27's round 6: read with the lock, no claim before
# it), the session's projection, the revision, the hand (only the new one: the others stay as they
# are) and the key's answer, kept with the hand. On PostgreSQL the first three go in one round trip
# with BEGIN and the last four in one with COMMIT, so the server closes the connection under all of
# them at once.
STATEMENTS: dict[str, Callable[[str], bool]] = {
    # services.locks.lock_session, with the actor's role (SQLite has no FOR UPDATE: its write lock comes
    # with BEGIN IMMEDIATE)
    "lock the session": lambda sql: sql.startswith('SELECT "ledger_session"') and '"actor_role"' in sql,
    "read the key": lambda sql: sql.startswith('SELECT "ledger_idempotencyrecord"'),
    "insert the hand": lambda sql: sql.startswith('INSERT INTO "ledger_hand" '),
    "update the session": lambda sql: sql.startswith('UPDATE "ledger_session"'),
    "insert the revision": lambda sql: sql.startswith('INSERT INTO "ledger_handrevision"'),
    "store the answer": lambda sql: sql.startswith('INSERT INTO "ledger_idempotencyrecord"'),
}


class DropConnection:
    """An execute wrapper: the first statement that `matches` finds the connection gone."""

    def __init__(self, matches: Callable[[str], bool]) -> None:
        self.matches = matches
        self.fired = False

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        if not self.fired and self.matches(sql):
            self.fired = True
            if connection.vendor == "postgresql":
                with contextlib.suppress(Exception):  # the server closes the connection under it
                    context["cursor"].execute("SELECT pg_terminate_backend(pg_backend_pid())")
            else:
                raise OperationalError("disk I/O error")
        return execute(sql, params, many, context)


@pytest.mark.parametrize("statement", list(STATEMENTS))
def test_connection_lost_before_each_statement_of_the_write(
    phone: Api, admin: Any, session: Any, statement: str
) -> None:
    record_all(admin, session, AMERICAN_HANDS[:1])
    key = str(uuid.uuid4())
    drop = DropConnection(STATEMENTS[statement])
    with connection.execute_wrapper(drop):
        response = phone.record(session.pk, HAND, key)
    assert drop.fired, f"no statement matched {statement!r}: the write changed, update STATEMENTS"
    assert_server_error(response)
    assert_nothing_of_deal_2(session, key)
    assert_retry_records_once(phone, session, key)
