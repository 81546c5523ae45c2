"""schemathesis against the project's own OpenAPI schema (`/api/schema/`), in process over WSGI.

Every operation, every check; bounded in examples and time so the whole run stays well under two
minutes. The data behind the ids: a club, its players, an open and a closed session with hands, a
payment; the caller is the club's admin with a device token.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from ledger.services.clubs import club_create, player_create
from ledger.services.sessions import session_close
from ledger.services.tokens import token_issue
from ledger.stats import seasons
from tests.ledger_fixtures import AMERICAN_HANDS, make_user, open_session, record_all

pytestmark = pytest.mark.django_db
MAX_EXAMPLES = 6  # per operation and phase: about 1,500 requests, a minute on a quiet machine
REQUESTS = {"count": 0}

CONFIG = {
    "seed": 18,
    "generation": {"max-examples": MAX_EXAMPLES},
    "checks": {
        # The schema cannot say every rule of the game: a schema-valid hand or sheet may break one
        # (400 invalid_hand), a schema-valid write may name an old version (412) or reuse a key (422).
        "positive_data_acceptance": {
            "expected-statuses": ["2xx", "400", "401", "403", "404", "409", "412", "413", "422", "428", "429"]
        },
        "missing_required_header": {"expected-statuses": ["400", "401", "403", "404", "409", "428"]},
        # api.md checks a write's If-Match (412) before its body, and a body's size (413) before all.
        "negative_data_rejection": {
            "expected-statuses": ["400", "401", "403", "404", "405", "406", "409", "412", "413", "415", "422", "428"]
        },
    },
}


def _load() -> Any:
    from clubscore.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/schema/", application, config=schemathesis.Config.from_dict(CONFIG))


schema = _load()


def _count(**kwargs: Any) -> None:
    REQUESTS["count"] += 1


@pytest.fixture(scope="module", autouse=True)
def count_requests() -> Iterator[None]:
    """Every request schemathesis sent (its checks send some of their own): tests/conftest.py's terminal
    summary says how many."""
    request_started.connect(_count)
    # As Django's test client does: the test's database transaction must outlive each request, and
    # close_old_connections closes a connection inside a transaction (PostgreSQL: "the connection is closed").
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.disconnect(_count)
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def world(db: None, settings: Any) -> dict[str, str]:
    """The rows behind the ids schemathesis tries (1, 2, ...), and the admin's token."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": None, "anon": None, "login": None, "login_username": None},
    }
    admin = make_user("admin", superuser=True)
    club = club_create(actor=admin, name="Bars Club")
    players = [player_create(actor=admin, club_id=club.pk, name=n) for n in ("Ann", "Ben", "Cleo", "Dan")]
    open_one = open_session(admin, club, players)
    record_all(admin, open_one, AMERICAN_HANDS[:2])
    closed = open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})
    record_all(admin, closed, AMERICAN_HANDS)
    session_close(actor=admin, session_id=closed.pk, expected_version=5)
    season = {"name": "Winter", "starts_on": "2020-01-01", "ends_on": "2030-12-31", "variants": ["american"]}
    seasons.season_create(actor=admin, club_id=club.pk, **season)  # season 1 of club 1 (issue 41)
    key, _ = token_issue(user=admin, device="schemathesis")
    return {"Authorization": f"Token {key}"}


@schema.parametrize()
@hypothesis_settings(
    max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)
def test_the_api_answers_as_its_schema_says(case: Any, world: dict[str, str]) -> None:
    case.call_and_validate(headers=world)
