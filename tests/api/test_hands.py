"""/api/v1/sessions/{id}/hands/...: record (idempotent, numbered), read, amend, undo, history."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from ledger import idempotency, selectors
from ledger.engine import settle
from ledger.models import Hand, HandRevision, IdempotencyRecord
from ledger.services.sessions import session_close
from tests.api.conftest import assert_error
from tests.ledger_fixtures import AMERICAN_HANDS, assert_projection, fresh, record_all

pytestmark = pytest.mark.django_db

SETTLED = ("dealer", "double", "transfers", "deltas", "pool_delta", "balances", "pools")


# --- recording -------------------------------------------------------------------------------------


def test_record_answers_201_with_the_settled_hand_and_the_version(api_for: Any, scorer: Any, session: Any) -> None:
    response = api_for(scorer).record(session.pk, dict(AMERICAN_HANDS[0], number=1))
    assert response.status_code == 201
    body = response.json()
    expected = settle(dict(selectors.session_sheet(session=session), hands=AMERICAN_HANDS[:1]))["hands"][0]
    assert {k: body[k] for k in ("number", *SETTLED)} == expected
    assert {k: body[k] for k in AMERICAN_HANDS[0]} == AMERICAN_HANDS[0]
    assert (body["recorded_by"], body["version"]) == ("scorer", 2)
    assert body["recorded_at"].endswith("Z")
    assert response.headers["ETag"] == '"2"'
    assert Hand.objects.get(session=session).client_key is not None


@pytest.mark.parametrize("key", [None, "", "not-a-uuid", "1234", "{12345678-1234-1234-1234-123456789012}"])
def test_record_needs_a_uuid_idempotency_key(api: Any, session: Any, key: str | None) -> None:
    headers = {} if key is None else {"Idempotency-Key": key}
    response = api.json("POST", f"/api/v1/sessions/{session.pk}/hands/", AMERICAN_HANDS[0], **headers)
    assert_error(response, 400, "idempotency_key_required")
    assert not Hand.objects.exists()


def test_a_replayed_key_gives_the_first_answer(api: Any, session: Any) -> None:
    key = str(uuid.uuid4())
    first = api.record(session.pk, dict(AMERICAN_HANDS[0], number=1), key)
    reordered = json.dumps({"tricks": [3, 6, 2, 2], "number": 1, "trump": "clubs", "bidder": 1, "bid": "seven"})
    again = api.post(
        f"/api/v1/sessions/{session.pk}/hands/",
        reordered,
        content_type="application/json",
        headers={"Idempotency-Key": key},
    )
    assert (again.status_code, again.json(), again.headers["ETag"]) == (201, first.json(), first.headers["ETag"])
    assert Hand.objects.count() == 1
    assert fresh(session).version == 2
    # Even after later writes and the session closed, the key answers as it first did.
    api.record(session.pk, AMERICAN_HANDS[1])
    session_close(actor=session.opened_by, session_id=session.pk, expected_version=3)
    late = api.record(session.pk, dict(AMERICAN_HANDS[0], number=1), key)
    assert (late.status_code, late.json()) == (201, first.json())


def test_a_key_with_another_body_is_422(api: Any, session: Any) -> None:
    key = str(uuid.uuid4())
    api.record(session.pk, AMERICAN_HANDS[0], key)
    assert_error(api.record(session.pk, AMERICAN_HANDS[1], key), 422, "idempotency_key_reused")
    assert Hand.objects.count() == 1


def test_a_key_in_flight_is_409(api: Any, admin: Any, session: Any) -> None:
    key = uuid.uuid4()
    path = f"/api/v1/sessions/{session.pk}/hands/"
    idempotency.idempotency_begin(
        user=admin,
        method="POST",
        path=path,
        key=key,
        body_hash=_hash(AMERICAN_HANDS[0]),
    )
    assert_error(api.record(session.pk, AMERICAN_HANDS[0], str(key)), 409, "idempotency_in_flight")
    assert not Hand.objects.exists()


def _hash(body: Any) -> str:
    import hashlib

    return hashlib.sha256(b"json:" + json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def test_errors_are_kept_and_replayed_too(api: Any, session: Any) -> None:
    key = str(uuid.uuid4())
    bad = {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [5, 5, 5, 5]}
    first = api.record(session.pk, bad, key)
    assert_error(first, 400, "invalid_hand", "tricks")
    again = api.record(session.pk, bad, key)
    assert (again.status_code, again.json()) == (400, first.json())
    garbage = str(uuid.uuid4())
    url = f"/api/v1/sessions/{session.pk}/hands/"
    for _ in range(2):
        response = api.post(url, b"{oops", content_type="application/json", headers={"Idempotency-Key": garbage})
        assert_error(response, 400, "invalid_request")
    assert IdempotencyRecord.objects.filter(status=400).count() == 2


def test_a_dead_claim_and_a_forgotten_key_are_written_over_by_the_hand(
    api: Any, admin: Any, session: Any, settings: Any
) -> None:
    """The hand's key is kept with the hand (`hand_record(key=...)`): a claim whose request died (from
    `idempotency_begin`, as the claim before round 6 and a payment's still do) and a key past its
    keeping are written over, the same row; a live claim is 409 (above)."""
    from datetime import timedelta

    from django.utils import timezone

    path = f"/api/v1/sessions/{session.pk}/hands/"
    key = uuid.uuid4()
    body = dict(AMERICAN_HANDS[0], number=1)
    claim = idempotency.idempotency_begin(user=admin, method="POST", path=path, key=key, body_hash=_hash(body)).claim
    assert claim is not None
    dead = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_IN_FLIGHT_SECONDS + 1)
    IdempotencyRecord.objects.filter(pk=claim.record_id).update(created_at=dead)
    first = api.record(session.pk, body, str(key))
    assert first.status_code == 201, first.content
    record = IdempotencyRecord.objects.get(key=key)
    assert (record.pk, record.state, record.status) == (claim.record_id, "done", 201)
    assert record.created_at > dead
    again = api.record(session.pk, body, str(key))  # the hand as recorded, kept with it (`idempotency.recorded`)
    assert (again.status_code, again.json(), again.headers["ETag"]) == (201, first.json(), first.headers["ETag"])

    forgotten = timezone.now() - timedelta(hours=settings.IDEMPOTENCY_KEEP_HOURS + 1)
    IdempotencyRecord.objects.filter(pk=record.pk).update(created_at=forgotten)
    other = dict(AMERICAN_HANDS[1], number=2)  # another body: the key is judged afresh
    second = api.record(session.pk, other, str(key))
    # The domain still knows the hand by its key (`hand_record`): deal 1 is answered again.
    assert (second.status_code, second.json()["number"]) == (201, 1)
    assert list(IdempotencyRecord.objects.filter(key=key).values_list("pk", "body_hash", "status")) == [
        (record.pk, _hash(other), 201)
    ]
    assert [h.number for h in Hand.objects.filter(session=session)] == [1]


def test_the_key_is_judged_before_the_body(api: Any, session: Any) -> None:
    """api.md: another body under a used key is 422, even a body the limits would refuse (400)."""
    from api.limits import NOTE_MAX

    key = str(uuid.uuid4())
    assert api.record(session.pk, AMERICAN_HANDS[0], key).status_code == 201
    long_note = dict(AMERICAN_HANDS[1], adjustments=[{"seat": 0, "counters": 1, "note": "x" * (NOTE_MAX + 1)}])
    assert_error(api.record(session.pk, long_note, key), 422, "idempotency_key_reused")
    fresh_key = str(uuid.uuid4())
    assert_error(api.record(session.pk, long_note, fresh_key), 400, "invalid_request", "adjustments")
    assert_error(api.record(session.pk, long_note, fresh_key), 400, "invalid_request", "adjustments")  # kept
    assert IdempotencyRecord.objects.filter(key=fresh_key, status=400).count() == 1


def test_a_used_key_with_a_body_that_does_not_parse_is_judged_first(api: Any, session: Any) -> None:
    """api.md: the key before the body, a body that is not JSON too: another body under a used key is
    422; the same unparsable body twice replays its 400."""
    key = str(uuid.uuid4())
    url = f"/api/v1/sessions/{session.pk}/hands/"
    assert api.record(session.pk, AMERICAN_HANDS[0], key).status_code == 201
    garbage = api.post(url, b"{oops", content_type="application/json", headers={"Idempotency-Key": key})
    assert_error(garbage, 422, "idempotency_key_reused")
    fresh_key = str(uuid.uuid4())
    for _ in range(2):
        response = api.post(url, b"{oops", content_type="application/json", headers={"Idempotency-Key": fresh_key})
        assert_error(response, 400, "invalid_request")
    assert IdempotencyRecord.objects.filter(key=fresh_key, status=400).count() == 1
    assert Hand.objects.filter(session=session).count() == 1


def test_a_key_belongs_to_user_and_path(
    api: Any, api_for: Any, admin: Any, scorer: Any, club: Any, players: Any
) -> None:
    from tests.ledger_fixtures import open_session

    one, two = open_session(admin, club, players), open_session(admin, club, players)
    key = str(uuid.uuid4())
    assert api.record(one.pk, AMERICAN_HANDS[0], key).status_code == 201
    assert api.record(two.pk, AMERICAN_HANDS[1], key).status_code == 201
    assert api_for(scorer).record(one.pk, AMERICAN_HANDS[1], key).status_code == 201
    assert Hand.objects.count() == 3


def test_the_deal_number(api: Any, session: Any) -> None:
    api.record(session.pk, AMERICAN_HANDS[0])
    api.record(session.pk, AMERICAN_HANDS[1])
    stale = assert_error(api.record(session.pk, dict(AMERICAN_HANDS[2], number=2)), 409, "stale_number", "number")
    assert stale["session"]["id"] == session.pk
    assert stale["session"]["next"]["number"] == 3
    assert stale["session"]["version"] == 3
    assert_error(api.record(session.pk, dict(AMERICAN_HANDS[2], number=4)), 400, "invalid_hand", "number")
    assert_error(api.record(session.pk, dict(AMERICAN_HANDS[2], number="3")), 400, "invalid_hand", "number")
    assert Hand.objects.count() == 2
    assert api.record(session.pk, dict(AMERICAN_HANDS[2], number=3)).status_code == 201


def test_a_bad_hand_names_the_field_and_rule(api: Any, session: Any) -> None:
    err = assert_error(
        api.record(session.pk, {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [2, 6, 2, 2]}),
        400,
        "invalid_hand",
        "tricks",
    )
    assert err["fields"]["tricks"] == ["the four seats' tricks must add up to 13, not 12"]
    assert (err["hand"], err["message"]) == (1, "hand 1: the four seats' tricks must add up to 13, not 12")
    for body in ([1, 2], "seven", {"bid": "seven", "dealer": 0}):
        assert_error(api.record(session.pk, body), 400, "invalid_hand")
    assert fresh(session).version == 1


def test_a_closed_session_refuses_a_hand_before_looking_at_it(api: Any, admin: Any, session: Any) -> None:
    session_close(actor=admin, session_id=session.pk, expected_version=1)
    assert_error(api.record(session.pk, AMERICAN_HANDS[0]), 409, "session_closed")
    assert_error(api.record(session.pk, {"nonsense": True}), 409, "session_closed")
    assert_error(api.record(session.pk, dict(AMERICAN_HANDS[0], number=99)), 409, "session_closed")


def test_recording_needs_a_scorer(api_for: Any, session: Any, player_user: Any, treasurer: Any) -> None:
    assert_error(api_for(player_user).record(session.pk, AMERICAN_HANDS[0]), 403, "permission_denied")
    assert api_for(treasurer).record(session.pk, AMERICAN_HANDS[0]).status_code == 201


# --- reading ---------------------------------------------------------------------------------------


def test_hands_list_and_one_hand(api_for: Any, admin: Any, session: Any, player_user: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    client = api_for(player_user)
    listed = client.json("GET", f"/api/v1/sessions/{session.pk}/hands/?page_size=3")
    assert listed.status_code == 200
    assert listed.json()["count"] == 4
    assert [h["number"] for h in listed.json()["results"]] == [1, 2, 3]
    assert listed.headers["ETag"] == '"5"'
    one = client.json("GET", f"/api/v1/sessions/{session.pk}/hands/2/")
    assert one.status_code == 200
    assert one.headers["ETag"] == '"5"'
    assert one.json() == listed.json()["results"][1]
    settled = settle(selectors.session_sheet(session=session))["hands"][1]
    assert {k: one.json()[k] for k in ("number", *SETTLED)} == settled
    assert_error(client.json("GET", f"/api/v1/sessions/{session.pk}/hands/5/"), 404, "not_found")


# --- amending --------------------------------------------------------------------------------------


def test_amend(api_for: Any, admin: Any, session: Any, scorer: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    client = api_for(scorer)
    url = f"/api/v1/sessions/{session.pk}/hands/2/"
    amended = {"bid": "eight", "bidder": 2, "trump": "hearts", "tricks": [2, 2, 8, 1]}
    assert_error(client.json("PUT", url, amended), 428, "if_match_required")
    assert_error(client.json("PUT", url, amended, **{"If-Match": '"4"'}), 412, "version_mismatch")
    response = client.json("PUT", url, dict(amended, number=2), **{"If-Match": '"5"', "X-Reason": "wrong%20bid"})
    assert response.status_code == 200
    assert response.headers["ETag"] == '"6"'
    body = response.json()
    assert (body["bid"], body["number"], body["version"], body["recorded_by"]) == ("eight", 2, 6, "admin")
    assert_projection(session)
    history = client.json("GET", f"{url}history/").json()["results"]
    assert [(r["action"], r["by"], r["version"]) for r in history] == [
        ("recorded", "admin", 3),
        ("amended", "scorer", 6),
    ]
    assert (history[1]["old"], history[1]["new"], history[1]["reason"]) == (AMERICAN_HANDS[1], amended, "wrong bid")


def test_amend_refusals(api: Any, admin: Any, session: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS[:2])
    url = f"/api/v1/sessions/{session.pk}/hands/1/"
    match = {"If-Match": '"3"'}
    for derived in ("dealer", "double", "transfers", "deltas", "pool_delta", "balances", "pools", "version"):
        assert_error(
            api.json("PUT", url, dict(AMERICAN_HANDS[0], **{derived: 0}), **match), 400, "invalid_hand", derived
        )
    assert_error(api.json("PUT", url, dict(AMERICAN_HANDS[0], number=2), **match), 400, "invalid_hand", "number")
    assert_error(
        api.json("PUT", f"/api/v1/sessions/{session.pk}/hands/3/", AMERICAN_HANDS[0], **match), 404, "not_found"
    )
    assert fresh(session).version == 3


def test_amend_that_breaks_a_later_deal_names_it_and_changes_nothing(api: Any, admin: Any, session: Any) -> None:
    later = {
        "bid": "boston",
        "bidder": 2,
        "trump": "hearts",
        "tricks": [5, 2, 3, 3],
        "adjustments": [{"from": "pool", "to": 0, "counters": 12, "note": "ruling"}],
    }
    record_all(admin, session, [AMERICAN_HANDS[0], later])
    before = api.json("GET", f"/api/v1/sessions/{session.pk}/hands/").json()
    made = {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [2, 7, 2, 2]}
    err = assert_error(
        api.json("PUT", f"/api/v1/sessions/{session.pk}/hands/1/", made, **{"If-Match": '"3"'}),
        400,
        "invalid_hand",
        "adjustments",
    )
    assert err["hand"] == 2
    assert err["message"].startswith("hand 2: ")
    assert api.json("GET", f"/api/v1/sessions/{session.pk}/hands/").json() == before


def test_amend_and_undo_on_a_closed_session(api: Any, admin: Any, session: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS[:1])
    session_close(actor=admin, session_id=session.pk, expected_version=2)
    url = f"/api/v1/sessions/{session.pk}/hands/1/"
    assert_error(api.json("PUT", url, {"garbage": 1}), 409, "session_closed")
    assert_error(api.json("DELETE", url), 409, "session_closed")


# --- undoing ---------------------------------------------------------------------------------------


def test_undo(api_for: Any, admin: Any, session: Any, scorer: Any, player_user: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS[:3])
    client = api_for(scorer)
    base = f"/api/v1/sessions/{session.pk}/hands"
    assert_error(client.json("DELETE", f"{base}/3/"), 428, "if_match_required")
    assert_error(client.json("DELETE", f"{base}/3/", None, **{"If-Match": '"3"'}), 412, "version_mismatch")
    assert_error(client.json("DELETE", f"{base}/2/", None, **{"If-Match": '"4"'}), 409, "not_last_hand")
    assert_error(client.json("DELETE", f"{base}/9/", None, **{"If-Match": '"4"'}), 404, "not_found")
    assert_error(
        api_for(player_user).json("DELETE", f"{base}/3/", None, **{"If-Match": '"4"'}), 403, "permission_denied"
    )
    response = client.json("DELETE", f"{base}/3/", None, **{"If-Match": '"4"'})
    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["version"], body["next"]["number"]) == (session.pk, 5, 3)
    assert response.headers["ETag"] == '"5"'
    assert_error(client.json("GET", f"{base}/3/"), 404, "not_found")
    history = client.json("GET", f"{base}/3/history/").json()["results"]
    assert [r["action"] for r in history] == ["recorded", "undone"]
    assert_error(client.json("GET", f"{base}/4/history/"), 404, "not_found")
    assert client.record(session.pk, dict(AMERICAN_HANDS[2], number=3)).status_code == 201
    assert HandRevision.objects.filter(session=session, number=3).count() == 3
