"""/api/v1/sessions/...: open, list and filter, read, close, reopen, settlement, sheet, import."""

from __future__ import annotations

from typing import Any

import pytest

from ledger import selectors
from ledger.engine import settle
from ledger.models import Session
from ledger.services.clubs import player_create
from ledger.services.sessions import session_close
from tests.api.conftest import assert_error
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, open_session, record_all

pytestmark = pytest.mark.django_db

SHAPE = {"id", "club", "variant", "rules", "players", "first_dealer", "stake", "status", "version", "balances"}
SHAPE |= {"pools", "next"}


def opening(club: Any, players: list[Any], **extra: Any) -> dict[str, Any]:
    return {
        "club": club.pk,
        "variant": "american",
        "rules": {},
        "players": [p.pk for p in players],
        "first_dealer": 0,
    } | extra


# --- opening ---------------------------------------------------------------------------------------


def test_open_answers_201_with_the_session_at_version_1(
    api_for: Any, scorer: Any, club: Any, players: list[Any]
) -> None:
    stake = {"currency": "USD", "per_counter": "0.01"}
    response = api_for(scorer).json("POST", "/api/v1/sessions/", opening(club, players, first_dealer=2, stake=stake))
    assert response.status_code == 201
    body = response.json()
    assert set(body) >= SHAPE
    assert body["players"] == [p.pk for p in players]
    assert (body["club"], body["variant"], body["status"], body["version"], body["stake"]) == (
        club.pk,
        "american",
        "open",
        1,
        stake,
    )
    assert (body["balances"], body["pools"]) == ([0, 0, 0, 0], [])
    assert body["next"] == {"number": 1, "dealer": 2, "double": False}
    assert response.headers["ETag"] == '"1"'


@pytest.mark.parametrize(
    ("change", "status", "code", "field"),
    [
        ({"variant": "whist"}, 400, "invalid_sheet", "variant"),
        ({"rules": {"ante": -1}}, 400, "invalid_option", "rules.ante"),
        ({"rules": []}, 400, "invalid_sheet", "rules"),
        ({"first_dealer": 7}, 400, "invalid_sheet", "first_dealer"),
        ({"stake": {"currency": "USD", "per_counter": "1e-2"}}, 400, "invalid_sheet", "stake"),
        ({"players": [1, 2, 3]}, 400, "invalid_request", "players"),
        ({"players": [1, 2, 3, "x"]}, 400, "invalid_request", "players.3"),
        ({"club": "x"}, 400, "invalid_request", "club"),
        ({"colour": "red"}, 400, "invalid_request", "colour"),
        ({"carry_pools_from": 999999}, 400, "invalid_request", "carry_pools_from"),
    ],
)
def test_open_refusals(
    api: Any, club: Any, players: list[Any], change: dict, status: int, code: str, field: str
) -> None:
    assert_error(api.json("POST", "/api/v1/sessions/", opening(club, players) | change), status, code, field)
    assert not Session.objects.exists()


def test_open_needs_a_scorer_of_that_club(
    api_for: Any, club: Any, players: list[Any], player_user: Any, other_admin: Any
) -> None:
    assert_error(
        api_for(player_user).json("POST", "/api/v1/sessions/", opening(club, players)), 403, "permission_denied"
    )
    assert_error(api_for(other_admin).json("POST", "/api/v1/sessions/", opening(club, players)), 404, "not_found")


def test_open_with_carried_pools_claims_them_once(api: Any, admin: Any, club: Any, players: list[Any]) -> None:
    source = open_session(admin, club, players)
    record_all(admin, source, AMERICAN_HANDS[:3])
    session_close(actor=admin, session_id=source.pk, pools="carry", expected_version=4)
    response = api.json("POST", "/api/v1/sessions/", opening(club, players, carry_pools_from=source.pk))
    assert response.status_code == 201
    assert response.json()["pools"] == [5]
    again = api.json("POST", "/api/v1/sessions/", opening(club, players, carry_pools_from=source.pk))
    assert_error(again, 409, "pools_claimed")
    reopen = api.json("POST", f"/api/v1/sessions/{source.pk}/reopen/", None, **{"If-Match": '"5"'})
    assert_error(reopen, 409, "pools_claimed")


# --- listing and reading ---------------------------------------------------------------------------


