"""The whole table (issue 25) through the API: a seat's ✓ and dispute, the treasurer's word on a dispute,
a close held by an open dispute, and the scope of seat and board links (404 for anything else)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from ledger.models import Club, DealCheck, Player, Role, SeatLink, Session
from ledger.services.clubs import player_create
from ledger.services.sessions import session_close
from tests.api.conftest import error
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, member, open_session, record_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(admin: Any, club: Club) -> dict[str, Any]:
    """A table whose four players are members with logins (players), two deals recorded by a scorer."""
    users = [member(club, admin, name.lower(), Role.PLAYER) for name in ("Ann", "Ben", "Cleo", "Dan")]
    seated = [player_create(actor=admin, club_id=club.pk, name=u.username.title(), user=u) for u in users]
    scorer = member(club, admin, "scorer", Role.SCORER)
    session = open_session(scorer, club, seated)
    record_all(scorer, session, AMERICAN_HANDS[:2])
    return {"users": users, "players": seated, "scorer": scorer, "session": session}


def url(session: Session, number: int, what: str) -> str:
    return f"/api/v1/sessions/{session.pk}/hands/{number}/{what}/"


def test_a_seated_player_confirms_and_disputes_for_his_own_seat_idempotently(api_for: Any, table: dict) -> None:
    session = fresh(table["session"])
    ben = api_for(table["users"][1])
    first = ben.json("POST", url(session, 1, "confirm"), {})
    assert first.status_code == 200, first.content
    assert first.json()["seat"] == 1 and first.json()["state"] == "confirmed"
    again = ben.json("POST", url(session, 1, "confirm"), {})
    assert again.status_code == 200 and again.json()["at"] == first.json()["at"]
    assert fresh(session).checks_version == 1  # the same word again changed nothing
    assert fresh(session).version == session.version  # a check never moves the version (If-Match)

    disputed = ben.json("POST", url(session, 2, "dispute"), {"reason": "Cleo took 8 tricks, not 7"})
    assert disputed.status_code == 200 and disputed.json()["state"] == "disputed"
    listed = ben.json("GET", f"/api/v1/sessions/{session.pk}/checks/")
    assert listed.status_code == 200 and listed["ETag"] == f'"{session.version}.2"'
    assert [(c["number"], c["seat"], c["state"]) for c in listed.json()["results"]] == [
        (1, 1, "confirmed"),
        (2, 1, "disputed"),
    ]


def test_a_dispute_needs_a_short_reason_in_the_request_language(api_for: Any, table: dict) -> None:
    ben = api_for(table["users"][1])
    empty = ben.json("POST", url(table["session"], 1, "dispute"), {"reason": "  "})
    assert empty.status_code == 400 and "reason" in error(empty)["fields"]
    long = ben.json("POST", url(table["session"], 1, "dispute"), {"reason": "x" * 201})
    assert long.status_code == 400 and "reason" in error(long)["fields"]


def test_who_may_confirm(api_for: Any, table: dict, admin: Any, club: Club, other_admin: Any) -> None:
    session = table["session"]
    not_seated = api_for(member(club, admin, "eve", Role.PLAYER))
    refused = not_seated.json("POST", url(session, 1, "confirm"), {})
    assert refused.status_code == 403 and error(refused)["code"] == "permission_denied"
    stranger = api_for(other_admin).json("POST", url(session, 1, "confirm"), {})
    assert stranger.status_code == 404 and error(stranger)["code"] == "not_found"
    no_deal = api_for(table["users"][0]).json("POST", url(session, 9, "confirm"), {})
    assert no_deal.status_code == 404
    anonymous = api_for().json("POST", url(session, 1, "confirm"), {})
    assert anonymous.status_code == 401


def test_an_amend_clears_the_deals_checks_and_asks_again(api_for: Any, table: dict) -> None:
    session, ben = fresh(table["session"]), api_for(table["users"][1])
    ben.json("POST", url(session, 2, "dispute"), {"reason": "wrong tricks"})
    scorer = api_for(table["scorer"])
    version = fresh(session).version
    amended = scorer.json(
        "PUT", url(session, 2, "")[:-1], {**AMERICAN_HANDS[1], "tricks": [2, 2, 8, 1]}, **{"If-Match": f'"{version}"'}
    )
    assert amended.status_code == 200, amended.content
    assert api_for(table["users"][0]).json("GET", f"/api/v1/sessions/{session.pk}/checks/").json()["count"] == 0
    history = scorer.json("GET", f"/api/v1/sessions/{session.pk}/checks/?history=true").json()["results"]
    assert [c["state"] for c in history] == ["disputed"] and history[0]["cleared_at"] is not None
    again = ben.json("POST", url(session, 2, "confirm"), {})
    assert again.status_code == 200 and again.json()["state"] == "confirmed"


def test_a_close_waits_for_the_treasurer_to_settle_each_dispute(
    api_for: Any, table: dict, club: Club, admin: Any
) -> None:
    session = table["session"]
    api_for(table["users"][3]).json("POST", url(session, 1, "dispute"), {"reason": "I had the last trick"})
    treasurer = api_for(member(club, admin, "treasurer", Role.TREASURER))
    at = {"If-Match": f'"{fresh(session).version}"'}
    held = treasurer.json("POST", f"/api/v1/sessions/{session.pk}/close/", {}, **at)
    assert held.status_code == 409 and error(held)["code"] == "disputes_open"
    assert error(held)["fields"]["disputes"] == ["deal 1 is disputed by seat 4"]

    settle = f"/api/v1/sessions/{session.pk}/hands/1/disputes/3/settle/"
    scorer_try = api_for(table["scorer"]).json("POST", settle, {"outcome": "overruled"})
    assert scorer_try.status_code == 403
    done = treasurer.json("POST", settle, {"outcome": "overruled", "note": "checked the tricks"})
    assert done.status_code == 200 and done.json()["outcome"] == "overruled"
    assert done.json()["settled_by"] == "treasurer" and done.json()["settled_at"]
    assert treasurer.json("POST", settle, {"outcome": "overruled"}).status_code == 200  # idempotent
    closed = treasurer.json("POST", f"/api/v1/sessions/{session.pk}/close/", {}, **at)
    assert closed.status_code == 200, closed.content
    late = api_for(table["users"][1]).json("POST", url(session, 1, "confirm"), {})
    assert late.status_code == 409 and error(late)["code"] == "session_closed"


def test_refusals_in_the_request_language(api_for: Any, table: dict) -> None:
    ben = api_for(table["users"][1])
    refused = ben.json("POST", url(table["session"], 1, "dispute"), {"reason": ""}, **{"Accept-Language": "fr"})
    assert refused.status_code == 400
    assert error(refused)["fields"]["reason"] != ["say in a few words what is not right"]


# --- seat links -------------------------------------------------------------------------------------


def issue(api_for: Any, table: dict, seat: int, session: Session | None = None) -> str:
    session = session or table["session"]
    answer = api_for(table["scorer"]).json("POST", f"/api/v1/sessions/{session.pk}/seat-links/", {"seat": seat})
    assert answer.status_code == 201, answer.content
    assert answer.json()["url"] == f"/s/{answer.json()['key']}/"
    return str(answer.json()["key"])


def test_a_seat_link_reads_its_session_and_speaks_for_its_seat_only(api_for: Any, table: dict) -> None:
    key = issue(api_for, table, 2)
    anon = api_for()
    read = anon.json("GET", f"/api/v1/seat/{key}/")
    assert read.status_code == 200 and read.json()["seat"] == 2
    assert read.json()["session"]["id"] == table["session"].pk
    confirmed = anon.json("POST", f"/api/v1/seat/{key}/hands/1/confirm/", {})
    assert confirmed.status_code == 200 and confirmed.json()["seat"] == 2 and confirmed.json()["seat_link"] is True
    other_seat = anon.json("POST", f"/api/v1/seat/{key}/hands/1/confirm/", {"seat": 1})
    assert other_seat.status_code == 400  # no seat is named through a link: only its own
    disputed = anon.json("POST", f"/api/v1/seat/{key}/hands/2/dispute/", {"reason": "not 7"})
    assert disputed.status_code == 200 and disputed.json()["seat"] == 2
    assert set(DealCheck.objects.values_list("seat", flat=True)) == {2}


def test_through_a_seat_link_anything_else_is_404(api_for: Any, table: dict, admin: Any, club: Club) -> None:
    key = issue(api_for, table, 0)
    other = open_session(table["scorer"], club, table["players"])
    record_all(table["scorer"], other, AMERICAN_HANDS[:1])
    anon = api_for()
    attempts = [
        ("POST", f"/api/v1/seat/{key}/hands/", AMERICAN_HANDS[2]),
        ("PUT", f"/api/v1/seat/{key}/hands/1/", AMERICAN_HANDS[0]),
        ("DELETE", f"/api/v1/seat/{key}/hands/2/", None),
        ("PUT", f"/api/v1/seat/{key}/hands/1/confirm/", {}),
        ("GET", f"/api/v1/seat/{key}/hands/1/confirm/", None),
        ("POST", f"/api/v1/seat/{key}/close/", {}),
        ("POST", f"/api/v1/seat/{key}/hands/1/disputes/0/settle/", {"outcome": "resolved"}),
        ("POST", f"/api/v1/seat/{key}/", {}),
        ("GET", f"/api/v1/seat/{key}/sessions/{other.pk}/", None),
    ]
    for method, path, body in attempts:
        answer = anon.json(method, path, body)
        assert answer.status_code == 404, (method, path, answer.status_code)
        assert error(answer)["code"] == "not_found"
    # The key is no credential elsewhere: another session's operations stay closed to it.
    elsewhere = anon.json("GET", f"/api/v1/sessions/{other.pk}/", None, HTTP_AUTHORIZATION=f"Token {key}")
    assert elsewhere.status_code == 401
    page = anon.get(f"/s/{key}/other/")
    assert page.status_code == 404


def test_a_revoked_or_expired_seat_link_is_404(api_for: Any, table: dict, admin: Any, club: Club) -> None:
    session = table["session"]
    key = issue(api_for, table, 1)
    link = SeatLink.objects.get()
    scorer = api_for(table["scorer"])
    assert scorer.json("DELETE", f"/api/v1/sessions/{session.pk}/seat-links/{link.pk}/").status_code == 204
    anon = api_for()
    for method, path in (("GET", f"/api/v1/seat/{key}/"), ("POST", f"/api/v1/seat/{key}/hands/1/confirm/")):
        assert anon.json(method, path, {} if method == "POST" else None).status_code == 404
    assert anon.get(f"/s/{key}/").status_code == 404
    assert anon.get(f"/live/seat/{key}/").status_code == 404

    live = issue(api_for, table, 3)
    treasurer = member(club, admin, "treasurer", Role.TREASURER)
    session_close(actor=treasurer, session_id=session.pk, expected_version=fresh(session).version)
    assert anon.json("GET", f"/api/v1/seat/{live}/").status_code == 200  # read for 24 hours after the close
    Session.objects.filter(pk=session.pk).update(closed_at=timezone.now() - dt.timedelta(hours=24, seconds=1))
    assert anon.json("GET", f"/api/v1/seat/{live}/").status_code == 404
    assert anon.get(f"/s/{live}/").status_code == 404


def test_only_a_scorer_issues_a_seat_link_for_an_open_session(api_for: Any, table: dict) -> None:
    session = table["session"]
    player = api_for(table["users"][0]).json("POST", f"/api/v1/sessions/{session.pk}/seat-links/", {"seat": 0})
    assert player.status_code == 403
    bad = api_for(table["scorer"]).json("POST", f"/api/v1/sessions/{session.pk}/seat-links/", {"seat": 4})
    assert bad.status_code == 400 and "seat" in error(bad)["fields"]


# --- board links ------------------------------------------------------------------------------------


def test_a_board_link_reads_the_club_board_only_and_can_be_revoked(
    api_for: Any, table: dict, admin: Any, club: Club, other_club: Club, other_admin: Any
) -> None:
    api = api_for(admin)
    made = api.json("POST", f"/api/v1/clubs/{club.pk}/board-links/", {"name": "Room screen"})
    assert made.status_code == 201, made.content
    key = made.json()["key"]
    anon = api_for()
    board = anon.get(f"/b/{key}/")
    assert board.status_code == 200 and b"Ann" in board.content
    assert anon.get(f"/b/{key}/tables/").status_code == 200
    assert anon.json("GET", f"/api/v1/seat/{key}/").status_code == 404  # a board key is no seat link
    assert anon.post(f"/b/{key}/").status_code in (404, 405)
    assert api_for(table["scorer"]).json("POST", f"/api/v1/clubs/{club.pk}/board-links/", {}).status_code == 403
    assert api_for(other_admin).json("POST", f"/api/v1/clubs/{club.pk}/board-links/", {}).status_code == 404
    link_id = made.json()["id"]
    assert (
        api_for(other_admin).json("DELETE", f"/api/v1/clubs/{other_club.pk}/board-links/{link_id}/").status_code == 404
    )
    assert api.json("DELETE", f"/api/v1/clubs/{club.pk}/board-links/{link_id}/").status_code == 204
    assert anon.get(f"/b/{key}/").status_code == 404
    assert anon.get(f"/live/board/{key}/").status_code == 404


def test_players_with_logins_are_players_of_the_club(table: dict) -> None:
    assert Player.objects.filter(user__isnull=False).count() == 4
