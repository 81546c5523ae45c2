"""Devices racing: the same deal number from two phones, the same Idempotency-Key twice at once.

These need a database where two connections really write at once: PostgreSQL. On SQLite the test
database lives in memory and is shared between threads through one shared cache, where concurrent
writers fail with "database table is locked" instead of waiting, so there they are skipped.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection, connections

from ledger.models import Hand
from tests.ledger_fixtures import AMERICAN_HANDS, fresh

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor == "sqlite",
        reason="SQLite's shared in-memory test database cannot take concurrent writers; run with PostgreSQL "
        "(DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubscore)",
    ),
]


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls at the same moment, each in its own thread with its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = calls[i]()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.mark.parametrize("attempt", range(5))
def test_two_devices_racing_for_the_same_deal_exactly_one_wins(
    api_for: Any, admin: Any, scorer: Any, session: Any, attempt: int
) -> None:
    phones = [api_for(admin, "phone-a"), api_for(scorer, "phone-b")]
    hands = [dict(AMERICAN_HANDS[0], number=1), dict(AMERICAN_HANDS[1], number=1)]
    responses = race([partial(p.record, session.pk, h) for p, h in zip(phones, hands, strict=True)])
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201, 409], [r.json() for r in responses]
    loser = next(r for r in responses if r.status_code == 409).json()["error"]
    assert loser["code"] == "stale_number"
    assert loser["session"]["version"] == 2
    assert Hand.objects.filter(session=session).count() == 1
    assert fresh(session).version == 2


@pytest.mark.parametrize("attempt", range(5))
def test_the_same_key_twice_at_once_records_one_hand(api_for: Any, admin: Any, session: Any, attempt: int) -> None:
    key = str(uuid.uuid4())
    phones = [api_for(admin, "phone-a"), api_for(admin, "phone-b")]
    responses = race([partial(p.record, session.pk, AMERICAN_HANDS[0], key) for p in phones])
    statuses = sorted(r.status_code for r in responses)
    assert statuses in ([201, 201], [201, 409]), [r.json() for r in responses]
    if statuses == [201, 201]:
        assert responses[0].json() == responses[1].json()
    else:
        assert next(r for r in responses if r.status_code == 409).json()["error"]["code"] == "idempotency_in_flight"
    assert Hand.objects.filter(session=session).count() == 1
    assert fresh(session).version == 2


def test_a_key_whose_first_request_is_still_running_is_409_at_once(api_for: Any, admin: Any, session: Any) -> None:
    """api.md: the same key while the first request is still running answers 409 idempotency_in_flight.
    The first is held half-way through its writes (a second connection locks the revisions' table);
    the second, same key and body, is answered without waiting for it; once the first ends, the key
    replays its answer."""

    import psycopg

    from ledger.models import IdempotencyRecord

    key = str(uuid.uuid4())
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    first: dict[str, Any] = {}
    with psycopg.connect(**params) as blocker:
        blocker.execute("LOCK TABLE ledger_handrevision IN EXCLUSIVE MODE")

        def record() -> None:
            try:
                first["response"] = api_for(admin, "phone-a").record(session.pk, AMERICAN_HANDS[0], key)
            finally:
                connections.close_all()

        thread = threading.Thread(target=record)
        thread.start()
        wait_until_blocked(blocker)
        second = api_for(admin, "phone-b").record(session.pk, AMERICAN_HANDS[0], key)
        assert second.status_code == 409, second.content
        assert second.json()["error"]["code"] == "idempotency_in_flight"
        blocker.rollback()  # the first goes on
    thread.join(30)
    assert first["response"].status_code == 201, first["response"].content
    again = api_for(admin, "phone-b").record(session.pk, AMERICAN_HANDS[0], key)
    assert (again.status_code, again.json()) == (201, first["response"].json())
    assert Hand.objects.filter(session=session).count() == 1
    assert IdempotencyRecord.objects.filter(key=key).count() == 1
    assert fresh(session).version == 2


def test_a_refusal_under_a_key_in_use_never_undoes_the_hand_that_holds_it(
    api_for: Any, admin: Any, session: Any
) -> None:
    """A request with the key of a hand still being written, and a body that does not parse, is refused
    (400); its refusal waits for the key's hold and is not kept over the hand's answer: the hand is
    recorded and its answer replayed (the refusal kept first made the hand's INSERT of its answer fail,
    and the hand was lost)."""
    import time

    import psycopg

    key = str(uuid.uuid4())
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    answers: dict[str, Any] = {}
    url = f"/api/v1/sessions/{session.pk}/hands/"

    def record() -> None:
        try:
            answers["hand"] = api_for(admin, "phone-a").record(session.pk, AMERICAN_HANDS[0], key)
        finally:
            connections.close_all()

    def garbage() -> None:
        try:
            answers["garbage"] = api_for(admin, "phone-b").post(
                url, b"{oops", content_type="application/json", headers={"Idempotency-Key": key}
            )
        finally:
            connections.close_all()

    with psycopg.connect(**params) as blocker:
        blocker.execute("LOCK TABLE ledger_handrevision IN EXCLUSIVE MODE")
        first = threading.Thread(target=record)
        first.start()
        wait_until_blocked(blocker)
        second = threading.Thread(target=garbage)
        second.start()
        time.sleep(0.5)  # the refusal reaches the key's hold and waits there
        blocker.rollback()
    first.join(30)
    second.join(30)
    assert answers["hand"].status_code == 201, answers["hand"].content
    assert answers["garbage"].status_code == 400, answers["garbage"].content
    assert Hand.objects.filter(session=session).count() == 1
    again = api_for(admin, "phone-a").record(session.pk, AMERICAN_HANDS[0], key)
    assert (again.status_code, again.json()) == (201, answers["hand"].json())


def wait_until_blocked(blocker: Any, timeout: float = 20) -> None:
    """Until a request waits for one of `blocker`'s locks (half-way through its writes)."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        blocker.execute("SELECT pg_stat_clear_snapshot()")  # else the view stays as first read
        waiting = blocker.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pg_backend_pid() = ANY(pg_blocking_pids(pid))"
        ).fetchone()
        if waiting and waiting[0]:
            return
        time.sleep(0.02)
    raise AssertionError("the request never reached its writes")
