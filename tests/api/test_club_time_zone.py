"""PUT /api/v1/clubs/{club}/time-zone/ (issue 26): the club's admin changes its zone through the API, as on
the club page; refusals in words and in the request's language; the authorization of the club API
(401 without a token, 404 to a stranger, 403 below admin, before the body is read)."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Club, Role
from tests.api.conftest import assert_error
from tests.ledger_fixtures import member

pytestmark = pytest.mark.django_db


def url(club: Club) -> str:
    return f"/api/v1/clubs/{club.pk}/time-zone/"


def zone_of(club: Club) -> str:
    return Club.objects.get(pk=club.pk).time_zone


def test_the_admin_changes_the_clubs_zone(api: Any, club: Club) -> None:
    answer = api.json("PUT", url(club), {"time_zone": "Pacific/Auckland"})
    assert answer.status_code == 200
    assert answer.json() == {"id": club.pk, "name": "Bars Club", "role": "admin", "time_zone": "Pacific/Auckland"}
    assert zone_of(club) == "Pacific/Auckland"
    assert api.json("PUT", url(club), {"time_zone": " Pacific/Auckland "}).json()["time_zone"] == "Pacific/Auckland"
    listed = api.json("GET", "/api/v1/clubs/").json()["results"]
    assert [c["time_zone"] for c in listed if c["id"] == club.pk] == ["Pacific/Auckland"]
    board = api.json("GET", f"/api/v1/clubs/{club.pk}/leaderboard/?period=year&year=2024").json()
    assert board["time_zone"] == "Pacific/Auckland"  # the board counts its years there from now on


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"time_zone": "Mars/Olympus"}, "the time zone must be an IANA name such as Europe/Paris"),
        ({"time_zone": "paris"}, "the time zone must be an IANA name such as Europe/Paris"),
        ({"time_zone": ""}, "This field may not be blank."),
        ({}, "This field is required."),
        ({"time_zone": 5}, None),
        ({"time_zone": "UTC", "name": "New name"}, None),  # only the zone changes here
    ],
)
def test_a_zone_that_is_not_one_is_refused_in_words(api: Any, club: Club, body: Any, words: str | None) -> None:
    err = assert_error(api.json("PUT", url(club), body), 400, "invalid_request")
    if words is not None:
        assert err["fields"]["time_zone"] == [words]
    assert zone_of(club) == "UTC"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", "le fuseau horaire doit être un nom IANA, par exemple Europe/Paris"),
        ("ru", "часовой пояс"),
    ],
)
def test_the_refusal_speaks_the_requests_language(api: Any, club: Club, language: str, words: str) -> None:
    answer = api.json("PUT", url(club), {"time_zone": "Mars/Olympus"}, **{"Accept-Language": language})
    err = assert_error(answer, 400, "invalid_request", "time_zone")
    assert words in err["fields"]["time_zone"][0]
    assert "IANA" in err["fields"]["time_zone"][0] and "must be" not in err["fields"]["time_zone"][0]


def test_only_the_clubs_admin_changes_it(api_for: Any, admin: Any, club: Club, other_admin: Any) -> None:
    body = {"time_zone": "Asia/Tokyo"}
    assert_error(api_for().json("PUT", url(club), body), 401, "not_authenticated")
    for role in (Role.PLAYER, Role.SCORER, Role.TREASURER):
        user = member(club, admin, f"a-{role}", role)
        assert_error(api_for(user).json("PUT", url(club), body), 403, "permission_denied")
    assert_error(api_for(other_admin).json("PUT", url(club), body), 404, "not_found")  # another club's admin
    assert_error(
        api_for(other_admin).json("PUT", url(club), {"time_zone": "Mars"}), 404, "not_found"
    )  # before the body
    assert zone_of(club) == "UTC"
    for method in ("GET", "POST", "PATCH", "DELETE"):
        assert api_for(admin).json(method, url(club), body).status_code == 405


def test_the_schema_documents_it(api: Any) -> None:
    schema = api.get("/api/schema/").json()
    operation = schema["paths"]["/api/v1/clubs/{club_id}/time-zone/"]
    assert set(operation) - {"parameters"} == {"put"}
    assert {"200", "4XX"} <= set(operation["put"]["responses"])  # the refusals as every operation's
    body = operation["put"]["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert schema["components"]["schemas"][body]["required"] == ["time_zone"]
