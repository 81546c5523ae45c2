"""Fixtures of the page tests: the ledger's (tests/ledger_fixtures.py) and logged-in test clients."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.ledger_fixtures import *  # noqa: F403
from tests.ledger_fixtures import PASSWORD


@pytest.fixture
def client_for(db: None) -> Callable[[Any], Client]:
    def make(user: Any) -> Client:
        client = Client()
        assert client.login(username=user.get_username(), password=PASSWORD)
        return client

    return make
