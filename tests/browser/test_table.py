"""The whole table (issue 25) on four phones: the scorer and three followers (two members, one through a
seat link). A recorded deal, an amend and an undo reach the three within 1 s of the scorer's answer; a
dispute reaches the scorer, is amended away and asked again; a close with an open dispute goes through
the treasurer's resolution. Two deals close together, the first's read answered late, leave a follower on
the newest. A board shows two tables live. Each new page passes axe at 360 px."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Club, Role
from ledger.services.clubs import player_create
from ledger.services.table import board_link_issue, seat_link_issue
from tests.browser.a11y import axe_violations
from tests.browser.conftest import BROWSER, login, screenshot
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, member, open_session, record_all

pytestmark = BROWSER
# Seconds from the scorer's 201 to every follower showing it. Under the live hook's 5 s polling
# (static/clubscore/live.js), so only the stream can deliver it in time; the 1 s p95 of issue 25 is
# measured by bench/live.py, not here: a timed test failed CI on a loaded 2-core machine (1.25 s).
WITHIN = 4.0


@pytest.fixture
def table(admin: Any, club: Club) -> dict[str, Any]:
    users = [member(club, admin, name.lower(), Role.PLAYER) for name in ("Ann", "Ben", "Cleo", "Dan")]
    seated = [player_create(actor=admin, club_id=club.pk, name=u.username.title(), user=u) for u in users]
    scorer = member(club, admin, "scorer", Role.SCORER)
    member(club, admin, "treasurer", Role.TREASURER)
    session = open_session(scorer, club, seated)
    record_all(scorer, session, AMERICAN_HANDS[:1])
    return {"users": users, "players": seated, "scorer": scorer, "session": session}


def call(page: Any, method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    """An API call from the phone's page (its session login, its CSRF token): the answer's status and body."""
    return page.evaluate(
        "async ([m, u, b, h]) => { const r = await CS.api(m, u, b, h); return {status: r.status, data: r.data}; }",
        [method, url, body, headers or {}],
    )


def version(page: Any, session_id: int) -> str:
    """The session's version as the phone reads it, from the page's own login."""
    return f'"{call(page, "GET", f"/api/v1/sessions/{session_id}/")["data"]["version"]}"'


def reach(followers: list[Any], selector: str, since: float, state: str = "visible") -> None:
    """Every follower shows `selector` (or no longer does) within WITHIN seconds of `since`."""
    for page in followers:
        left = max(0.05, WITHIN - (time.monotonic() - since))
        locator = page.locator(selector)
        if state == "visible":
            expect(locator).to_be_visible(timeout=left * 1000)
        else:
            expect(locator).to_have_count(0, timeout=left * 1000)
    assert time.monotonic() - since <= WITHIN + 0.1, time.monotonic() - since


def test_four_phones_one_table(new_page: Any, table: dict[str, Any]) -> None:
    session = table["session"]
    sid = session.pk
    key, _ = seat_link_issue(actor=table["scorer"], session_id=sid, seat=3)
    follow = f"/sessions/{sid}/follow/"

    scorer = new_page()
    login(scorer, "scorer", follow)
    ann, ben = new_page(), new_page()
    login(ann, "ann", follow)
    login(ben, "ben", follow)
    dan = new_page()
    dan.goto(f"/s/{key}/")
    followers = [ann, ben, dan]
    for page in [scorer, *followers]:
        expect(page.locator("#deal-1")).to_be_visible()
    for page, name in ((ann, "follow"), (dan, "follow-seat-link")):
        screenshot(page, f"360-{name}")
        assert axe_violations(page) == [], name
    time.sleep(0.5)  # every stream is open (its first event arrives with the page's own tag)

    hands = f"/api/v1/sessions/{sid}/hands/"
    answer = call(scorer, "POST", hands, AMERICAN_HANDS[1], {"Idempotency-Key": str(uuid.uuid4())})
    since = time.monotonic()
    assert answer["status"] == 201, answer
    reach(followers, "#deal-2", since)
    answer = call(scorer, "POST", hands, AMERICAN_HANDS[2], {"Idempotency-Key": str(uuid.uuid4())})
    since = time.monotonic()
    assert answer["status"] == 201
    reach(followers, "#deal-3", since)

    # Ben disputes deal 3: the scorer's phone (and everyone's) marks it at once.
    ben.click("#deal-3 [data-action=dispute]")
    ben.fill("#why-text-3", "I took five tricks, not four")
    ben.click("#why-3 button[type=submit]")
    reach([scorer, ann, dan], "#deal-3.disputed", time.monotonic())
    expect(scorer.locator("#deal-3")).to_contain_text("I took five tricks, not four")

    # The scorer amends deal 3: the dispute is cleared everywhere and Ben is asked again.
    amended = {**AMERICAN_HANDS[2], "tricks": [4, 5, 2, 2]}
    answer = call(scorer, "PUT", f"{hands}3/", amended, {"If-Match": version(scorer, sid)})
    since = time.monotonic()
    assert answer["status"] == 200, answer
    reach(followers, "#deal-3.disputed", since, state="gone")
    expect(ben.locator("#deal-3 [data-action=confirm]")).to_have_attribute("aria-pressed", "false")
    ben.click("#deal-3 [data-action=dispute]")
    ben.fill("#why-text-3", "still not right: Ann had the last trick")
    ben.click("#why-3 button[type=submit]")
    reach([scorer], "#deal-3.disputed", time.monotonic())

    # Dan, through his seat link, confirms deal 2: the others see his ✓.
    dan.click("#deal-2 [data-action=confirm]")
    reach([ann], "#deal-2 .deal-seat:nth-child(4) .ok", time.monotonic())

    # A deal recorded and undone: it goes from every phone within the second.
    answer = call(scorer, "POST", hands, AMERICAN_HANDS[3], {"Idempotency-Key": str(uuid.uuid4())})
    reach(followers, "#deal-4", time.monotonic())
    answer = call(scorer, "DELETE", f"{hands}4/", None, {"If-Match": version(scorer, sid)})
    since = time.monotonic()
    assert answer["status"] == 200, answer
    reach(followers, "#deal-4", since, state="gone")

    # The close waits for the treasurer's resolution of Ben's dispute.
    treasurer = new_page()
    login(treasurer, "treasurer", f"/sessions/{sid}/settlement/")
    assert axe_violations(treasurer) == [], "settlement with a dispute"
    screenshot(treasurer, "360-close-with-dispute")
    expect(treasurer.locator("#close-waits")).to_contain_text("deal 3")  # no close form while disputed
    expect(treasurer.locator("input[name=confirm]")).to_have_count(0)
    expect(treasurer.locator("#dispute-deal-3-1")).to_contain_text("tricks 4 · 5 · 2 · 2")
    treasurer.fill("#note-3-1", "Ann had the last trick: the deal stands")
    treasurer.click("#disputes button[value=overruled]")
    expect(treasurer.locator(".settled-disputes")).to_contain_text("overruled by treasurer")
    treasurer.check("input[name=confirm]")
    treasurer.click(".close-form button[type=submit]")
    expect(treasurer.locator(".message.success")).to_be_visible()
    assert fresh(session).status == "closed"
    for page in followers:
        expect(page.locator("#live-status")).to_have_text("Closed.", timeout=WITHIN * 1000)
        expect(page.locator("#follow-result")).to_be_visible()
    for page in [scorer, *followers, treasurer]:
        assert page.errors == []


def until(page: Any, condition: Callable[[], bool], timeout: float = 15.0) -> None:
    """Wait for `condition`, letting Playwright go on with the page meanwhile (its routes, its events).
    Not `wait_for_function`: the pages' Content Security Policy refuses the script it evaluates."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        page.wait_for_timeout(20)


