"""Fixtures of the API tests: the ledger's (tests/ledger_fixtures.py) and authenticated clients."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from ledger.services.tokens import token_issue
from tests.ledger_fixtures import *  # noqa: F403


class Api(APIClient):
    """An APIClient speaking JSON, with the helpers the tests repeat."""

    def json(self, method: str, url: str, body: Any = None, **headers: str) -> Any:
        return getattr(self, method.lower())(url, body, format="json", headers=headers or None)

    def record(self, session_id: int, hand: Any, key: str | None = None, **headers: str) -> Any:
        key = key or str(uuid.uuid4())
        return self.json("POST", f"/api/v1/sessions/{session_id}/hands/", hand, **{"Idempotency-Key": key}, **headers)


@pytest.fixture
def api_for(db: None) -> Callable[..., Api]:
    def make(user: Any = None, device: str = "test-phone") -> Api:
        client = Api()
        if user is not None:
            key, _ = token_issue(user=user, device=device)
            client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return client

    return make


@pytest.fixture
def api(api_for: Callable[..., Api], admin: Any) -> Api:
    """The club admin's client."""
    return api_for(admin)


def error(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert {"code", "message", "fields"} <= set(body["error"]), body
    return body["error"]


def assert_error(response: Any, status: int, code: str, field: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:500])
    err = error(response)
    assert err["code"] == code, err
    if field is not None:
        assert field in err["fields"], err
    return err
