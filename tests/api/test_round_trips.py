"""The SQL round trips of recording one hand through the API (issue 27, bench/api.py): the hot path.

The statements are counted on every database; on PostgreSQL the round trips themselves are counted
from libpq's trace of the protocol (a round trip is the client's messages followed by the server's),
in a real transaction, against the floor's 4 (the token, BEGIN, INSERT, COMMIT). The counts are
pinned so that a change that adds one fails here and has to say why (bench/README.md gives what
each costs on the production stack).
"""

from __future__ import annotations

import itertools
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.ledger_fixtures import AMERICAN_HANDS, assert_projection, fresh, record_all

# The statements of one recorded hand, in order: the token (with its user), on PostgreSQL the
# Idempotency-Key's hold (an advisory lock: a second request with the key is 409 at once), the
# session's lock with the actor's role, the earlier hands' raw JSON, the seats' names and the open
# disputes (what the live change shows that the hand does not write), the key's record, the session's
# projection, the revision, the hand, the key's record with what the write did. The change that carries
# the deal to every follower (ledger/live.py, `live_data`, published on commit; it spares each follower
# its read of the whole fragment: bench/live.py --dense, Record's answer with followers p50 22 ms, from
# 2,748) reads nothing more: the hands are the sheet read and its replay, and a deal just recorded has
# no seat's word yet (ledger/services/hands.py). Before, it read the deals, their words, the names and
# the disputes again, each its own: 13 and 12. (In a test's transaction the atomic block is a savepoint,
# not counted here.)
RECORD_STATEMENTS = 11 if connection.vendor == "postgresql" else 10
# On PostgreSQL (ledger/services/hands.py, its two pipelines inside Django's `transaction.atomic`): the
# token; BEGIN; the key's hold, the lock, the earlier hands, the names, the disputes and the key's record;
# the projection, the revision, the hand and the key's record; COMMIT. The live change's four reads,
# each its own round trip, made 9 (issue 40); folded into the first pipeline or taken from what the hand
# holds, 5 (bench/README.md, "live data from the write"). Issue 40 item 5 gave BEGIN and COMMIT back to
# Django (`on_commit` runs the publish). Every statement its own would be 13.
# Before round 3 a hand made 10, round 5 six, round 6 three (BEGIN and COMMIT in the pipelines, no live
# reads); the floor makes 4 (the token, BEGIN, INSERT, COMMIT).
RECORD_ROUND_TRIPS = 5


def test_recording_a_hand_takes_a_fixed_number_of_statements(api_for: Any, scorer: Any, session: Any) -> None:
    record_all(scorer, session, AMERICAN_HANDS[:3])
    client = api_for(scorer)
    assert client.get(f"/api/v1/sessions/{session.pk}/").status_code == 200  # the token's touch is done
    with CaptureQueriesContext(connection) as queries:
        response = client.record(session.pk, dict(AMERICAN_HANDS[3], number=4))
    assert response.status_code == 201, response.content
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == RECORD_STATEMENTS, "\n".join(s[:120] for s in statements)
    assert fresh(session).hands_count == 4
    assert_projection(fresh(session))  # still what a replay gives


@contextmanager
def round_trips() -> Iterator[list[int]]:
    """Count the round trips to PostgreSQL in the block: libpq's trace, each run of client (F)
    messages that the server (B) answers is one."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    counted: list[int] = []
    with tempfile.TemporaryFile("w+") as trace:
        from psycopg import pq

        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            yield counted
        finally:
            pgconn.untrace()
        trace.seek(0)
        sides = [line.split("\t", 1)[0] for line in trace.read().splitlines() if line[:1] in "FB"]
    counted.append(sum(1 for a, b in itertools.pairwise(sides) if a == "F" and b == "B"))


@pytest.mark.django_db(transaction=True)
def test_recording_a_hand_takes_a_fixed_number_of_round_trips_on_postgresql(
    api_for: Any, scorer: Any, session: Any
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("round trips are PostgreSQL's (the pipeline); SQLite has none")
    record_all(scorer, session, AMERICAN_HANDS[:3])
    client = api_for(scorer)
    assert client.get(f"/api/v1/sessions/{session.pk}/").status_code == 200  # the token's touch is done
    key = str(uuid.uuid4())
    with round_trips() as counted:
        response = client.record(session.pk, dict(AMERICAN_HANDS[3], number=4), key=key)
    assert response.status_code == 201, response.content
    assert counted == [RECORD_ROUND_TRIPS]
    retry = client.record(session.pk, dict(AMERICAN_HANDS[3], number=4), key=key)
    assert retry.status_code == 201 and retry.json() == response.json()  # the answer kept with the hand
    assert fresh(session).hands_count == 4
    assert_projection(fresh(session))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("prepare", [True, False])
def test_a_hands_statements_are_prepared_unless_turned_off(
    api_for: Any, scorer: Any, session: Any, settings: Any, prepare: bool
) -> None:
    """`DB_PREPARE` (ledger/roundtrips.py's `_bound`): after a few hands PostgreSQL holds the hot path's
    statements prepared on the connection, and none with `DB_PREPARE=0` (a PgBouncer in transaction
    mode in front)."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    settings.DB_PREPARE = prepare
    connection.close()  # a connection of its own: nothing prepared on it yet
    client = api_for(scorer)
    for number, hand in enumerate(AMERICAN_HANDS * 2, 1):  # 8 hands: past psycopg's 5 runs
        assert client.record(session.pk, dict(hand, number=number)).status_code == 201
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    if prepare:
        assert any('INSERT INTO "ledger_hand"' in sql for sql in prepared), prepared
        assert any('FROM "ledger_session"' in sql and "FOR NO KEY UPDATE" in sql for sql in prepared), prepared
    else:
        assert prepared == []
    assert_projection(fresh(session))
