"""Issue 29, point 7: names are NFC, never hold invisible or direction characters, and look-alikes are
found by their skeletons (ledger/names.py), through the services as the API and the pages use them."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from ledger import names, selectors
from ledger.exceptions import InvalidRequest
from ledger.models import Club, Player
from ledger.services.clubs import club_create, player_create
from ledger.services.tokens import token_issue

pytestmark = pytest.mark.django_db

HIDDEN = {
    "zero-width space": "Ann\u200b",
    "zero-width joiner": "An\u200dn",
    "zero-width non-joiner": "\u200cAnn",
    "word joiner": "An\u2060n",
    "soft hyphen": "An\u00adn",
    "BOM": "\ufeffAnn",
    "left-to-right mark": "\u200eAnn",
    "right-to-left mark": "Ann\u200f",
    "right-to-left override": "\u202eAnn",
    "left-to-right isolate": "Ann\u2066",
    "combining grapheme joiner": "A\u034fnn",
    "Hangul filler": "Ann\u3164",
    "variation selector": "Ann\ufe0f",
    "line separator": "An\u2028n",
    "Mongolian vowel separator": "Ann\u180e",
}


@pytest.mark.parametrize("name", HIDDEN.values(), ids=HIDDEN.keys())
def test_a_name_with_an_invisible_or_direction_character_is_refused(admin: Any, club: Club, name: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        player_create(actor=admin, club_id=club.pk, name=name)
    assert refused.value.fields == {"name": [names.INVISIBLE]}
    assert not Player.objects.filter(club=club).exists()


def test_a_control_character_and_the_mark_of_a_bad_decoding_are_refused(admin: Any, club: Club) -> None:
    with pytest.raises(InvalidRequest) as control:
        player_create(actor=admin, club_id=club.pk, name="Ann\x7f")
    assert control.value.fields == {"name": [names.CONTROL]}
    with pytest.raises(InvalidRequest) as latin1:  # b"Zo\xe9" read with replacement
        player_create(actor=admin, club_id=club.pk, name="Zo\ufffd")
    assert latin1.value.fields == {"name": [names.NOT_UTF8]}


def test_names_are_stored_nfc_so_a_combining_accent_is_the_same_player(admin: Any, club: Club) -> None:
    player = player_create(actor=admin, club_id=club.pk, name="Jose\u0301")  # e + combining acute
    assert player.name == "Jos\u00e9" == unicodedata.normalize("NFC", player.name)
    with pytest.raises(InvalidRequest) as again:
        player_create(actor=admin, club_id=club.pk, name="Jos\u00e9")
    assert again.value.fields == {"name": ["the club already has a player of this name"]}


def test_a_club_name_and_a_device_name_are_cleaned_alike(admin: Any) -> None:
    with pytest.raises(InvalidRequest) as refused:
        club_create(actor=admin, name="Bars\u200b Club")
    assert refused.value.fields == {"name": [names.INVISIBLE]}
    with pytest.raises(InvalidRequest) as device:
        token_issue(user=admin, device="phone\u202e")
    assert device.value.fields == {"device": [names.INVISIBLE]}


LOOK_ALIKES = {
    "Cyrillic A": ("\u0410nn", "Ann"),
    "Cyrillic e": ("Cl\u0435o", "Cleo"),
    "Cyrillic a": ("D\u0430n", "Dan"),
    "Greek Beta": ("\u0392en", "Ben"),
    "full-width": ("\uff21\uff4e\uff4e", "Ann"),
    "mathematical bold": ("\U0001d400\U0001d427\U0001d427", "Ann"),
    "another case": ("ann", "Ann"),
    "rn for m": ("Rnia", "Mia"),
}


@pytest.mark.parametrize(("name", "existing"), LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_a_look_alike_has_the_skeleton_of_the_name_it_imitates(name: str, existing: str) -> None:
    assert names.skeleton(name) == names.skeleton(existing)
    assert names.look_alikes(name, ["Zoe", existing, name]) == [existing]  # itself is not a look-alike


@pytest.mark.parametrize(("one", "other"), [("Ann", "Anne"), ("Ben", "Bea"), ("José", "Jose"), ("Лев", "Ned")])
def test_different_names_do_not_look_alike(one: str, other: str) -> None:
    assert names.look_alikes(one, [other]) == []


def test_the_players_that_look_like_a_name(admin: Any, club: Club, players: list[Player]) -> None:
    found = selectors.player_list(user=admin, club_id=club.pk, looks_like="\u0410nn")
    assert [p.name for p in found] == ["Ann"]
    assert list(selectors.player_list(user=admin, club_id=club.pk, looks_like="Ann")) == []  # the same player
    assert len(selectors.player_list(user=admin, club_id=club.pk)) == 4
