"""/api/v1/clubs/ and /api/v1/clubs/{club}/players/."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Membership, Player
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db


def test_clubs_lists_only_the_callers_clubs_with_their_role(
    api_for: Any, club: Any, other_club: Any, scorer: Any
) -> None:
    assert api_for(scorer).json("GET", "/api/v1/clubs/").json()["results"] == [
        {"id": club.pk, "name": "Bars Club", "role": "scorer", "time_zone": "UTC"}
    ]


def test_a_superuser_without_membership_sees_no_club(
    api_for: Any, club: Any, other_club: Any, other_admin: Any
) -> None:
    results = api_for(other_admin).json("GET", "/api/v1/clubs/").json()["results"]
    assert [c["name"] for c in results] == ["Other Club"]


def test_creating_a_club_makes_the_creator_its_admin(api_for: Any, player_user: Any) -> None:
    response = api_for(player_user).json("POST", "/api/v1/clubs/", {"name": "Chess & Boston"})
    assert response.status_code == 201
    body = response.json()
    assert (body["name"], body["role"]) == ("Chess & Boston", "admin")
    assert Membership.objects.get(club_id=body["id"], user=player_user).role == "admin"


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": 5}, {"name": "x" * 101}, {"name": "A", "b": 1}, [1]])
def test_creating_a_club_needs_a_name(api: Any, body: Any) -> None:
    assert_error(api.json("POST", "/api/v1/clubs/", body), 400, "invalid_request")


def test_players_of_a_club(api: Any, api_for: Any, club: Any, players: list[Any], player_user: Any) -> None:
    page = api_for(player_user).json("GET", f"/api/v1/clubs/{club.pk}/players/").json()
    assert page["results"] == [{"id": p.pk, "name": p.name, "club": club.pk} for p in players]
    created = api.json("POST", f"/api/v1/clubs/{club.pk}/players/", {"name": "Eve"})
    assert created.status_code == 201
    assert created.json() == {"id": created.json()["id"], "name": "Eve", "club": club.pk}
    assert_error(api.json("POST", f"/api/v1/clubs/{club.pk}/players/", {"name": "Eve"}), 400, "invalid_request", "name")


def test_creating_players_needs_a_scorer(api_for: Any, club: Any, player_user: Any, scorer: Any) -> None:
    url = f"/api/v1/clubs/{club.pk}/players/"
    assert_error(api_for(player_user).json("POST", url, {"name": "Eve"}), 403, "permission_denied")
    assert api_for(scorer).json("POST", url, {"name": "Eve"}).status_code == 201


def test_another_clubs_players_are_not_found(api_for: Any, club: Any, players: list[Any], other_admin: Any) -> None:
    client = api_for(other_admin)
    url = f"/api/v1/clubs/{club.pk}/players/"
    assert_error(client.json("GET", url), 404, "not_found")
    assert_error(client.json("POST", url, {"name": "Mallory"}), 404, "not_found")
    assert_error(client.json("GET", "/api/v1/clubs/999999/players/"), 404, "not_found")
    assert not Player.objects.filter(name="Mallory").exists()
