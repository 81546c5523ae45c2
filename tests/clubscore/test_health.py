"""`GET /health/` (clubscore/health.py): 200 when the database, the migrations, Redis and a worker's
heartbeat all answer, else 503 with `Retry-After`, naming the check that failed. Redis is the real one
of this machine (database 7, or REDIS_URL's), emptied of the heartbeat first."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.test import Client

from clubscore import health

pytestmark = pytest.mark.django_db

REDIS = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/7"


def get(client: Client) -> tuple[int, dict[str, Any], Any]:
    response = client.get("/health/")
    assert response["Content-Type"] == "application/json"
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    return response.status_code, response.json(), response


def staff_client() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("health-admin", password="x" * 12, is_staff=True))
    return client


def test_without_redis_the_eager_server_is_healthy(settings: Any) -> None:
    settings.REDIS_URL = None
    status, body, _ = get(staff_client())
    assert status == 200, body
    assert body["status"] == "ok"
    assert body["version"] == settings.CLUBSCORE_VERSION
    assert set(body["checks"]) == {"database", "migrations", "redis", "worker"}
    assert body["checks"]["migrations"] == {"ok": True, "unapplied": 0}
    assert body["checks"]["worker"]["mode"] == "eager"


def test_the_database_down_is_503(settings: Any) -> None:
    settings.REDIS_URL = None

    def refuse(*args: Any) -> Any:
        raise OperationalError("the database system is starting up")

    with connection.execute_wrapper(refuse):
        status, body, response = get(Client())
    assert status == 503
    assert int(response["Retry-After"]) > 0
    assert body["checks"]["database"]["ok"] is False


def test_a_worker_heartbeat_makes_it_healthy_and_a_stale_one_does_not(settings: Any) -> None:
    settings.REDIS_URL = REDIS
    settings.HEARTBEAT_SECONDS = 15
    health.redis_client().delete(health.HEARTBEAT_KEY)
    client = staff_client()
    status, body, _ = get(client)
    assert (status, body["checks"]["redis"]["ok"], body["checks"]["worker"]["ok"]) == (503, True, False)
    assert body["checks"]["worker"]["error"] == "no heartbeat yet"

    health.write_heartbeat()
    status, body, _ = get(client)
    assert status == 200, body
    assert body["checks"]["worker"]["heartbeat_age_seconds"] < 5

    health.redis_client().set(health.HEARTBEAT_KEY, "1000.0")  # a worker that stopped long ago
    status, body, _ = get(client)
    assert (status, body["checks"]["worker"]["ok"]) == (503, False)
    health.redis_client().delete(health.HEARTBEAT_KEY)


def test_redis_unreachable_is_503(settings: Any) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    status, body, _ = get(Client())
    assert status == 503
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["worker"]["ok"] is False


def test_only_get(settings: Any) -> None:
    assert Client().post("/health/").status_code == 405


def test_anyone_is_told_the_status_only_a_staff_member_the_details(settings: Any) -> None:
    """Issue 39, item 13: the release and the errors tell a stranger what to attack."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1: an error to hide
    settings.CLUBSCORE_VERSION = "0123abc"
    for client in (Client(), _logged_in_member()):
        status, body, _ = get(client)
        assert status == 503
        assert body == {
            "status": "unavailable",
            "checks": {
                "database": {"ok": True},
                "migrations": {"ok": True},
                "redis": {"ok": False},
                "worker": {"ok": False},
            },
        }
        assert "0123abc" not in str(body)
    status, body, _ = get(staff_client())
    assert (status, body["version"]) == (503, "0123abc")
    assert body["checks"]["redis"]["error"] and body["checks"]["database"]["vendor"] == connection.vendor


def _logged_in_member() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("health-member", password="x" * 12))
    return client
