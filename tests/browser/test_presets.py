"""Opening a table from a preset (issue 42, "Done when": at most 3 taps from the club page), counted
tap by tap on a phone: every tap the scorer makes goes through `Taps.tap`, and nothing else touches
the page but the test's reads.

- The club's regular four (a table was opened before, from the preset or not): the seats come chosen,
  so "Open a table: <preset>" then "Start": 2 taps, the scorer page open on deal 1.
- The club's very first table, with more than four players: the seats cannot be guessed, and each one
  is chosen with a tap on its list and a tap on the name: 1 + 4 x 2 + 1 = 10 taps. Said, not hidden.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from ledger.models import Club, Player, Session
from ledger.services.clubs import player_create
from ledger.services.presets import preset_create
from tests.browser.conftest import BROWSER, login, screenshot
from tests.ledger_fixtures import open_from_preset, open_session

pytestmark = BROWSER


class Taps:
    """The scorer's taps, counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def tap(self, selector: str) -> None:
        self.count += 1
        self.page.locator(selector).tap()

    def choose(self, select: str, value: str) -> None:
        """A seat's list: a tap opens it, a tap picks the name (a phone's native picker)."""
        self.count += 2
        self.page.select_option(select, value)


def _scorer_page_opened(page: Any, preset_name: str) -> Session:
    page.wait_for_url("**/score/")
    session = Session.objects.select_related("preset_version__preset").latest("pk")
    assert session.preset_version is not None and session.preset_version.preset.name == preset_name
    expect(page.locator("body")).to_contain_text("Deal 1")
    return session


def test_the_regular_four_open_a_table_in_two_taps(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    preset = preset_create(actor=admin, club_id=club.pk, name="Tuesdays", variant="russian", rules={"basket": 20})
    open_session(admin, club, players)  # last week's table: the same four
    player_create(actor=admin, club_id=club.pk, name="Eve")  # a fifth player, not at this table
    page = new_page(touch=True)
    login(page, "scorer", f"/clubs/{club.pk}/")  # the club page, where a scorer lands
    taps = Taps(page)
    taps.tap(f'a[href="/clubs/{club.pk}/presets/{preset.pk}/open/"]')
    start = page.locator("#start")
    expect(start).to_be_in_viewport()  # "Start" on the first screen, no scrolling
    screenshot(page, "390-preset-open", full_page=False)
    taps.tap("#start")
    session = _scorer_page_opened(page, "Tuesdays")
    assert taps.count == 2
    assert session.variant == "russian" and session.rules == {"basket": 20}
    assert [s.player_id for s in session.seats.order_by("seat")] == [p.pk for p in players]
    assert page.errors == []


def test_the_first_table_of_a_club_chooses_its_four(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    preset = preset_create(actor=admin, club_id=club.pk, name="House", variant="french", rules={})
    player_create(actor=admin, club_id=club.pk, name="Eve")
    page = new_page(touch=True)
    login(page, "scorer", f"/clubs/{club.pk}/")
    taps = Taps(page)
    taps.tap(f'a[href="/clubs/{club.pk}/presets/{preset.pk}/open/"]')
    for seat, player in enumerate(players):
        taps.choose(f"#seat-{seat}", str(player.pk))
    taps.tap("#start")
    _scorer_page_opened(page, "House")
    assert taps.count == 10


def test_the_conditions_print_on_one_page(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    """French Boston has the most house rules (neuf per suit): its conditions still print on one A4 page,
    without the page's buttons and header."""
    neuf = {
        "base": {"spades": 10, "clubs": 20, "diamonds": 30, "hearts": 40},
        "extra": {"spades": 2, "clubs": 4, "diamonds": 6, "hearts": 8},
    }
    preset = preset_create(actor=admin, club_id=club.pk, name="House", variant="french", rules={"neuf": neuf})
    session = open_from_preset(admin, club, players, preset)
    page = new_page()
    login(page, "scorer", f"/sessions/{session.pk}/conditions/")
    expect(page.locator('[data-option="neuf"] dd')).to_contain_text("40")
    page.emulate_media(media="print")
    expect(page.locator("[data-print]")).to_be_hidden()
    expect(page.locator("header.top")).to_be_hidden()
    pdf = page.pdf(format="A4", print_background=False)
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 1
    screenshot(page, "conditions-print")
    assert page.errors == []
