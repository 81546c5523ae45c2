"""Fixtures of the money-ledger tests: the ledger's and the API's (authenticated clients)."""

from tests.api.conftest import *  # noqa: F403
from tests.ledger_fixtures import *  # noqa: F403