def reads_in_flight(part: str) -> str:
    """A script for `add_init_script`: the page's own reads of an address containing `part`, counted in
    the page as they go (`window.readsInFlight`, and `window.readsMostInFlight`: the most at once)."""
    return """(part => {
  const fetch = window.fetch;
  window.readsInFlight = 0;
  window.readsMostInFlight = 0;
  window.fetch = async function (...args) {
    const counted = String(args[0]).includes(part);
    if (counted) window.readsMostInFlight = Math.max(window.readsMostInFlight, ++window.readsInFlight);
    try { return await fetch.apply(this, args); } finally { if (counted) window.readsInFlight--; }
  };
})(PART)""".replace("PART", json.dumps(part))


def test_two_deals_close_together_leave_a_follower_on_the_newest(new_page: Any, table: dict[str, Any]) -> None:
    """Deal 2 recorded while Ben's phone is off the network, deal 3 just after it is back, the read that
    catches deal 2 up answered late (a slow phone network): the follower reads its rows one at a time
    and ends on deal 3. It read them side by side before, and the older answer, landing last, put deal
    2's rows back over deal 3's until the next change. (A follower on the stream reads nothing: each
    change brings its rows, tests/browser/test_live_data.py; only a page that missed one reads.)"""
    session = table["session"]
    ben = new_page()
    ben.add_init_script(reads_in_flight("/follow/rows/"))
    login(ben, "ben", f"/sessions/{session.pk}/follow/")
    expect(ben.locator("#deal-1")).to_be_visible()
    expect(ben.locator("#live-status")).to_have_text("Live: deals appear as they are recorded.")
    held: list[tuple[Any, Any]] = []

    def answer_the_first_late(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))  # the server answers now (deal 2); the phone hears it later

    ben.route("**/follow/rows/", answer_the_first_late)
    first_tag = ben.evaluate("CS.follower.tag")
    ben.context.set_offline(True)
    ben.wait_for_timeout(300)
    record_all(table["scorer"], session, AMERICAN_HANDS[1:2])
    ben.context.set_offline(False)  # back online: the page reads what it missed at once
    until(ben, lambda: bool(held))  # the read that catches deal 2 up is on its way
    record_all(table["scorer"], session, AMERICAN_HANDS[2:3])
    until(ben, lambda: ben.evaluate("CS.follower.tag") not in (first_tag, ""))  # a change has come
    ben.wait_for_timeout(300)
    assert ben.evaluate("window.readsMostInFlight") == 1  # its read waits for the one on its way
    route, late = held[0]
    route.fulfill(response=late)
    expect(ben.locator("#deal-3")).to_be_visible()
    expect(ben.locator("#follow-rows")).to_have_attribute("data-tag", ben.evaluate("CS.follower.tag"))
    expect(ben.locator("#deal-2")).to_be_visible()
    assert ben.evaluate("window.readsMostInFlight") == 1
    assert ben.errors == []


