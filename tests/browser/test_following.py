"""The players following a table, round two (issue 38): what only a browser shows. A stalled stream is
noticed by the page's watchdog, which says so and catches up; the browser back online catches up at
once; a ✓ that fails is said and kept, and sent once the network is back."""

from __future__ import annotations

import gettext
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from ledger.models import Club, DealCheck
from ledger.services.sessions import session_close
from ledger.services.table import board_link_issue, deal_check, seat_link_issue, seat_link_revoke
from tests.browser.conftest import BROWSER, login, screenshot
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, open_session, record_all

pytestmark = BROWSER


@pytest.fixture
def table(admin: Any, club: Club, players: list[Any]) -> dict[str, Any]:
    session = open_session(admin, club, players)
    record_all(admin, session, AMERICAN_HANDS[:1])
    key, link = seat_link_issue(actor=admin, session_id=session.pk, seat=1)
    return {"session": session, "key": key, "link": link, "scorer": admin}


def said(language: str, english: str, **params: Any) -> str:
    """The scripts' words (domain djangojs) in the language, as the page's catalog gives them."""
    catalog = gettext.translation("djangojs", str(Path(settings.BASE_DIR) / "locale"), [language], fallback=True)
    return catalog.gettext(english) % params


def open_seat(new_page: Any, live_server: Any, key: str, language: str = "en", width: int = 360) -> Any:
    page = new_page({"width": width, "height": 740})
    if language != "en":
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(f"/s/{key}/")
    expect(page.locator("#deal-1")).to_be_visible()
    return page


def test_a_stalled_stream_is_noticed_and_the_page_catches_up(new_page: Any, live_server: Any, table: dict) -> None:
    """The stream answers nothing (a proxy holding it): the page said "Live" for ever and never showed the
    next deal. The watchdog (two heartbeats, 0.5 s each here, and a 2 s margin) says "Reconnecting…",
    re-reads at once, and the stream's return says "Live" again."""
    held: list[Any] = []
    page = new_page()
    page.route("**/live/seat/**", lambda route: held.append(route))  # never answered while held
    page.goto(f"/s/{table['key']}/")
    status = page.locator("#live-status")
    expect(status).to_have_text("Live: deals appear as they are recorded.")
    record_all(table["scorer"], table["session"], AMERICAN_HANDS[1:2])
    since = time.monotonic()
    expect(status).to_have_text("Reconnecting…", timeout=6000)
    expect(page.locator("#deal-2")).to_be_visible(timeout=2000)
    assert time.monotonic() - since < 6
    page.unroute("**/live/seat/**")  # the stream comes back: the next watchdog's stream goes through
    expect(status).to_have_text("Live: deals appear as they are recorded.", timeout=8000)
    assert len(held) >= 2  # the stalled stream was closed and another one opened
    assert page.errors == []


def test_back_online_the_page_catches_up_at_once(new_page: Any, live_server: Any, table: dict) -> None:
    page = open_seat(new_page, live_server, table["key"])
    page.wait_for_timeout(300)  # the stream is open
    page.context.set_offline(True)
    page.wait_for_timeout(300)
    record_all(table["scorer"], table["session"], AMERICAN_HANDS[1:2])
    page.wait_for_timeout(1500)
    page.context.set_offline(False)
    since = time.monotonic()
    expect(page.locator("#deal-2")).to_be_visible(timeout=5000)
    assert time.monotonic() - since < 1.5, time.monotonic() - since
    assert page.errors == []


