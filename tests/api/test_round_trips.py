"""The SQL round trips of recording one hand through the API (issue 27, bench/api.py): the hot path.

Each statement is a round trip to PostgreSQL; the count is pinned so that a change that adds one
fails here and has to say why (bench/README.md gives what each costs on the production stack).
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.ledger_fixtures import AMERICAN_HANDS, assert_projection, fresh, record_all

# The statements of one recorded hand, in order: the token (with its user), the key's claim
# (autocommitted), the session's lock with the actor's role, the earlier hands' raw JSON, the hand,
# the session's projection, the revision, the key's answer (autocommitted). On PostgreSQL the write's
# transaction adds BEGIN and COMMIT: 10 round trips, against the floor's 4 (bench/README.md).
# (In a test the atomic block is a savepoint, not counted here.)
RECORD_STATEMENTS = 8


def test_recording_a_hand_takes_a_fixed_number_of_statements(api_for: Any, scorer: Any, session: Any) -> None:
    record_all(scorer, session, AMERICAN_HANDS[:3])
    client = api_for(scorer)
    assert client.get(f"/api/v1/sessions/{session.pk}/").status_code == 200  # the token's touch is done
    with CaptureQueriesContext(connection) as queries:
        response = client.record(session.pk, dict(AMERICAN_HANDS[3], number=4))
    assert response.status_code == 201, response.content
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == RECORD_STATEMENTS, "\n".join(s[:120] for s in statements)
    assert fresh(session).hands_count == 4
    assert_projection(fresh(session))  # still what a replay gives
