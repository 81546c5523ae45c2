"""The ledger's fixtures (tests/ledger_fixtures.py)."""

from __future__ import annotations

from tests.ledger_fixtures import *  # noqa: F403