@pytest.mark.parametrize(("language", "width"), [("en", 360), ("fr", 390), ("ru", 360)])
def test_a_check_that_fails_is_said_and_kept(
    new_page: Any, live_server: Any, table: dict, language: str, width: int
) -> None:
    """Offline, a ✓ was dropped with nothing said; now the page says it waits and sends it once the
    network is back. Through a revoked link, it says the link no longer works."""
    page = open_seat(new_page, live_server, table["key"], language, width)
    note = page.locator("#check-status")
    page.context.set_offline(True)
    page.click("#deal-1 [data-action=confirm]")
    expect(note).to_have_text(
        said(language, "Your ✓ on deal %(n)s is not sent yet: it is sent again as soon as the network is back.", n=1)
    )
    screenshot(page, f"{width}-{language}-check-waiting", full_page=False)
    assert not DealCheck.objects.filter(session=table["session"], number=1, seat=1).exists()
    page.context.set_offline(False)
    expect(note).to_be_hidden()
    assert DealCheck.objects.get(session=table["session"], number=1, seat=1).state == "confirmed"
    record_all(table["scorer"], table["session"], AMERICAN_HANDS[1:2])
    expect(page.locator("#deal-2")).to_be_visible()
    seat_link_revoke(actor=table["scorer"], session_id=table["session"].pk, link_id=table["link"].pk)
    page.click("#deal-2 [data-action=confirm]")
    expect(note).to_have_text(
        said(
            language,
            "Your ✓ on deal %(n)s was not taken: this link no longer works. Ask the scorer for a new one.",
            n=2,
        )
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.errors == []


@pytest.mark.parametrize(("language", "width"), [("en", 390), ("ru", 360)])
def test_a_table_closed_under_the_followers_eyes_shows_its_result(
    new_page: Any, live_server: Any, table: dict, language: str, width: int
) -> None:
    """The close reached the page, which kept "Live" and "tap ✓ under each deal" over counters before the
    pools were divided. Now: "Closed.", the close's result and its payments, no ✓ and no hint to tap."""
    page = open_seat(new_page, live_server, table["key"], language, width)
    expect(page.locator("#follow-hint")).to_be_visible()
    page.wait_for_timeout(300)  # the stream is open
    session = table["session"]
    session_close(actor=table["scorer"], session_id=session.pk, expected_version=fresh(session).version)
    expect(page.locator("#follow-result")).to_be_visible()
    expect(page.locator("#live-status")).to_have_text(said(language, "Closed."))
    expect(page.locator("#follow-hint")).to_be_hidden()
    expect(page.locator("[data-action=confirm]")).to_have_count(0)
    close = fresh(session).closing
    for seat, final in enumerate(close["final"]):
        expect(page.locator("#follow-result .follow-balances li").nth(seat).locator(".n .num")).to_have_attribute(
            "data-n", str(final)
        )
    page.wait_for_timeout(1000)  # the stream's heartbeats come and go: the status stays
    expect(page.locator("#live-status")).to_have_text(said(language, "Closed."))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"{width}-{language}-follow-closed")
    assert page.errors == []


def test_the_room_board_reads_from_three_metres(new_page: Any, admin: Any, club: Club, players: list[Any]) -> None:
    """A wall screen at 1920x1080 with 8 tables: names and totals were 30.7 px, the "1 dispute" badge
    14 px, half the screen unused, the tables named by number alone, the site's header and language form
    on the wall, and a table opened showed only after some other change. Now: at least 64 px, the badge
    half that at least, the grid to the screen's foot, the variant named, no header or footer, and a new
    table at once."""
    sessions = [open_session(admin, club, players) for _ in range(7)]
    for s in sessions:
        record_all(admin, s, AMERICAN_HANDS[:1])
    _, link = seat_link_issue(actor=admin, session_id=sessions[0].pk, seat=1)
    deal_check(session_id=sessions[0].pk, number=1, state="disputed", reason="no", link=link)
    board_key, _ = board_link_issue(actor=admin, club_id=club.pk, label="wall")
    board = new_page({"width": 1920, "height": 1080})
    board.goto(f"/b/{board_key}/")
    expect(board.locator(".board-table")).to_have_count(7)
    board.wait_for_timeout(300)  # the board's stream is open
    since = time.monotonic()
    eighth = open_session(admin, club, players, variant="french")
    expect(board.locator(".board-table")).to_have_count(8, timeout=4000)
    assert time.monotonic() - since < 4
    expect(board.locator(f"[data-session='{eighth.pk}'] h2")).to_contain_text(f"French · table #{eighth.pk}")
    expect(board.locator(f"[data-session='{sessions[1].pk}'] h2")).to_contain_text("American")

    def px(selector: str) -> float:
        return float(board.locator(selector).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))

    assert px(".board-seats .who") >= 64, px(".board-seats .who")
    assert px(".board-seats .n") >= 64, px(".board-seats .n")
    assert px(".badge.dispute") >= 32, px(".badge.dispute")
    screenshot(board, "1920-board-8")
    heights = board.evaluate("() => [document.documentElement.scrollHeight, window.innerHeight]")
    assert heights[0] <= heights[1], heights
    low = board.evaluate(
        "() => Math.max(...[...document.querySelectorAll('.board-table')].map(e => e.getBoundingClientRect().bottom))"
    )
    assert low >= 1080 * 0.95, low  # the grid reaches the screen's foot
    for seat in board.locator(".board-seats li").all():  # nothing of a total is cut or spills over
        assert seat.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    expect(board.locator("header.top")).to_have_count(0)
    expect(board.locator("footer, #lang-select")).to_have_count(0)
    screenshot(board, "1920-board-8")
    assert board.errors == []


