"""Issue 29, points 7 and 8 on the API: look-alike names (13 of 16 were imported as new players),
files that are not UTF-8 (a Latin-1 "Zoé" became "Zo\\ufffd"), and a deeply nested file (400, never a
RecursionError). Issue 39, item 10: one rule for a new player's name, so the import makes no player
that creating a player refuses (6 of 16 were)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ledger import names
from ledger.models import Club, Player
from ledger.services.clubs import player_create
from tests.api.conftest import Api, assert_error
from tests.ledger_fixtures import AMERICAN_HANDS

pytestmark = pytest.mark.django_db

EXISTING = ["Ann", "Ben", "Cleo", "Dan", "Jos\u00e9", "Mia"]

# The probe's idea, with our own sixteen names: each looks like one of EXISTING.
PROBE = [
    "\u0410nn",  # Cyrillic capital A
    "Cl\u0435o",  # Cyrillic small ie
    "\u0392en",  # Greek capital Beta
    "Ann\u200b",  # zero-width space
    "B\u200den",  # zero-width joiner
    "An\u00adn",  # soft hyphen
    "\ufeffDan",  # BOM
    "\u200fDan",  # right-to-left mark
    "\u202eCleo",  # right-to-left override
    "Mia\u2066",  # left-to-right isolate
    "\uff21\uff4e\uff4e",  # full-width
    "\U0001d401\U0001d41e\U0001d427",  # mathematical bold
    "Jose\u0301",  # a combining acute accent: NFC makes it José, the same player
    "D\u0430n",  # Cyrillic small a
    "Rnia",  # r n for m
    "cleo",  # another case
]


def sheet(players: list[str]) -> dict[str, Any]:
    return {
        "format": "clubscore-sheet/1",
        "variant": "american",
        "players": players,
        "first_dealer": 0,
        "hands": AMERICAN_HANDS[:2],
    }


@pytest.fixture
def known(admin: Any, club: Club) -> Club:
    for name in EXISTING:
        player_create(actor=admin, club_id=club.pk, name=name)
    return club


def looks_like(api: Api, club: Club, name: str) -> list[str]:
    response = api.get(f"/api/v1/clubs/{club.pk}/players/", {"looks_like": name})
    assert response.status_code == 200, response.content
    return [p["name"] for p in response.json()["results"]]


def test_none_of_sixteen_look_alikes_becomes_a_new_player_unnoticed(api: Api, known: Club) -> None:
    unnoticed = []
    for name in PROBE:
        body = {"club": known.pk, "sheet": sheet([name, "Wim", "Xia", "Yan"])}
        response = api.json("POST", "/api/v1/sessions/import/", body)
        if response.status_code == 400:
            assert_error(response, 400, "invalid_request", "players")
            continue
        assert response.status_code == 201, response.content
        seated = Player.objects.get(pk=response.json()["players"][0]).name
        if seated in EXISTING:
            continue  # the same player (normalised), not a new one
        if not looks_like(api, known, name):  # what the import preview warns with
            unnoticed.append(name)
    assert unnoticed == []
    refused = [n for n in PROBE if any(names.hidden(c) for c in n)]
    assert len(refused) == 7
    assert not Player.objects.filter(club=known, name__in=refused).exists()


def test_the_import_and_player_creation_apply_one_rule(api: Api, known: Club) -> None:
    """Each of the sixteen: imported or created, the same answer; no look-alike becomes a player."""
    before = set(Player.objects.filter(club=known).values_list("name", flat=True))
    differ = []
    for name in PROBE:
        created = api.json("POST", f"/api/v1/clubs/{known.pk}/players/", {"name": name})
        imported = api.json(
            "POST", "/api/v1/sessions/import/", {"club": known.pk, "sheet": sheet([name, "Wim", "Xia", "Yan"])}
        )
        if created.status_code == 201:  # none does: each is refused, or (José) is a player already
            differ.append((name, "created"))
            continue
        assert_error(created, 400, "invalid_request", "name")
        if imported.status_code == 201:  # only the same player, matched by its own name
            seated = Player.objects.get(pk=imported.json()["players"][0]).name
            if seated not in EXISTING:
                differ.append((name, seated))
            continue
        err = assert_error(imported, 400, "invalid_request", "players")
        assert err["fields"]["players"] == created.json()["error"]["fields"]["name"]
    assert differ == []
    new = set(Player.objects.filter(club=known).values_list("name", flat=True)) - before
    assert new <= {"Wim", "Xia", "Yan"}


def test_a_look_alike_is_refused_naming_the_player_it_looks_like(api: Api, known: Club) -> None:
    body = {"club": known.pk, "sheet": sheet(["Wim", "\u0410nn", "Xia", "Yan"])}
    err = assert_error(api.json("POST", "/api/v1/sessions/import/", body), 400, "invalid_request", "players")
    assert err["fields"]["players"] == [names.LOOKS_LIKE.format(name="\u0410nn", other="Ann")]
    french = api.json("POST", f"/api/v1/clubs/{known.pk}/players/", {"name": "cleo"}, **{"Accept-Language": "fr"})
    said = assert_error(french, 400, "invalid_request", "name")["fields"]["name"][0]
    assert said.startswith("« cleo » ressemble à « Cleo »"), said
    within = {"club": known.pk, "sheet": sheet(["Wim", "Xia", "W\u0456m", "Yan"])}  # Cyrillic і
    err = assert_error(api.json("POST", "/api/v1/sessions/import/", within), 400, "invalid_request", "players")
    assert err["fields"]["players"] == [names.SHEET_ALIKE.format(name="W\u0456m", other="Wim")]
    assert not Player.objects.filter(club=known, name__in=["Wim", "Xia", "Yan"]).exists()
    # the club's own names, exactly, are its players: an import of them makes no one new
    ok = api.json("POST", "/api/v1/sessions/import/", {"club": known.pk, "sheet": sheet(["Ann", "Ben", "Cleo", "Dan"])})
    assert ok.status_code == 201, ok.content
    assert Player.objects.filter(club=known).count() == len(EXISTING)


def test_an_invisible_character_is_a_400_naming_the_field_in_the_players_words(api: Api, club: Club) -> None:
    err = assert_error(
        api.json("POST", f"/api/v1/clubs/{club.pk}/players/", {"name": "Ann\u200b"}), 400, "invalid_request", "name"
    )
    assert err["fields"]["name"] == [names.INVISIBLE]
    french = api.json("POST", f"/api/v1/clubs/{club.pk}/players/", {"name": "\u202eAnn"}, **{"Accept-Language": "fr"})
    assert "caractères invisibles" in assert_error(french, 400, "invalid_request", "name")["fields"]["name"][0]
    assert_error(api.json("POST", "/api/v1/clubs/", {"name": "Bars\u00ad Club"}), 400, "invalid_request", "name")


def test_the_players_that_look_like_a_name(api: Api, known: Club) -> None:
    assert looks_like(api, known, "\u0410nn") == ["Ann"]
    assert looks_like(api, known, "\U0001d401\U0001d41e\U0001d427") == ["Ben"]
    assert looks_like(api, known, "Ann") == []  # the player itself
    assert looks_like(api, known, "Zoe") == []
    too_long = api.get(f"/api/v1/clubs/{known.pk}/players/", {"looks_like": "A" * 101})
    assert_error(too_long, 400, "invalid_request", "looks_like")
    assert_error(api.get(f"/api/v1/clubs/{known.pk}/players/", {"colour": "red"}), 400, "invalid_request")


def test_a_file_that_was_not_utf8_is_refused(api: Api, club: Club) -> None:
    body = json.dumps({"club": club.pk, "sheet": sheet(["Zo\u00e9", "Wim", "Xia", "Yan"])}, ensure_ascii=False)
    latin1 = api.post("/api/v1/sessions/import/", body.encode("latin-1"), content_type="application/json")
    assert_error(latin1, 400, "invalid_request")
    # The same file decoded with replacement (what the import page's file.text() did): the name says so.
    mangled = {"club": club.pk, "sheet": sheet(["Zo\ufffd", "Wim", "Xia", "Yan"])}
    err = assert_error(api.json("POST", "/api/v1/sessions/import/", mangled), 400, "invalid_request", "players")
    assert err["fields"]["players"] == [names.NOT_UTF8]
    assert not Player.objects.filter(club=club).exists()


@pytest.mark.parametrize("path", ["/api/v1/settle/", "/api/v1/sessions/import/"])
def test_a_file_of_100000_nested_arrays_is_a_400(api: Api, club: Club, path: str) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    body = deep if path == "/api/v1/settle/" else f'{{"club": {club.pk}, "sheet": {deep}}}'
    response = api.post(path, body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    if path == "/api/v1/settle/":  # read by the engine, which says why: it is JSON, only too deep
        assert response.json()["error"]["fields"] == {"sheet": ["the score sheet is nested too deeply to be read"]}