def test_a_reason_being_written_holds_the_new_deal_until_it_is_closed(new_page: Any, table: dict[str, Any]) -> None:
    """Ben writes what is not right in deal 1 and looks away (the cursor leaves it) while deal 2 is
    recorded: his words are kept, the page says the new deal waits for them, and closing "That's not
    right" shows deal 2. (The rows were swapped under an unfocused reason, wiping it; and a change that
    came while he typed waited for the next change.)"""
    session = table["session"]
    ben = new_page()
    login(ben, "ben", f"/sessions/{session.pk}/follow/")
    status = ben.locator("#live-status")
    expect(status).to_have_text("Live: deals appear as they are recorded.")
    ben.click("#deal-1 [data-action=dispute]")
    ben.fill("#why-text-1", "I took five tricks")
    ben.locator("h1").click()  # the cursor leaves the reason; the words stay
    record_all(table["scorer"], session, AMERICAN_HANDS[1:2])
    expect(status).to_have_text("New deals show once you send or close “That's not right”.")
    expect(ben.locator("#why-text-1")).to_have_value("I took five tricks")
    expect(ben.locator("#deal-2")).to_have_count(0)
    ben.click("#deal-1 [data-action=dispute]")  # closed without sending
    expect(ben.locator("#deal-2")).to_be_visible()
    expect(status).to_have_text("Live: deals appear as they are recorded.")
    assert ben.errors == []


def test_the_board_shows_two_tables_live(new_page: Any, table: dict[str, Any], admin: Any, club: Club) -> None:
    first = table["session"]
    second = open_session(table["scorer"], club, table["players"])
    key, _ = board_link_issue(actor=admin, club_id=club.pk, label="wall")
    scorer, ann = new_page(), new_page()
    login(scorer, "scorer", f"/sessions/{second.pk}/follow/")
    login(ann, "ann", f"/sessions/{first.pk}/follow/")
    board = new_page({"width": 1280, "height": 720})
    board.goto(f"/b/{key}/")
    expect(board.locator(".board-table")).to_have_count(2)
    expect(board.locator(f"[data-session='{second.pk}'] .deal-of")).to_contain_text("deal 0 of 12")
    screenshot(board, "1280-board")
    assert axe_violations(board) == [], "board"
    time.sleep(0.5)  # the board's stream is open
    hands = f"/api/v1/sessions/{second.pk}/hands/"
    answer = call(scorer, "POST", hands, AMERICAN_HANDS[0], {"Idempotency-Key": str(uuid.uuid4())})
    since = time.monotonic()
    assert answer["status"] == 201, answer
    reach([board], f"[data-session='{second.pk}'] .deal-of:has-text('deal 1 of 12')", since)
    answer = call(ann, "POST", f"/api/v1/sessions/{first.pk}/hands/1/dispute/", {"reason": "no"})
    since = time.monotonic()
    assert answer["status"] == 200, answer
    reach([board], f"[data-session='{first.pk}'].disputed", since)
    assert board.errors == []
    board.close()


def test_the_board_holds_eight_tables_without_scrolling(
    new_page: Any, table: dict[str, Any], admin: Any, club: Club
) -> None:
    for _ in range(7):
        record_all(table["scorer"], open_session(table["scorer"], club, table["players"]), AMERICAN_HANDS[:1])
    key, _ = board_link_issue(actor=admin, club_id=club.pk, label="wall")
    board = new_page({"width": 1280, "height": 720})
    board.goto(f"/b/{key}/")
    expect(board.locator(".board-table")).to_have_count(8)
    assert board.evaluate("() => document.documentElement.scrollHeight <= window.innerHeight + 1")
    screenshot(board, "1280-board-8")
    assert board.errors == []


def test_the_join_and_board_link_pages_pass_axe(new_page: Any, table: dict[str, Any], admin: Any, club: Club) -> None:
    page = new_page({"width": 390, "height": 844})
    login(page, "scorer", f"/sessions/{table['session'].pk}/join/")
    expect(page.locator(".qr svg")).to_be_visible()
    page.select_option("#seat-choice", "2")
    page.click("button[value=issue]")
    expect(page.locator(".seat-code[data-seat='2'] .seat-code-link")).to_be_visible()
    screenshot(page, "390-join")
    assert axe_violations(page) == [], "join"
    admin_page = new_page({"width": 390, "height": 844})
    login(admin_page, "admin", f"/clubs/{club.pk}/board/links/")
    admin_page.click("button[value=issue]")
    expect(admin_page.locator("#issued-link")).to_be_visible()
    assert axe_violations(admin_page) == [], "board links"
    admin_page.goto(f"/clubs/{club.pk}/board/")
    assert axe_violations(admin_page) == [], "club board"