def test_list_and_filters(
    api: Any, admin: Any, club: Any, players: list[Any], other_admin: Any, other_club: Any
) -> None:
    first = open_session(admin, club, players)
    second = open_session(admin, club, players)
    record_all(admin, first, AMERICAN_HANDS[:1])
    session_close(actor=admin, session_id=first.pk, expected_version=2)
    others = [player_create(actor=other_admin, club_id=other_club.pk, name=n) for n in "WXYZ"]
    open_session(other_admin, other_club, others)

    def ids(query: str = "") -> list[int]:
        response = api.json("GET", f"/api/v1/sessions/{query}")
        assert response.status_code == 200, response.json()
        return [s["id"] for s in response.json()["results"]]

    assert ids() == [second.pk, first.pk]
    assert ids(f"?club={club.pk}&status=closed") == [first.pk]
    assert ids(f"?club={other_club.pk}") == []
    assert ids(f"?player={players[0].pk}&status=open") == [second.pk]
    assert ids("?date_from=2000-01-01&date_to=2999-12-31") == [second.pk, first.pk]
    assert ids("?date_to=2000-01-01") == []
    russian = open_session(admin, club, players, variant="russian")
    assert ids(f"?club={club.pk}&variant=russian") == [russian.pk]
    assert ids(f"?club={club.pk}&variant=american") == [second.pk, first.pk]
    for bad, field in [
        ("status=done", "status"),
        ("club=x", "club"),
        ("date_from=01/02/2024", "date_from"),
        ("variant=whist", "variant"),
    ]:
        assert_error(api.json("GET", f"/api/v1/sessions/?{bad}"), 400, "invalid_request", field)
    assert_error(api.json("GET", "/api/v1/sessions/?sort=id"), 400, "invalid_request", "sort")


def test_read_a_session(api_for: Any, admin: Any, session: Any, player_user: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS[:2])
    response = api_for(player_user).json("GET", f"/api/v1/sessions/{session.pk}/")
    assert response.status_code == 200
    body = response.json()
    assert (body["version"], body["next"]) == (3, {"number": 3, "dealer": 2, "double": False})
    assert body["balances"] == settle(selectors.session_sheet(session=session))["balances"]
    assert response.headers["ETag"] == '"3"'


# --- closing and reopening -------------------------------------------------------------------------


def test_close_checks_if_match_then_body_then_settles(api_for: Any, admin: Any, session: Any, treasurer: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS[:3])
    client = api_for(treasurer)
    url = f"/api/v1/sessions/{session.pk}/close/"
    assert_error(client.json("POST", url, {}), 428, "if_match_required")
    assert_error(client.json("POST", url, {}, **{"If-Match": '"3"'}), 412, "version_mismatch")
    assert_error(client.json("POST", url, {}, **{"If-Match": 'W/"4"'}), 412, "version_mismatch")
    for bad in ({"pools": "share"}, {"pools": "divide", "x": 1}, [1], "divide"):
        assert_error(client.json("POST", url, bad, **{"If-Match": '"4"'}), 400, "invalid_request")
    response = client.json("POST", url, {}, **{"If-Match": '"4"'})
    assert response.status_code == 200
    sheet = selectors.session_sheet(session=fresh(session))
    assert sheet["close"] == {"pools": "divide"}
    assert response.json() == settle(sheet)
    assert response.json()["close"]["division"] == [1, 1, 1, 1]
    assert response.headers["ETag"] == '"5"'
    assert_error(client.json("POST", url, {}, **{"If-Match": '"5"'}), 409, "session_closed")
    assert_error(client.json("POST", url, {"pools": "share"}), 409, "session_closed")  # before If-Match and body


def test_close_with_no_body_or_carry(api: Any, admin: Any, club: Any, players: list[Any]) -> None:
    empty = open_session(admin, club, players)
    response = api.post(f"/api/v1/sessions/{empty.pk}/close/", headers={"If-Match": '"1"'})
    assert response.status_code == 200
    assert response.json()["close"]["carried"] == []
    carry = open_session(admin, club, players)
    record_all(admin, carry, AMERICAN_HANDS[:3])
    response = api.json("POST", f"/api/v1/sessions/{carry.pk}/close/", {"pools": "carry"}, **{"If-Match": '"4"'})
    assert response.json()["close"]["carried"] == [5]


def test_close_and_reopen_need_a_treasurer(api_for: Any, session: Any, scorer: Any, player_user: Any) -> None:
    for user in (scorer, player_user):
        client = api_for(user)
        assert_error(
            client.json("POST", f"/api/v1/sessions/{session.pk}/close/", {}, **{"If-Match": '"1"'}),
            403,
            "permission_denied",
        )
    session_close(actor=session.opened_by, session_id=session.pk, expected_version=1)
    assert_error(
        api_for(scorer).json("POST", f"/api/v1/sessions/{session.pk}/reopen/", None, **{"If-Match": '"2"'}),
        403,
        "permission_denied",
    )


def test_reopen(api_for: Any, admin: Any, session: Any, treasurer: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS[:3])
    client = api_for(treasurer)
    url = f"/api/v1/sessions/{session.pk}/reopen/"
    assert_error(client.json("POST", url, None, **{"If-Match": '"4"'}), 409, "session_not_closed")
    session_close(actor=admin, session_id=session.pk, expected_version=4)
    assert_error(client.json("POST", url), 428, "if_match_required")
    assert_error(client.json("POST", url, None, **{"If-Match": '"4"'}), 412, "version_mismatch")
    response = client.json("POST", url, None, **{"If-Match": '"5"'})
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["version"]) == ("open", 6)
    assert response.headers["ETag"] == '"6"'
    settlement = client.json("GET", f"/api/v1/sessions/{session.pk}/settlement/").json()
    assert "close" not in settlement
    assert client.record(session.pk, AMERICAN_HANDS[3]).status_code == 201


