"""Cut-ins through the API (issue 37): the proposal (who cuts out, who cuts in), the cut-in itself at
the game's break (201: the game closed, the next opened as game 2 of the table with its seat links),
refused in words before the break, 409 `game_moved` on a second tap, replayed by its Idempotency-Key
without the links' keys, for treasurers only, in French too."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from ledger.models import Club, NightTable
from ledger.services.clubs import player_create
from tests.api.conftest import Api, assert_error
from tests.ledger_fixtures import AMERICAN_HANDS, record_all

pytestmark = pytest.mark.django_db

USD = {"currency": "USD", "per_counter": "0.01"}
GAME = AMERICAN_HANDS * 2 + AMERICAN_HANDS[:3] + AMERICAN_HANDS[:1]


@pytest.fixture
def drawn(api: Api, admin: Any, club: Club) -> dict[str, Any]:
    """A night of nine drawn: two tables, Ida waits."""
    nine = [
        player_create(actor=admin, club_id=club.pk, name=n)
        for n in ("Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida")
    ]
    night = api.json("POST", f"/api/v1/clubs/{club.pk}/nights/", {"date": "2026-03-14"}).json()
    for p in nine:
        api.json("POST", f"/api/v1/nights/{night['id']}/check-ins/", {"player": p.pk})
    body = api.json("POST", f"/api/v1/nights/{night['id']}/draw/", {"variant": "american", "stake": USD, "seed": 59})
    assert body.status_code == 201, body.content
    return dict(body.json())


def url(drawn: dict[str, Any], number: int = 1) -> str:
    return f"/api/v1/nights/{drawn['night']['id']}/tables/{number}/cut-in/"


def play_game(admin: Any, drawn: dict[str, Any], number: int = 1) -> None:
    table = NightTable.objects.filter(night_id=drawn["night"]["id"], number=number).order_by("-game")[0]
    record_all(admin, table.session, GAME)


def test_the_proposal_names_who_cuts_out_and_in_and_waits_for_the_break(
    api: Api, admin: Any, drawn: dict[str, Any]
) -> None:
    early = api.json("GET", url(drawn)).json()
    assert early["ready"] is False and early["played"] == 0 and early["break_deal"] == 12
    assert [p["name"] for p in early["into"]] == ["Ida"] and len(early["out"]) == 1 and len(early["seats"]) == 4
    refused = assert_error(api.json("POST", url(drawn), {"game": 1}), 400, "invalid_request", "table")
    assert refused["fields"]["table"] == ["a cut-in waits for the end of the game: the 12th deal"]
    play_game(admin, drawn)
    ready = api.json("GET", url(drawn)).json()
    assert ready["ready"] is True and ready == {**early, "ready": True, "played": 12}  # the same lot
    assert api.json("GET", url(drawn) + "?method=lot").json()["method"] == "lot"
    assert_error(api.json("GET", url(drawn) + "?method=age"), 400, "invalid_request", "method")
    assert_error(api.json("GET", url(drawn) + "?count=2"), 400, "invalid_request", "count")
    assert_error(api.json("GET", url(drawn, 7)), 400, "invalid_request", "table")


def test_a_cut_in_opens_game_two_with_its_links_and_a_second_tap_is_409(
    api: Api, admin: Any, drawn: dict[str, Any]
) -> None:
    play_game(admin, drawn)
    proposal = api.json("GET", url(drawn)).json()
    done = api.json("POST", url(drawn), {"game": 1})
    assert done.status_code == 201, done.content
    body = done.json()
    assert body["cut"] == proposal and body["closed"] == drawn["tables"][0]["session"]
    table = body["table"]
    assert (table["number"], table["game"], table["status"]) == (1, 2, "open")
    assert [s["player"] for s in table["seats"]] == [p["player"] for p in proposal["seats"]]
    assert len(table["seat_links"]) == 4 and all(link["key"] for link in table["seat_links"])
    assert Api().get(f"/api/v1/seat/{table['seat_links'][0]['key']}/").status_code == 200
    assert [w["name"] for w in body["waiting"]] == [proposal["out"][0]["name"]]
    assert_error(api.json("POST", url(drawn), {"game": 1}), 409, "game_moved")
    room = api.json("GET", f"/api/v1/nights/{drawn['night']['id']}/").json()
    assert [(t["number"], t["game"]) for t in room["tables"]] == [(1, 1), (1, 2), (2, 1)]
    closed = api.json("GET", f"/api/v1/sessions/{body['closed']}/").json()
    assert closed["status"] == "closed"


def test_an_idempotent_retry_answers_the_cut_in_again_without_the_keys(
    api: Api, admin: Any, drawn: dict[str, Any]
) -> None:
    play_game(admin, drawn)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = api.json("POST", url(drawn), {"game": 1}, **key)
    again = api.json("POST", url(drawn), {"game": 1}, **key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json()["table"]["session"] == first.json()["table"]["session"]
    assert all(link["key"] is None for link in again.json()["table"]["seat_links"])
    assert NightTable.objects.filter(night_id=drawn["night"]["id"]).count() == 3


def test_only_treasurers_cut_in_and_another_club_sees_nothing(
    api_for: Callable[..., Api], admin: Any, scorer: Any, other_admin: Any, drawn: dict[str, Any]
) -> None:
    play_game(admin, drawn)
    assert_error(api_for(scorer).json("POST", url(drawn), {"game": 1}), 403, "permission_denied")
    assert_error(api_for(scorer).json("GET", url(drawn)), 403, "permission_denied")
    assert_error(api_for(other_admin).json("POST", url(drawn), {"game": 1}), 404, "not_found")
    assert_error(api_for(admin).json("POST", url(drawn), {}), 400, "invalid_request", "game")


def test_the_refusal_is_said_in_french(api: Api, drawn: dict[str, Any]) -> None:
    refused = api.json("POST", url(drawn), {"game": 1}, **{"Accept-Language": "fr"})
    message = assert_error(refused, 400, "invalid_request", "table")["fields"]["table"][0]
    assert "12" in message and "a cut-in waits" not in message


def test_the_schema_documents_the_cut_in(api: Api) -> None:
    paths = api.get("/api/schema/").json()["paths"]
    cut = paths["/api/v1/nights/{night_id}/tables/{number}/cut-in/"]
    assert set(cut) >= {"get", "post"} and "game_moved" in cut["post"]["description"]
