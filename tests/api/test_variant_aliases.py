"""A variant's other names (issue 40: its French and Russian names, `find_variant`): the variants API
lists them, its schema says so, and wherever a variant's code is taken an alias is taken too, kept
under the code."""

from __future__ import annotations

from typing import Any

import pytest

from ledger import nights
from ledger.engine.variants import VARIANTS
from ledger.models import Club, NightTable, Player, Session
from ledger.services.clubs import player_create
from tests.api.conftest import Api
from tests.ledger_fixtures import open_session

pytestmark = pytest.mark.django_db


def test_the_variants_api_lists_each_variants_aliases(client: Any) -> None:
    listed = client.get("/api/v1/variants/").json()["results"]
    assert {v["name"]: v["aliases"] for v in listed} == {v.name: list(v.declaration.aliases) for v in VARIANTS}
    assert all(v["aliases"] for v in listed)  # each has its French and Russian names
    one = client.get("/api/v1/variants/boston-russe/").json()
    assert one["name"] == "russian" and "бостон" in one["aliases"]


def test_the_schema_says_the_aliases(client: Any) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    variant = schema["components"]["schemas"]["VariantOut"]
    assert variant["properties"]["aliases"]["type"] == "array"
    assert variant["properties"]["aliases"]["items"]["type"] == "string"
    assert "aliases" in variant["required"]


def test_a_preset_under_an_alias_keeps_the_code(api: Api, club: Club) -> None:
    body = {"name": "Mardi", "variant": "boston-français", "rules": {}, "stake": None}
    made = api.json("POST", f"/api/v1/clubs/{club.pk}/presets/", body)
    assert made.status_code == 201, made.content
    assert made.json()["variant"] == "french"


def test_the_filters_take_an_alias(api: Api, admin: Any, club: Club, players: list[Player]) -> None:
    russian = open_session(admin, club, players, variant="russian")
    open_session(admin, club, players, variant="american")
    listed = api.get("/api/v1/sessions/", {"variant": "русский-бостон"})
    assert listed.status_code == 200, listed.content
    assert [s["id"] for s in listed.json()["results"]] == [russian.pk]
    board = api.get(f"/api/v1/clubs/{club.pk}/leaderboard/", {"variant": "бостон"})
    assert board.status_code == 200, board.content
    stats = api.get(f"/api/v1/players/{players[0].pk}/stats/", {"variant": "boston-russe"})
    assert stats.status_code == 200, stats.content


def test_a_night_drawn_under_an_alias_keeps_the_code(api: Api, admin: Any, treasurer: Any, club: Club) -> None:
    night = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    for i in range(4):
        member = player_create(actor=admin, club_id=club.pk, name=f"Member {i}")
        nights.check_in(actor=treasurer, night_id=night.pk, player_id=member.pk)
    drawn = api.json("POST", f"/api/v1/nights/{night.pk}/draw/", {"variant": "бостон-фонтенбло", "seed": 3})
    assert drawn.status_code == 201, drawn.content
    table = NightTable.objects.select_related("session").get(night=night)
    assert table.session.variant == "fontainebleau"
    assert Session.objects.filter(variant="бостон-фонтенбло").count() == 0
