"""Fault tests (issue 10): the ledger's fixtures and the API clients of tests/api."""

from __future__ import annotations

from tests.api.conftest import *  # noqa: F403
