"""Fixtures of the statistics tests: the ledger's (tests/ledger_fixtures.py) and the API clients."""

from tests.api.conftest import Api, api, api_for, assert_error, error  # noqa: F401
from tests.ledger_fixtures import *  # noqa: F403
