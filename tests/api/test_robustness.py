"""The API never answers 500 to what a client can send (`api.md`, "Errors"): arbitrary JSON in every
body that takes one, and the refusals are always the error body with a code of `api.md`."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.ledger_fixtures import AMERICAN_HANDS, record_all

pytestmark = pytest.mark.django_db

CODES = {
    "invalid_sheet",
    "invalid_option",
    "option_required",
    "invalid_hand",
    "invalid_request",
    "not_found",
    "permission_denied",
    "stale_number",
    "session_closed",
    "not_last_hand",
    "pools_claimed",
    "session_not_closed",
}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(["seven", "pass", "hearts", "none", "pool", "divide", "carry", "american", "0.01", "USD"]),
    st.integers(min_value=0, max_value=13),
)
KEYS = [
    "bid",
    "bidder",
    "trump",
    "tricks",
    "partner",
    "adjustments",
    "number",
    "from",
    "to",
    "counters",
    "note",
    "pools",
    "variant",
    "rules",
]
KEYS += ["players", "first_dealer", "stake", "hands", "close", "x"]
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(
            st.sampled_from(KEYS),
            inner,
            max_size=6,
        ),
    ),
    max_leaves=20,
)
hands = st.fixed_dictionaries(
    {"bid": st.sampled_from(["seven", "boston", "pass", "little_misere", "x"])},
    optional={
        "bidder": scalars,
        "trump": scalars,
        "tricks": st.lists(st.integers(min_value=-1, max_value=14), min_size=3, max_size=5),
        "number": scalars,
        "adjustments": st.lists(
            st.fixed_dictionaries(
                {
                    "from": st.sampled_from([0, 1, 2, 3, "pool", 9]),
                    "to": st.sampled_from([0, 1, 2, 3, "pool"]),
                    "counters": st.integers(min_value=-5, max_value=10**30),
                    "note": st.text(max_size=5),
                }
            ),
            max_size=2,
        ),
    },
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def assert_answered(response: Any) -> None:
    assert response.status_code < 500, response.content[:300]
    if response.status_code >= 400:
        assert response.json()["error"]["code"] in CODES, response.json()


@SETTINGS
@given(body=st.one_of(json_values, hands))
def test_any_hand_body(api: Any, admin: Any, session: Any, body: Any) -> None:
    assert_answered(api.record(session.pk, body))
    assert_answered(api.json("PUT", f"/api/v1/sessions/{session.pk}/hands/1/", body, **{"If-Match": "*"}))


@SETTINGS
@given(body=json_values)
def test_any_opening_import_and_close_body(api: Any, club: Any, players: list[Any], body: Any) -> None:
    assert_answered(api.json("POST", "/api/v1/sessions/", body))
    if isinstance(body, dict):
        opening = {"club": club.pk, "players": [p.pk for p in players], "variant": "american", "first_dealer": 0}
        assert_answered(api.json("POST", "/api/v1/sessions/", {**opening, **body}))
    assert_answered(api.json("POST", "/api/v1/sessions/import/", {"club": club.pk, "sheet": body}))
    assert_answered(api.json("POST", "/api/v1/settle/", body))


@SETTINGS
@given(body=json_values, stake=st.text(alphabet="0123456789.", min_size=1, max_size=12))
def test_any_close_body_and_stake(api: Any, admin: Any, club: Any, players: list[Any], body: Any, stake: str) -> None:
    response = api.json(
        "POST",
        "/api/v1/sessions/",
        {
            "club": club.pk,
            "players": [p.pk for p in players],
            "variant": "american",
            "first_dealer": 0,
            "stake": {"currency": "KWD", "per_counter": stake},
        },
    )
    assert_answered(response)
    if response.status_code == 201:
        session_id = response.json()["id"]
        for hand in AMERICAN_HANDS[:3]:
            assert api.record(session_id, hand).status_code == 201
        assert_answered(api.json("POST", f"/api/v1/sessions/{session_id}/close/", body, **{"If-Match": '"4"'}))


def test_huge_adjustments_are_refused_not_stored(api: Any, admin: Any, session: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS[:1])
    hand = dict(AMERICAN_HANDS[1], adjustments=[{"from": 0, "to": 1, "counters": 10**30, "note": "big"}])
    response = api.record(session.pk, hand, str(uuid.uuid4()))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_hand"