# --- settlement, sheet, import ---------------------------------------------------------------------


def test_settlement_and_sheet(api_for: Any, admin: Any, session: Any, player_user: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    client = api_for(player_user)
    sheet = client.json("GET", f"/api/v1/sessions/{session.pk}/sheet/")
    assert sheet.status_code == 200
    assert sheet.headers["ETag"] == '"5"'
    assert sheet.json() == {
        "format": "clubscore-sheet/1",
        "variant": "american",
        "rules": {},
        "players": ["Ann", "Ben", "Cleo", "Dan"],
        "first_dealer": 0,
        "pools": [],
        "stake": {"currency": "USD", "per_counter": "0.01"},
        "hands": AMERICAN_HANDS,
    }
    settlement = client.json("GET", f"/api/v1/sessions/{session.pk}/settlement/")
    assert settlement.json() == settle(sheet.json())
    assert "close" not in settlement.json()


def test_import_answers_201_and_round_trips(api_for: Any, admin: Any, session: Any, treasurer: Any, club: Any) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    session_close(actor=admin, session_id=session.pk, expected_version=5)
    client = api_for(treasurer)
    sheet = client.json("GET", f"/api/v1/sessions/{session.pk}/sheet/").json()
    response = client.json("POST", "/api/v1/sessions/import/", {"club": club.pk, "sheet": sheet})
    assert response.status_code == 201
    body = response.json()
    assert (body["status"], body["version"], body["players"]) == ("closed", 1, response.json()["players"])
    assert body["players"] == client.json("GET", f"/api/v1/sessions/{session.pk}/").json()["players"]
    imported = client.json("GET", f"/api/v1/sessions/{body['id']}/settlement/").json()
    assert imported == client.json("GET", f"/api/v1/sessions/{session.pk}/settlement/").json() == settle(sheet)
    assert client.json("GET", f"/api/v1/sessions/{body['id']}/sheet/").json() == sheet


def test_import_refusals(api_for: Any, admin: Any, club: Any, scorer: Any, other_admin: Any) -> None:
    sheet = {
        "format": "clubscore-sheet/1",
        "variant": "american",
        "players": ["Ann", "Ben", "Eve", "Fay"],
        "first_dealer": 0,
        "hands": [{"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [3, 3, 3, 3]}],
    }
    client = api_for(scorer)
    err = assert_error(
        client.json("POST", "/api/v1/sessions/import/", {"club": club.pk, "sheet": sheet}), 400, "invalid_hand"
    )
    assert (err["hand"], list(err["fields"])) == (1, ["tricks"])
    closed = dict(sheet, hands=[], close={"pools": "divide"})
    assert_error(
        client.json("POST", "/api/v1/sessions/import/", {"club": club.pk, "sheet": closed}), 403, "permission_denied"
    )
    assert_error(client.json("POST", "/api/v1/sessions/import/", {"club": club.pk}), 400, "invalid_request", "sheet")
    assert_error(
        api_for(other_admin).json(
            "POST", "/api/v1/sessions/import/", {"club": club.pk, "sheet": dict(sheet, hands=[])}
        ),
        404,
        "not_found",
    )
    assert not Session.objects.exists()


# --- another club's sessions -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "suffix", "body"),
    [
        ("GET", "", None),
        ("GET", "hands/", None),
        ("GET", "hands/1/", None),
        ("PUT", "hands/1/", AMERICAN_HANDS[0]),
        ("DELETE", "hands/1/", None),
        ("GET", "hands/1/history/", None),
        ("POST", "close/", {}),
        ("POST", "reopen/", None),
        ("GET", "settlement/", None),
        ("GET", "sheet/", None),
    ],
)
def test_another_clubs_session_is_not_found(
    api_for: Any, admin: Any, session: Any, other_admin: Any, method: str, suffix: str, body: Any
) -> None:
    record_all(admin, session, AMERICAN_HANDS[:1])
    client = api_for(other_admin)  # a superuser, admin of another club
    response = client.json(method, f"/api/v1/sessions/{session.pk}/{suffix}", body, **{"If-Match": '"2"'})
    assert_error(response, 404, "not_found")
    missing = client.json(method, f"/api/v1/sessions/{session.pk + 1000}/{suffix}", body, **{"If-Match": '"2"'})
    assert response.json() == {**missing.json(), "error": {**missing.json()["error"]}}  # says no more
    assert Session.objects.get(pk=session.pk).version == 2
    assert client.json("GET", f"/api/v1/sessions/?club={session.club_id}").json()["count"] == 0