@pytest.mark.parametrize(("language", "width"), [("fr", 390), ("ru", 360), ("en", 360)])
def test_joining_with_no_account(
    new_page: Any, live_server: Any, admin: Any, club: Club, players: list[Any], language: str, width: int
) -> None:
    """The scorer shows every seat's code at once, and again after a reload; a player with no account
    scans the table's code and is told which table and how; a second phone on a seat link is told that
    it acts as the same player."""
    session = open_session(admin, club, players)
    record_all(admin, session, AMERICAN_HANDS[:1])
    scorer = new_page({"width": width, "height": 800})
    scorer.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    login(scorer, "admin", f"/sessions/{session.pk}/join/")
    scorer.click("#issue-all")
    expect(scorer.locator(".seat-code svg")).to_have_count(4)
    scorer.reload()
    expect(scorer.locator(".seat-code svg")).to_have_count(4)
    assert scorer.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(scorer, f"{width}-{language}-seat-codes")
    short = scorer.locator("#short-link").get_attribute("href")
    dan_url = scorer.locator(".seat-code[data-seat='3'] .seat-code-link").get_attribute("href")

    player = new_page({"width": width, "height": 740})
    player.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    player.goto(short)
    expect(player.locator("h1")).to_contain_text(str(session.pk))
    expect(player.locator("main")).to_contain_text("Ann, Ben, Cleo, Dan")
    expect(player.locator("#join-login")).to_be_visible()
    assert player.evaluate("document.documentElement.scrollWidth") <= width

    first = open_seat(new_page, live_server, dan_url.rstrip("/").rsplit("/", 1)[1], language, width)
    expect(first.locator("#shared-seat")).to_have_count(0)
    second = open_seat(new_page, live_server, dan_url.rstrip("/").rsplit("/", 1)[1], language, width)
    expect(second.locator("#shared-seat")).to_be_visible()
    assert second.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(second, f"{width}-{language}-seat-second-phone", full_page=False)
    for page in (scorer, player, first, second):
        assert page.errors == []


def test_the_amend_pad_takes_the_count_a_dispute_names(new_page: Any, table: dict) -> None:
    """Ben says Dan took 4 (2 recorded): amending, the 4 was greyed out until another seat was lowered,
    with nothing said. It is taken; the seat the pad fills by itself gives the 2 back, which is said."""
    session = table["session"]
    deal_check(session_id=session.pk, number=1, state="disputed", reason="Dan took 4", link=table["link"])
    page = new_page({"width": 390, "height": 844})
    login(page, "admin", f"/sessions/{session.pk}/score/")
    page.locator("#disputes button[data-amend='1']").click()
    expect(page.locator("#deal-title")).to_contain_text("1")
    page.click("#pad-seats [data-seat='3']")
    four = page.locator("#pad-keys [data-count='4']")
    expect(four).to_be_enabled()
    four.click()
    expect(page.locator("#pad-seats output[data-seat='3']")).to_have_text("4")
    # Ann, the seat the pad fills by itself, gives the 2 back, and the pad says so.
    expect(page.locator("#pad-seats output[data-seat='0']")).to_have_text("1")
    expect(page.locator("#tricks-left")).to_contain_text("Ann 3 → 1, to make the total: tap Ann to change it.")
    expect(page.locator("#record")).to_be_enabled()
    page.click("#pad-seats [data-seat='2']")  # or Cleo gives them: 2 → 0, Ann 3 again
    page.click("#pad-keys [data-count='0']")
    page.click("#pad-seats [data-seat='0']")
    page.click("#pad-keys [data-count='3']")
    expect(page.locator("#tricks-left")).to_contain_text("(all 13)")
    expect(page.locator("#tricks-left")).not_to_contain_text("→")
    expect(page.locator("#record")).to_be_enabled()
    assert page.errors == []
