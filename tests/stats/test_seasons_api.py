"""The seasons' API (issue 41): create, read, edit, the standings in JSON and CSV, roles and refusals."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from ledger.models import Club, Session
from tests.api.conftest import assert_error
from tests.stats.seasons_data import EVENINGS, import_all

pytestmark = pytest.mark.django_db

WINTER = {
    "name": "Winter 2026",
    "starts_on": "2026-01-01",
    "ends_on": "2026-03-31",
    "variants": ["american"],
    "min_evenings": 3,
    "best_of": 5,
}


@pytest.fixture
def evenings(admin: Any, club: Club) -> dict[str, Session]:
    return import_all(admin, club, EVENINGS)


def create(api: Any, club: Club, body: dict[str, Any] = WINTER) -> Any:
    return api.json("POST", f"/api/v1/clubs/{club.pk}/seasons/", body)


def test_create_read_and_standings(api: Any, club: Club, evenings: dict[str, Session]) -> None:
    created = create(api, club)
    assert created.status_code == 201, created.content
    season = created.json()
    assert created["ETag"] == '"1"'
    assert {k: season[k] for k in WINTER} == WINTER
    assert (season["measure"], season["handicap_percent"], season["stored"]) == ("counters", 0, False)
    listed = api.get(f"/api/v1/clubs/{club.pk}/seasons/").json()
    assert [s["id"] for s in listed["results"]] == [season["id"]]
    body = api.get(f"/api/v1/clubs/{club.pk}/seasons/{season['id']}/standings/").json()
    # The hand computation of tests/stats/test_seasons.py: Claire 1043, Eve 562, Boris 444, ..., Gleb unranked.
    assert [(r["rank"], r["player"]["name"], r["total"]) for r in body["lines"]] == [
        (1, "Claire", 1043),
        (2, "Eve", 562),
        (3, "Boris", 444),
        (4, "Denis", 407),
        (5, "Ann", 244),
        (6, "Fyodor", 211),
        (None, "Gleb", -10),
    ]
    assert body["stored"] and body["ended"] and body["notes"] == []
    eve = body["lines"][1]
    assert [e["value"] for e in eve["evenings"] if not e["counts"]] == [-139]
    assert {e["session"] for e in eve["evenings"]} <= {s.pk for s in evenings.values()}


def test_standings_csv_data_and_for_people(api: Any, club: Club, evenings: dict[str, Session]) -> None:
    season = create(api, club).json()
    url = f"/api/v1/clubs/{club.pk}/seasons/{season['id']}/standings/"
    data = api.get(url, {"format": "csv"})
    assert data["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(data.content.decode())))
    assert rows[0] == ["rank", "player_id", "player", "played", "counted", "qualified", "sum", "handicap", "total"]
    assert rows[1][0] == "1" and rows[1][2:] == ["Claire", "8", "5", "True", "1043", "0", "1043"]
    assert rows[-1][0] == "" and rows[-1][2] == "Gleb"
    french = api.get(url, HTTP_ACCEPT="text/csv", HTTP_ACCEPT_LANGUAGE="fr")
    text = french.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert rows[0][0] == "Rang" and rows[0][5] == "Qualifié"
    assert rows[1][5] == "oui"


def test_edit_with_if_match(api: Any, club: Club) -> None:
    season = create(api, club).json()
    url = f"/api/v1/clubs/{club.pk}/seasons/{season['id']}/"
    assert api.json("PUT", url, {**WINTER, "best_of": 6}).status_code == 428
    stale = api.json("PUT", url, {**WINTER, "best_of": 6}, **{"If-Match": '"7"'})
    assert_error(stale, 412, "version_mismatch")
    edited = api.json("PUT", url, {**WINTER, "best_of": 6}, **{"If-Match": '"1"'})
    assert edited.status_code == 200, edited.content
    assert (edited.json()["best_of"], edited["ETag"]) == (6, '"2"')


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"ends_on": "2025-01-01"}, "ends_on"),
        ({"variants": ["american", "russian"]}, "variants"),
        ({"best_of": 0}, "best_of"),
        ({"measure": "money", "currency": "usd"}, "currency"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_fields_are_400_naming_them(api: Any, club: Club, change: dict[str, Any], field: str) -> None:
    assert_error(create(api, club, {**WINTER, **change}), 400, "invalid_request", field)


def test_roles_and_other_clubs(
    api_for: Any, club: Club, other_club: Club, other_admin: Any, treasurer: Any, scorer: Any, player_user: Any
) -> None:
    assert_error(create(api_for(scorer), club), 403, "permission_denied")
    assert_error(create(api_for(player_user), club), 403, "permission_denied")
    made = create(api_for(treasurer), club)
    assert made.status_code == 201
    season_id = made.json()["id"]
    # A player reads them; another club's admin (a superuser) sees nothing of them.
    assert api_for(player_user).get(f"/api/v1/clubs/{club.pk}/seasons/{season_id}/standings/").status_code == 200
    stranger = api_for(other_admin)
    assert_error(stranger.get(f"/api/v1/clubs/{club.pk}/seasons/"), 404, "not_found")
    assert_error(stranger.get(f"/api/v1/clubs/{club.pk}/seasons/{season_id}/standings/"), 404, "not_found")
    assert_error(stranger.get(f"/api/v1/clubs/{other_club.pk}/seasons/{season_id}/"), 404, "not_found")
    assert_error(create(stranger, club), 404, "not_found")
    # Storing on demand: treasurers, not players.
    store = f"/api/v1/clubs/{club.pk}/seasons/{season_id}/standings/"
    assert_error(api_for(player_user).post(store), 403, "permission_denied")
    assert api_for(treasurer).post(store).json()["stored"] is True
    assert api_for(None).get(f"/api/v1/clubs/{club.pk}/seasons/").status_code == 401


def test_create_is_idempotent_with_a_key(api: Any, club: Club) -> None:
    key = "5b0c8a4e-7d2f-4a4e-9a51-0e6f4f1b2c3d"
    first = api.json("POST", f"/api/v1/clubs/{club.pk}/seasons/", WINTER, **{"Idempotency-Key": key})
    again = api.json("POST", f"/api/v1/clubs/{club.pk}/seasons/", WINTER, **{"Idempotency-Key": key})
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.json()["id"] == again.json()["id"]
