"""Throttling holds under concurrent bursts (`api.md`: 429 `throttled` with `Retry-After`).

A real HTTP server (pytest-django's `live_server`, one thread per request) takes a burst of requests
released at the same instant from many client threads, all with one token (or, for logins, from one
address). However the requests interleave, the ones over the limit answer 429 with `Retry-After`,
and no more than the limit are processed: answered 200/201/401, or, for writes, rows created.

The cache behind the throttle is the one the settings choose: Django's local memory cache without
REDIS_URL, Redis with it (as in `.ci/run`).
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.db import connection

from ledger.models import Club
from ledger.services.clubs import club_create
from ledger.services.tokens import token_issue
from tests.ledger_fixtures import PASSWORD, make_user

pytestmark = pytest.mark.django_db(transaction=True)

BURST = 24
LIMIT = 5


@pytest.fixture
def rates(settings: Any) -> None:
    """A low limit for every scope and an empty cache (the throttle histories live there)."""
    cache.clear()
    settings.REST_FRAMEWORK = {
        **django_settings.REST_FRAMEWORK,
        # The login view also has the anon throttle: kept high, so only the login limit binds there.
        "DEFAULT_THROTTLE_RATES": {"user": f"{LIMIT}/min", "anon": "1000/min", "login": f"{LIMIT}/min"},
    }


def burst(base_url: str, method: str, paths: list[str], bodies: list[Any], headers: dict[str, str]) -> list[Any]:
    """Send the requests from one thread each, released together; (status, headers, json) for each."""
    address = urlsplit(base_url)
    barrier = threading.Barrier(len(paths))
    results: list[Any] = [None] * len(paths)

    def send(i: int) -> None:
        body = None if bodies[i] is None else json.dumps(bodies[i])
        barrier.wait(30)
        for attempt in range(5):
            conn = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
            try:
                conn.request(method, paths[i], body=body, headers={"Content-Type": "application/json", **headers})
                response = conn.getresponse()
                results[i] = (response.status, dict(response.getheaders()), json.loads(response.read() or b"null"))
                return
            except (ConnectionResetError, ConnectionRefusedError) as exc:
                # The test server's listen queue (10) overflowed: the kernel refused the connection
                # before any request was read. Connect again.
                results[i] = (None, {}, repr(exc))
                time.sleep(0.01 * (attempt + 1))
            except Exception as exc:  # recorded, so the assertion shows it
                results[i] = (None, {}, repr(exc))
                return
            finally:
                conn.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(paths))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    return results


def assert_throttled(results: list[Any], processed_status: int) -> None:
    failed = [r for r in results if r is None or r[0] is None]
    assert not failed, failed
    statuses = sorted(r[0] for r in results)
    assert set(statuses) <= {processed_status, 429}, results
    assert statuses.count(processed_status) == LIMIT, statuses
    for status, headers, body in results:
        if status == 429:
            assert body["error"]["code"] == "throttled", body
            assert int(headers["Retry-After"]) > 0, headers


def token_for(user: Any) -> str:
    key, _ = token_issue(user=user, device="burst-phone")
    return key


def test_a_burst_of_reads_from_one_token_processes_only_the_limit(live_server: Any, rates: None) -> None:
    user = make_user("burster")
    club_create(actor=user, name="Burst Club")
    headers = {"Authorization": f"Token {token_for(user)}"}
    results = burst(live_server.url, "GET", ["/api/v1/clubs/"] * BURST, [None] * BURST, headers)
    assert_throttled(results, 200)
    # The window is still full: one more request, alone, is refused too.
    (status, _, _), *_ = burst(live_server.url, "GET", ["/api/v1/clubs/"], [None], headers)
    assert status == 429


def test_a_burst_of_logins_from_one_address_checks_only_the_limit(live_server: Any, rates: None) -> None:
    make_user("victim")
    wrong = [{"username": "victim", "password": f"guess-{i}", "device": "d"} for i in range(BURST)]
    results = burst(live_server.url, "POST", ["/api/v1/auth/token/"] * BURST, wrong, {})
    assert_throttled(results, 401)
    # Even the right password is refused while the window is full.
    right = {"username": "victim", "password": PASSWORD, "device": "d"}
    (status, _, body), *_ = burst(live_server.url, "POST", ["/api/v1/auth/token/"], [right], {})
    assert status == 429, body


@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="concurrent writers need PostgreSQL: the live server shares SQLite's in-memory test database "
    "between its threads through one connection (DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubscore)",
)
def test_a_burst_of_writes_from_one_token_creates_only_the_limit(live_server: Any, rates: None) -> None:
    user = make_user("burster")
    headers = {"Authorization": f"Token {token_for(user)}"}
    bodies = [{"name": f"Burst {i}"} for i in range(BURST)]
    results = burst(live_server.url, "POST", ["/api/v1/clubs/"] * BURST, bodies, headers)
    assert_throttled(results, 201)
    created = sorted(Club.objects.filter(memberships__user=user).values_list("name", flat=True))
    assert created == sorted(r[2]["name"] for r in results if r[0] == 201)
    assert len(created) == LIMIT
