"""A club night on a phone (issue 37), tap by tap: the treasurer opens tonight from the club page, taps
each arriving member's name at the door, draws the tables from the club's preset, and every table is
open on its scorer page with its seat links; then, a game of twelve deals played at table 1, one tap
cuts the waiting player in (game 2) and the room board shows it.

Taps from "doors open" (the club page) to every table playing, every tap through `Taps.tap`:
1 (open tonight) + 1 per member (his name at the door) + 1 (draw) = n + 2: 11 for 9 members, 19 for 17.
A member who scans the night's code checks himself in with one tap of his own ("I'm here"), so the
count is the same, shared among the phones. The figures are asserted, so a change that adds a tap fails.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger import nights
from ledger.models import Club, Night, NightTable, Player, Session
from ledger.services.clubs import player_create
from ledger.services.presets import preset_create
from ledger.services.table import board_link_issue
from tests.browser.a11y import axe_violations
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.test_presets import Taps
from tests.ledger_fixtures import AMERICAN_HANDS, record_all

pytestmark = BROWSER

NAMES = [f"Member {i:02d}" for i in range(1, 18)]
GAME = AMERICAN_HANDS * 2 + AMERICAN_HANDS[:3] + AMERICAN_HANDS[:1]  # twelve deals


def _members(admin: Any, club: Club, n: int) -> list[Player]:
    return [player_create(actor=admin, club_id=club.pk, name=name) for name in NAMES[:n]]


def _doors_open_to_every_table_playing(page: Any, club: Club, members: list[Player]) -> tuple[Taps, Night]:
    login(page, "treasurer", f"/clubs/{club.pk}/")
    taps = Taps(page)
    taps.tap("#night-open")
    page.wait_for_url("**/nights/*/")
    expect(page.locator("#door-qr svg")).to_be_visible()  # the night's code, for the members' phones
    for member in members:
        taps.tap(f'#check-in-member button[data-player="{member.pk}"]')
        expect(page.locator(f'#check-in-member button[data-player="{member.pk}"]')).to_have_count(0)
    expect(page.locator("#here-list li")).to_have_count(len(members))
    taps.tap("#draw-button")  # the club's preset, chosen already
    tables = len(members) // 4
    expect(page.locator(".night-table")).to_have_count(tables)
    expect(page.locator(".seat-links li")).to_have_count(4 * tables)
    night = Night.objects.get(club=club)
    games = list(NightTable.objects.filter(night=night).select_related("session"))
    assert len(games) == tables and all(t.session.status == Session.Status.OPEN for t in games)
    return taps, night


@pytest.mark.parametrize("n", [9, 17])
def test_taps_from_doors_open_to_every_table_playing(
    new_page: Any, treasurer: Any, admin: Any, club: Club, n: int
) -> None:
    preset_create(actor=admin, club_id=club.pk, name="Tuesdays", variant="american", rules={})
    members = _members(admin, club, n)
    page = new_page(touch=True)
    taps, night = _doors_open_to_every_table_playing(page, club, members)
    assert taps.count == n + 2  # 11 for 9 members, 19 for 17
    expect(page.locator("#waiting-list li")).to_have_count(n % 4)
    screenshot(page, f"night-{n}-drawn", full_page=False)
    first = NightTable.objects.filter(night=night).select_related("session").first()
    assert first is not None
    page.goto(f"/sessions/{first.session_id}/score/")  # the table plays: its scorer page is on deal 1
    expect(page.locator("body")).to_contain_text("Deal 1")
    assert page.errors == []


def test_a_night_of_nine_the_ninth_cuts_in_after_a_game(new_page: Any, treasurer: Any, admin: Any, club: Club) -> None:
    preset_create(actor=admin, club_id=club.pk, name="Tuesdays", variant="american", rules={})
    members = _members(admin, club, 9)
    page = new_page(touch=True)
    _taps, night = _doors_open_to_every_table_playing(page, club, members)
    expect(page.locator("#waiting-list li")).to_have_text([members[8].name])
    board = new_page()
    login(board, "treasurer", f"/clubs/{club.pk}/board/")
    expect(board.locator("#board-waiting")).to_contain_text(f"Cuts in next: {members[8].name}")
    expect(board.locator(".board-name").first).to_contain_text("Table 1 · game 1")

    table = NightTable.objects.select_related("session").get(night=night, number=1)
    record_all(treasurer, table.session, GAME)  # the game's twelve deals, played at the table
    proposal = nights.cut_in_proposal(night=night, number=1)
    out = proposal.out[0].name
    page.reload()
    expect(page.locator("#cut-in-1")).to_contain_text(f"Cut-in: {members[8].name} for {out}.")
    taps = Taps(page)
    taps.tap("#cut-in-button-1")
    expect(page.locator('.night-table[data-table="1"]')).to_have_attribute("data-game", "2")
    expect(page.locator('.night-table[data-table="1"] .seat-links li')).to_have_count(4)  # shown once
    expect(page.locator("#waiting-list li")).to_have_text([out])
    assert taps.count == 1
    second = NightTable.objects.select_related("session").get(night=night, number=1, game=2)
    assert second.session.carry_pools_from_id == table.session_id
    assert members[8].pk in {s.player_id for s in second.session.seats.all()}
    expect(board.locator("#board-waiting")).to_contain_text(f"Cuts in next: {out}")  # live, no reload
    expect(board.locator(".board-name").first).to_contain_text("Table 1 · game 2")
    screenshot(board, "night-board-cut-in", full_page=False)
    assert axe_violations(page) == [] and axe_violations(board) == []
    assert page.errors == [] and board.errors == []


def test_a_member_scans_the_door_code_and_checks_in_with_one_tap(
    new_page: Any, treasurer: Any, player_user: Any, admin: Any, club: Club
) -> None:
    own = player_create(actor=admin, club_id=club.pk, name="Pat", user=player_user)
    night = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    door = new_page()
    login(door, "treasurer", f"/clubs/{club.pk}/nights/{night.pk}/")
    expect(door.locator("#door-qr svg")).to_be_visible()  # open before the draw
    url = door.locator("#door a").get_attribute("href")  # what the code says (segno draws the same URL)
    assert url is not None and url.endswith(f"/clubs/{club.pk}/nights/{night.pk}/#check-in")
    phone = new_page(touch=True)
    login(phone, "player", f"/clubs/{club.pk}/")
    phone.goto(url)  # the camera opens the code's link
    taps = Taps(phone)
    taps.tap("#check-me-in")
    expect(phone.locator("#checked-in")).to_be_visible()
    assert taps.count == 1 and night.check_ins.get().player_id == own.pk
    door.reload()
    expect(door.locator("#here-list li")).to_have_text(["Pat"])
    assert phone.errors == [] and door.errors == []


def test_the_wall_board_says_who_cuts_in_next_at_the_names_size(
    new_page: Any, treasurer: Any, admin: Any, club: Club
) -> None:
    """17 members at 1920x1080: four tables and the waiting line, its names as large as the seats' (read
    from 3 m, issue 38 item 13), and all of it on the screen, nothing scrolled."""
    members = _members(admin, club, 17)
    night = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    for member in members:
        nights.check_in(actor=treasurer, night_id=night.pk, player_id=member.pk)
    nights.night_draw(actor=treasurer, night_id=night.pk, variant="russian", seed=17)
    board_key, _ = board_link_issue(actor=admin, club_id=club.pk, label="wall")
    board = new_page({"width": 1920, "height": 1080})
    board.goto(f"/b/{board_key}/")
    expect(board.locator(".board-table")).to_have_count(4)
    expect(board.locator(".board-name").first).to_contain_text("Table 1 · game 1 · Russian")
    expect(board.locator("#board-waiting")).to_contain_text(f"Cuts in next: {members[16].name}")

    def px(selector: str) -> float:
        return float(board.locator(selector).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))

    assert px("#board-waiting") == px(".board-seats .who") >= 64, (px("#board-waiting"), px(".board-seats .who"))
    heights = board.evaluate("() => [document.documentElement.scrollHeight, window.innerHeight]")
    assert heights[0] <= heights[1], heights
    line = board.locator("#board-waiting").evaluate("e => e.getBoundingClientRect().bottom")
    assert line <= 1080, line
    screenshot(board, "1920-board-night-17", full_page=False)
    assert board.errors == []
