"""The room board on a 1920x1080 wall screen: every table says where its game is ("deal 0 of 40" for a
French or Russian partie, once "0 deals"), the number of deals taken from the variant's declaration;
and 8 or 16 tables fit the screen with no scrolling, the names still read from 3 m (at least 40 px with
16 tables, 50 px with 8 for names of nine letters and a total; short names stay at 64 px) and none of them cut."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.engine.room import game_break
from ledger.engine.variants import get_variant, variant_names
from ledger.models import Club, Player
from ledger.services.clubs import player_create
from ledger.services.table import board_link_issue
from tests.browser.conftest import BROWSER, screenshot
from tests.browser.test_table_law_follow import REVOKE
from tests.ledger_fixtures import AMERICAN_HANDS, open_session, record_all

pytestmark = BROWSER


def _game(variant: str) -> int:
    """The game's deals as the variant declares them: its limit, or a partie's last double."""
    limit = get_variant(variant).declaration.deals.limit
    return limit if limit is not None else game_break(variant)


def _tables(admin: Any, club: Club, n: int) -> list[Any]:
    """n tables, the four variants in turn, each with its own four members; an American table has a deal:
    every other one a revoke (the board says its event on a line of its own), the others a plain deal."""
    variants = variant_names()
    sessions = []
    for t in range(n):
        seats = [player_create(actor=admin, club_id=club.pk, name=f"Member {4 * t + i:02d}") for i in range(1, 5)]
        session = open_session(admin, club, seats, variant=variants[t % len(variants)])
        if session.variant == "american":
            record_all(admin, session, [REVOKE] if t % 8 == 0 else AMERICAN_HANDS[:1])
        sessions.append(session)
    return sessions


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_every_table_says_its_deal_of_the_game(
    new_page: Any, live_server: Any, admin: Any, club: Club, players: list[Player], language: str
) -> None:
    sessions = _tables(admin, club, 4)
    key, _ = board_link_issue(actor=admin, club_id=club.pk, label="wall")
    board = new_page({"width": 1920, "height": 1080})
    board.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    board.goto(f"/b/{key}/")
    words = {"en": "deal {n} of {of}", "fr": "donne {n} sur {of}", "ru": "сдача {n} из {of}"}[language]
    for s in sessions:
        played = 1 if s.variant == "american" else 0
        expect(board.locator(f"[data-session='{s.pk}'] .deal-of")).to_have_text(
            words.format(n=played, of=_game(s.variant))
        )
    assert board.errors == []


@pytest.mark.parametrize(("n", "least"), [(8, 50), (16, 40)])
def test_the_wall_holds_the_tables_with_names_read_from_three_metres(
    new_page: Any, admin: Any, club: Club, n: int, least: int
) -> None:
    _tables(admin, club, n)
    key, _ = board_link_issue(actor=admin, club_id=club.pk, label="wall")
    board = new_page({"width": 1920, "height": 1080})
    board.goto(f"/b/{key}/")
    expect(board.locator(".board-table")).to_have_count(n)
    screenshot(board, f"1920-board-wall-{n}", full_page=False)
    sizes = board.locator(".board-seats .who").evaluate_all(
        "es => es.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert min(sizes) >= least, min(sizes)
    heights = board.evaluate("() => [document.documentElement.scrollHeight, window.innerHeight]")
    assert heights[0] <= heights[1], heights
    cut = board.evaluate(
        """() => [...document.querySelectorAll('.board-table, .board-table h2, .board-seats li, .board-seats .who')]
            .filter(e => e.scrollWidth > e.clientWidth + 1
                || e.getBoundingClientRect().bottom > window.innerHeight)
            .map(e => e.textContent.trim().slice(0, 30))"""
    )
    assert cut == [], cut
    spilled = board.evaluate(
        """() => [...document.querySelectorAll('.board-table')].filter(t =>
            t.lastElementChild.getBoundingClientRect().bottom > t.getBoundingClientRect().bottom + 1)
            .map(t => t.querySelector('h2').textContent.trim().slice(0, 30))"""
    )
    assert spilled == [], spilled  # each table's lines inside its own frame
    assert board.errors == []
