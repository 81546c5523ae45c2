"""A club's presets through the API (issue 42): create, read, edit into versions, archive; a session
opened with `preset` keeps the version it was opened from, and a later edit re-prices nothing."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from ledger.models import Club, Player, PresetVersion, Session
from tests.api.conftest import Api, assert_error
from tests.ledger_fixtures import AMERICAN_HANDS

pytestmark = pytest.mark.django_db

HOUSE = {"name": "Tuesday club", "variant": "american", "rules": {"ante": 10}, "stake": None}


def url(club: Club, preset: int | None = None, tail: str = "") -> str:
    base = f"/api/v1/clubs/{club.pk}/presets/"
    return base if preset is None else f"{base}{preset}/{tail}"


def create(api: Api, club: Club, **changes: Any) -> dict[str, Any]:
    response = api.json("POST", url(club), {**HOUSE, **changes})
    assert response.status_code == 201, response.content
    assert response["ETag"] == '"1"'
    return dict(response.json())


def open_from(api: Api, club: Club, players: list[Player], preset: int, **extra: Any) -> Any:
    body = {"club": club.pk, "players": [p.pk for p in players], "first_dealer": 0, "preset": preset, **extra}
    return api.json("POST", "/api/v1/sessions/", body)


def test_create_read_and_list(api: Api, club: Club) -> None:
    made = create(api, club, stake={"currency": "EUR", "per_counter": "0.05"})
    assert made["version"] == 1 and made["variant"] == "american" and made["rules"] == {"ante": 10}
    assert made["stake"] == {"currency": "EUR", "per_counter": "0.05"} and made["archived"] is False
    got = api.get(url(club, made["id"]))
    assert got.status_code == 200 and got.json() == made and got["ETag"] == '"1"'
    listed = api.get(url(club)).json()
    assert [p["name"] for p in listed["results"]] == ["Tuesday club"]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"variant": "whist"}, "variant"),
        ({"rules": {"ante": -1}}, "rules.ante"),
        ({"rules": {"no_such_option": 1}}, "rules.no_such_option"),
        ({"rules": {"table": "hexadecimal"}}, "rules.table"),
        ({"stake": {"currency": "EUR"}}, "stake"),
        ({"name": ""}, "name"),
    ],
)
def test_the_engine_judges_a_preset_as_a_session(api: Api, club: Club, changes: dict[str, Any], field: str) -> None:
    """A preset's conditions are refused where a session's would be, naming the field: the options are
    the variant's declaration's, none of them known here."""
    response = api.json("POST", url(club), {**HOUSE, **changes})
    assert response.status_code == 400, response.content
    fields = response.json()["error"]["fields"]
    assert any(name == field or name.startswith(field) for name in fields), fields


def test_a_name_is_taken_once(api: Api, club: Club) -> None:
    create(api, club)
    assert_error(api.json("POST", url(club), HOUSE), 400, "invalid_request", "name")


def test_an_edit_makes_a_new_version_and_an_open_evening_keeps_its_own(
    api: Api, club: Club, players: list[Player]
) -> None:
    made = create(api, club)
    opened = open_from(api, club, players, made["id"])
    assert opened.status_code == 201, opened.content
    session = opened.json()
    assert session["preset"] == made["id"] and session["preset_version"] == 1
    assert session["variant"] == "american" and session["rules"] == {"ante": 10}
    for hand in AMERICAN_HANDS[:2]:
        assert api.record(session["id"], hand).status_code == 201
    before = api.get(f"/api/v1/sessions/{session['id']}/").json()

    edited = api.json("PUT", url(club, made["id"]), {**HOUSE, "rules": {"ante": 2}}, **{"If-Match": '"1"'})
    assert edited.status_code == 200, edited.content
    assert edited.json()["version"] == 2 and edited["ETag"] == '"2"'

    after = api.get(f"/api/v1/sessions/{session['id']}/").json()
    assert after["rules"] == {"ante": 10} and after["balances"] == before["balances"]
    assert after["preset_version"] == 1
    assert api.record(session["id"], AMERICAN_HANDS[2]).status_code == 201  # still played at ante 10
    assert Session.objects.get(pk=session["id"]).rules == {"ante": 10}

    second = open_from(api, club, players, made["id"]).json()
    assert second["rules"] == {"ante": 2} and second["preset_version"] == 2
    versions = api.get(url(club, made["id"], "versions/")).json()["results"]
    assert [(v["version"], v["rules"]) for v in versions] == [(1, {"ante": 10}), (2, {"ante": 2})]


def test_an_edit_needs_the_version_it_was_based_on(api: Api, club: Club) -> None:
    made = create(api, club)
    assert_error(api.json("PUT", url(club, made["id"]), HOUSE), 428, "if_match_required")
    stale = api.json("PUT", url(club, made["id"]), {**HOUSE, "rules": {"ante": 3}}, **{"If-Match": '"7"'})
    assert_error(stale, 412, "version_mismatch")
    assert PresetVersion.objects.filter(preset_id=made["id"]).count() == 1


def test_the_same_conditions_again_make_no_version(api: Api, club: Club) -> None:
    made = create(api, club)
    renamed = api.json("PUT", url(club, made["id"]), {**HOUSE, "name": "Thursdays"}, **{"If-Match": '"1"'})
    assert renamed.status_code == 200 and renamed.json()["version"] == 1 and renamed.json()["name"] == "Thursdays"


def test_a_session_from_a_preset_takes_nothing_else(api: Api, club: Club, players: list[Player]) -> None:
    made = create(api, club)
    both = open_from(api, club, players, made["id"], variant="french")
    assert_error(both, 400, "invalid_request", "variant")
    neither = api.json(
        "POST", "/api/v1/sessions/", {"club": club.pk, "players": [p.pk for p in players], "first_dealer": 0}
    )
    assert_error(neither, 400, "invalid_request", "variant")


def test_archived_no_table_opens_from_it(api: Api, club: Club, players: list[Player]) -> None:
    made = create(api, club)
    opened = open_from(api, club, players, made["id"]).json()
    assert api.delete(url(club, made["id"])).status_code == 204
    assert api.delete(url(club, made["id"])).status_code == 204  # again: the same
    assert_error(open_from(api, club, players, made["id"]), 400, "invalid_request", "preset")
    assert api.get(url(club)).json()["count"] == 0
    assert api.get(url(club) + "?archived=true").json()["results"][0]["archived"] is True
    assert api.get(f"/api/v1/sessions/{opened['id']}/").json()["preset_version"] == 1
    create(api, club)  # the name is free again


def test_a_create_with_an_idempotency_key_is_made_once(api: Api, club: Club) -> None:
    key = str(uuid.uuid4())
    first = api.json("POST", url(club), HOUSE, **{"Idempotency-Key": key})
    again = api.json("POST", url(club), HOUSE, **{"Idempotency-Key": key})
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert api.get(url(club)).json()["count"] == 1
    other = api.json("POST", url(club), {**HOUSE, "name": "Other"}, **{"Idempotency-Key": key})
    assert_error(other, 422, "idempotency_key_reused")


def test_roles_and_clubs(
    api_for: Callable[..., Api],
    api: Api,
    club: Club,
    other_club: Club,
    other_admin: Any,
    scorer: Any,
    treasurer: Any,
    players: list[Player],
) -> None:
    """Treasurers and admins keep the presets, a scorer opens a table from one, and nobody of another
    club sees or uses them (404, never 403)."""
    made = create(api_for(treasurer), club)
    as_scorer = api_for(scorer)
    assert_error(as_scorer.json("POST", url(club), {**HOUSE, "name": "Mine"}), 403, "permission_denied")
    assert_error(as_scorer.json("PUT", url(club, made["id"]), HOUSE, **{"If-Match": '"1"'}), 403, "permission_denied")
    assert as_scorer.get(url(club, made["id"])).status_code == 200
    assert open_from(as_scorer, club, players, made["id"]).status_code == 201
    stranger = api_for(other_admin)
    assert_error(stranger.get(url(club, made["id"])), 404, "not_found")
    assert_error(stranger.get(url(other_club, made["id"])), 404, "not_found")
    assert_error(stranger.delete(url(other_club, made["id"])), 404, "not_found")
    # another club's preset id in a session of one's own club: no such preset there
    mine = [
        stranger.json("POST", f"/api/v1/clubs/{other_club.pk}/players/", {"name": n}).json()["id"]
        for n in ("Eve", "Fay", "Gus", "Hal")
    ]
    body = {"club": other_club.pk, "players": mine, "first_dealer": 0, "preset": made["id"]}
    assert_error(stranger.json("POST", "/api/v1/sessions/", body), 400, "invalid_request", "preset")


def test_the_schema_documents_the_presets(api: Api) -> None:
    paths = api.get("/api/schema/").json()["paths"]
    assert {"get", "post"} <= set(paths["/api/v1/clubs/{club_id}/presets/"])
    assert {"get", "put", "delete"} <= set(paths["/api/v1/clubs/{club_id}/presets/{preset_id}/"])
    assert "get" in paths["/api/v1/clubs/{club_id}/presets/{preset_id}/versions/"]
