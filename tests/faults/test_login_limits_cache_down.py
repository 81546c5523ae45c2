"""Issue 29, point 4: the login limits keep counting while Redis is down (25 wrong logins got 25 x
401 and no 429). Issue 39, item 7: counted in each web process's memory, the limit held per process
(28-30 of 30 wrong logins through, limit 10); with the cache unreachable the windows are now counted
in the database (`ledger.login_limits`), the same for every process. The other scopes still let
requests through (test_cache_down.py)."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connections
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


def _in_processes(attempt: Callable[[Client, int], int], processes: int, each: int) -> list[int]:
    """`each` attempts in each of `processes` processes of their own (forked, as gunicorn's workers
    are: each with its own memory and its own database connection), one process after the other."""
    context = multiprocessing.get_context("fork")
    statuses: list[int] = []
    for p in range(processes):
        connections.close_all()  # the child opens its own; a shared socket would tangle both
        receive, send = context.Pipe(duplex=False)

        def run(p: int = p, send: Any = send) -> None:
            send.send([attempt(Client(), p * each + i) for i in range(each)])
            connections.close_all()

        child = context.Process(target=run)
        child.start()
        statuses += receive.recv()
        child.join(30)
        assert child.exitcode == 0
    return statuses


@pytest.mark.django_db(transaction=True)
def test_the_login_limits_hold_across_web_processes_while_redis_is_down(login_rates: None) -> None:
    make_user("victim")
    with override_settings(CACHES=DEAD_REDIS):
        api = _in_processes(lambda client, i: api_login(client, "victim", f"guess-{i}").status_code, 3, 10)
        assert api == [401] * 10 + [429] * 20

        def page(client: Client, i: int) -> int:
            body = {"username": "victim", "password": f"g{i}"}
            return client.post("/login/", body, REMOTE_ADDR="10.7.0.9").status_code

        pages = _in_processes(page, 3, 9)
        assert pages == [200] * 10 + [429] * 17
