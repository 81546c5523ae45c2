"""Fixtures of the ledger tests (tests/ledger_fixtures.py)."""

from tests.ledger_fixtures import *  # noqa: F403
