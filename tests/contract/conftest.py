"""Fixtures of the contract tests: the ledger's (tests/ledger_fixtures.py)."""

from tests.ledger_fixtures import *  # noqa: F403
