"""Cut-ins on the night's page and tonight on the room board (issue 37): the page proposes who cuts in
and out at each table and, at the break, cuts in with one tap (the new game's seat links shown once);
before the break it says when; the door's QR code for the members; the board names tonight's tables by
number and game and says who cuts in next."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger import nights
from ledger.models import Club, Night, NightTable
from ledger.services.clubs import player_create
from tests.ledger_fixtures import AMERICAN_HANDS, record_all

pytestmark = pytest.mark.django_db

USD = {"currency": "USD", "per_counter": "0.01"}
NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida")
GAME = AMERICAN_HANDS * 2 + AMERICAN_HANDS[:3] + AMERICAN_HANDS[:1]


@pytest.fixture
def night(treasurer: Any, admin: Any, club: Club) -> Night:
    nine = [player_create(actor=admin, club_id=club.pk, name=n) for n in NAMES]
    found = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    for p in nine:
        nights.check_in(actor=treasurer, night_id=found.pk, player_id=p.pk)
    nights.night_draw(actor=treasurer, night_id=found.pk, variant="american", stake=USD, seed=59)
    return Night.objects.get(pk=found.pk)


def page_of(client: Client, night: Night, query: str = "") -> str:
    return client.get(reverse("web:night", args=[night.club_id, night.pk]) + query).content.decode()


def first_game(night: Night) -> NightTable:
    return NightTable.objects.select_related("session").get(night=night, number=1, game=1)


def test_the_page_proposes_the_cut_in_and_says_when_before_the_break(
    client_for: Callable[[Any], Client], treasurer: Any, night: Night
) -> None:
    record_all(treasurer, first_game(night).session, GAME[:5])
    page = page_of(client_for(treasurer), night)
    assert 'id="cut-in-1"' in page and "Cut-in: Ida for" in page and "deal 5 of 12" in page
    assert 'id="cut-in-button-1"' not in page  # not before the break
    answer = client_for(treasurer).post(
        reverse("web:night-cut-in", args=[night.club_id, night.pk, 1]), {"game": "1", "method": "longest"}
    )
    assert (
        answer.status_code == 400 and "a cut-in waits for the end of the game: the 12th deal" in answer.content.decode()
    )


def test_at_the_break_one_tap_cuts_in_and_shows_the_new_games_links(
    client_for: Callable[[Any], Client], treasurer: Any, night: Night
) -> None:
    record_all(treasurer, first_game(night).session, GAME)
    client = client_for(treasurer)
    proposal = nights.cut_in_proposal(night=night, number=1)
    page = page_of(client, night)
    assert 'id="cut-in-button-1"' in page and "Cut in and open game 2" in page
    answer = client.post(
        reverse("web:night-cut-in", args=[night.club_id, night.pk, 1]), {"game": "1", "method": "longest"}
    )
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "Table 1 · game 2 · American" in html and html.count("/s/") >= 4  # the seat links, once
    assert f"Ida cut in, {proposal.out[0].name} cut out" in html
    waiting = html.split('id="waiting-list"')[1].split("</ol>")[0]
    assert proposal.out[0].name in waiting and "Ida" not in waiting
    again = client.post(reverse("web:night-cut-in", args=[night.club_id, night.pk, 1]), {"game": "1"})
    assert again.status_code == 400 and "this table has moved on to its next game" in again.content.decode()


def test_the_lot_is_chosen_on_the_page(client_for: Callable[[Any], Client], treasurer: Any, night: Night) -> None:
    record_all(treasurer, first_game(night).session, GAME)
    page = page_of(client_for(treasurer), night, "?cut=lot")
    assert 'name="method" value="lot"' in page and "drawn by lot" in page


def test_the_door_shows_the_nights_code_to_scorers_and_a_tap_per_member(
    client_for: Callable[[Any], Client], treasurer: Any, player_user: Any, admin: Any, club: Club
) -> None:
    found = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    player_create(actor=admin, club_id=club.pk, name="Zoe")
    page = page_of(client_for(treasurer), found)
    assert 'id="door-qr"' in page and "<svg" in page.split('id="door-qr"')[1]
    assert f"/clubs/{club.pk}/nights/{found.pk}/#check-in" in page
    assert 'name="player" value=' in page.split('id="check-in-member"')[1]  # one button per member
    assert 'id="door-qr"' not in page_of(client_for(player_user), found)
    door = Client().get(reverse("web:night", args=[club.pk, found.pk]))  # a phone with no login yet
    assert door.status_code == 302 and door["Location"].startswith("/login/?next=")


def test_the_board_shows_tonights_tables_and_who_cuts_in_next(
    client_for: Callable[[Any], Client], treasurer: Any, night: Night
) -> None:
    client = client_for(treasurer)
    board = client.get(reverse("web:club-board", args=[night.club_id])).content.decode()
    assert "Table 1 · game 1 · American" in board and "Table 2 · game 1 · American" in board
    assert "Cuts in next: Ida" in board.split('id="board-waiting"')[1]
    rows = reverse("web:club-board-tables", args=[night.club_id])
    tag = client.get(rows)["ETag"]
    record_all(treasurer, first_game(night).session, GAME)
    nights.night_cut_in(actor=treasurer, night_id=night.pk, number=1, game=1)
    moved = client.get(rows, headers={"If-None-Match": tag})
    assert moved.status_code == 200
    html = moved.content.decode()
    assert "Table 1 · game 2 · American" in html and "Cuts in next: " in html and "Cuts in next: Ida" not in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ["Table de jeu 1 · partie 1", "Changement : Ida entre"]),
        ("ru", ["Стол 1 · партия 1", "Смена: Ida садится"]),
    ],
)
def test_the_cut_in_is_said_in_the_players_words(
    client_for: Callable[[Any], Client], treasurer: Any, night: Night, language: str, words: list[str]
) -> None:
    client = client_for(treasurer)
    page = client.get(
        reverse("web:night", args=[night.club_id, night.pk]), headers={"Accept-Language": language}
    ).content.decode()
    assert all(w in page for w in words), [w for w in words if w not in page]
