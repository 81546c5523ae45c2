"""Issue 29, point 4: the login limits keep counting while Redis is down (25 wrong logins got 25 x
401 and no 429). With the cache unreachable, each web process counts the login windows in its own
memory (`ledger.login_limits`); the other scopes still let requests through (test_cache_down.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from redis.exceptions import ConnectionError as RedisDown

from tests.faults.test_cache_down import DEAD_REDIS
from tests.ledger_fixtures import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def api_login(client: Client, username: str, password: str, address: str = "10.7.0.1") -> Any:
    body = json.dumps({"username": username, "password": password, "device": "d"})
    return client.post("/api/v1/auth/token/", body, content_type="application/json", REMOTE_ADDR=address)


def test_the_cache_is_really_unreachable() -> None:
    with override_settings(CACHES=DEAD_REDIS), pytest.raises(RedisDown):
        cache.get("anything")


def test_wrong_api_logins_are_throttled_while_redis_is_down(login_rates: None) -> None:
    make_user("victim")
    client = Client()
    with override_settings(CACHES=DEAD_REDIS):
        statuses = [api_login(client, "victim", f"guess-{i}").status_code for i in range(25)]
        assert statuses == [401] * 10 + [429] * 15
        right = api_login(client, "victim", PASSWORD)
        assert right.status_code == 429 and int(right["Retry-After"]) > 0
        # the per-address window holds too, for any username
        many = [api_login(client, f"nobody-{i}", "x", address="10.7.0.2").status_code for i in range(21)]
        assert many == [401] * 20 + [429]
        # a stranger's failures still lock only the stranger out
        assert api_login(client, "victim", PASSWORD, address="10.7.0.3").status_code == 201


def test_wrong_page_logins_are_throttled_while_redis_is_down(login_rates: None) -> None:
    make_user("victim")
    client = Client()
    with override_settings(CACHES=DEAD_REDIS):
        statuses = [client.post("/login/", {"username": "victim", "password": f"g{i}"}).status_code for i in range(25)]
    assert statuses == [200] * 10 + [429] * 15
