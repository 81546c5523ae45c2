"""One live path that carries data (issue 38 item 12, issue 40 item 6), counted in the browser: a
follower's page and the score sheet page apply each change the stream brings, reading nothing, and
show what a fresh load shows; a page that missed changes (off the network) reads once.

Before, each change made every follower re-read its whole fragment (36 KB at 32 deals) and the sheet
page polled every 5 s and re-read its table at each new version."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger import selectors
from ledger.models import Club
from ledger.services.hands import hand_amend, hand_undo
from ledger.services.table import deal_check, seat_link_issue
from tests.browser.conftest import BROWSER, login
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, open_session, record_all

pytestmark = BROWSER
HANDS = AMERICAN_HANDS * 2  # eight valid deals in a row


@pytest.fixture
def table(admin: Any, club: Club, players: list[Any]) -> dict[str, Any]:
    session = open_session(admin, club, players)
    record_all(admin, session, AMERICAN_HANDS[:1])
    key, _ = seat_link_issue(actor=admin, session_id=session.pk, seat=1)
    cleo_key, _ = seat_link_issue(actor=admin, session_id=session.pk, seat=2)
    return {"session": session, "key": key, "cleo": selectors.seat_link_get(key=cleo_key), "scorer": admin}


class Reads:
    """The page's requests to its fragment's address, and those answered with a body (200)."""

    def __init__(self, page: Any, part: str) -> None:
        self.part = part
        self.sent: list[str] = []
        self.bodies: list[str] = []
        page.on("request", lambda r: self.sent.append(r.url) if part in r.url else None)
        page.on("response", lambda r: self.bodies.append(r.url) if part in r.url and r.status == 200 else None)


def words(page: Any, selector: str) -> str:
    return re.sub(r"\s+", " ", page.locator(selector).inner_text()).strip()


def same_as_a_fresh_load(page: Any, selector: str, new_page: Any, url: str, setup: Any = None) -> None:
    other = new_page()
    if setup:
        setup(other)
    other.goto(url)
    assert words(page, selector) == words(other, selector)
    other.close()


def test_a_follower_and_the_sheet_apply_each_change_and_read_only_after_a_gap(
    new_page: Any, live_server: Any, table: dict
) -> None:
    session = table["session"]
    follower = new_page()
    follower_reads = Reads(follower, f"/s/{table['key']}/rows/")
    follower.goto(f"/s/{table['key']}/")
    expect(follower.locator("#live-status")).to_have_text("Live: deals appear as they are recorded.")
    sheet = new_page()
    login(sheet, "admin", f"/sessions/{session.pk}/sheet/")
    sheet_reads = Reads(sheet, "/sheet/rows/")
    sheet_api = Reads(sheet, f"/api/v1/sessions/{session.pk}/")
    expect(sheet.locator("#live")).to_contain_text("Live")
    sheet.wait_for_timeout(500)  # both streams are open

    # Three deals, a ✓ from another seat, an amend (every later running total moves), an undo.
    for n, hand in enumerate(HANDS[1:4], start=2):
        record_all(table["scorer"], session, [hand])
        expect(follower.locator(f"#deal-{n}")).to_be_visible()
        expect(sheet.locator(f"#sheet-table tr[data-deal='{n}']")).to_be_visible()
    deal_check(session_id=session.pk, number=3, state="confirmed", link=table["cleo"])
    expect(follower.locator("#deal-3 .deal-seat").nth(2).locator(".ok")).to_be_visible()
    hand_amend(
        actor=table["scorer"],
        session_id=session.pk,
        number=2,
        hand=HANDS[2],
        expected_version=fresh(session).version,
    )
    expect(follower.locator("#follow-rows")).to_have_attribute("data-tag", f"{fresh(session).version}.1")
    expect(sheet.locator("#sheet-table")).to_have_attribute("data-version", str(fresh(session).version))
    hand_undo(actor=table["scorer"], session_id=session.pk, number=4, expected_version=fresh(session).version)
    expect(follower.locator("#deal-4")).to_have_count(0)
    expect(sheet.locator("#sheet-table tr[data-deal='4']")).to_have_count(0)

    # Ben's own ✓ comes back on the stream: no read either.
    follower.click("#deal-3 [data-action=confirm]")
    expect(follower.locator("#deal-3 [data-action=confirm]")).to_have_attribute("aria-pressed", "true")

    assert follower_reads.sent == [], follower_reads.sent  # 0 reads for 5 changes
    assert sheet_reads.sent == [] and sheet_api.sent == [], (sheet_reads.sent, sheet_api.sent)
    same_as_a_fresh_load(follower, "#follow-rows", new_page, f"/s/{table['key']}/")
    same_as_a_fresh_load(
        sheet,
        "#sheet-table",
        new_page,
        f"/sessions/{session.pk}/sheet/",
        lambda page: login(page, "admin", f"/sessions/{session.pk}/sheet/"),
    )

    # The stream lost for two deals (a proxy that refuses it): each page catches up by one read, the
    # deals it missed in one answer, then takes the next change from the stream again.
    # (The fragment is refused too while the two deals are recorded, so that no poll falls between them.)
    fragments = (f"**/s/{table['key']}/rows/", "**/sheet/rows/")
    for page, fragment in zip((follower, sheet), fragments, strict=True):
        page.route("**/live/**", lambda route: route.abort())
        page.route(fragment, lambda route: route.abort())
        page.evaluate("window.dispatchEvent(new Event('online'))")  # a new stream: refused
    expect(follower.locator("#live-status")).not_to_have_text("Live: deals appear as they are recorded.")
    expect(sheet.locator("#live")).to_contain_text("Offline")
    record_all(table["scorer"], session, HANDS[3:5])
    for page, fragment in zip((follower, sheet), fragments, strict=True):
        page.unroute(fragment)
    expect(follower.locator("#deal-5")).to_be_visible(timeout=12_000)  # the 5 s fallback poll
    expect(sheet.locator("#sheet-table tr[data-deal='5']")).to_be_visible(timeout=12_000)
    for page in (follower, sheet):
        page.unroute("**/live/**")
    expect(follower.locator("#live-status")).to_have_text("Live: deals appear as they are recorded.", timeout=12_000)
    expect(sheet.locator("#live")).to_contain_text("Live", timeout=12_000)
    assert len(follower_reads.bodies) == 1, follower_reads.bodies
    assert len(sheet_reads.bodies) == 1, sheet_reads.bodies
    record_all(table["scorer"], session, HANDS[5:6])
    expect(follower.locator("#deal-6")).to_be_visible()
    expect(sheet.locator("#sheet-table tr[data-deal='6']")).to_be_visible()
    assert len(follower_reads.bodies) == 1 and len(sheet_reads.bodies) == 1
    assert follower.errors == [] and sheet.errors == []


def test_the_sheet_page_no_longer_polls(new_page: Any, live_server: Any, table: dict) -> None:
    """Quiet for 7 s: the sheet page asks the server nothing. The old poll was a `setInterval` of 5 s from
    the page's load, so it asked at least once in any 5 s and more of quiet; 2 s more for a busy machine's
    late timer and the request's start (12 s, two periods and more, cost CI's browser pass 5 s of wall)."""
    session = table["session"]
    sheet = new_page()
    login(sheet, "admin", f"/sessions/{session.pk}/sheet/")
    asked = Reads(sheet, f"/sessions/{session.pk}/")
    sheet.wait_for_timeout(7_000)
    assert [u for u in asked.sent if "/live/" not in u] == []
    assert sheet.errors == []


def test_the_scorer_does_not_read_again_what_its_201_said(new_page: Any, live_server: Any, table: dict) -> None:
    """The scorer's deal answered 201 (the deal, the totals, the pools, the version): the page read the
    session, its sheet, its hands and its checks again (4 reads), and once more at the stream's echo.
    Now it reads nothing; the next deal is ready at once and previews from the sheet it keeps."""
    session = table["session"]
    scorer = new_page(service_workers="block")  # no service worker: the page's reads are seen here
    login(scorer, "admin", f"/sessions/{session.pk}/score/")
    root = scorer.locator("#scorer")
    expect(root).to_have_attribute("data-hands", "1")
    scorer.wait_for_timeout(500)  # the stream is open
    reads: list[str] = []
    scorer.on(
        "request",
        lambda r: (
            reads.append(r.url)
            if r.method == "GET" and re.search(r"/api/v1/sessions/\d+/(sheet|hands|checks)/", r.url)
            else None
        ),
    )
    scorer.evaluate(
        """([key, hand]) => {
          localStorage.setItem(key, JSON.stringify([{key: crypto.randomUUID(), hand, at: new Date().toISOString(),
            entered: []}]));
          window.dispatchEvent(new Event('online'));  // the queue is sent
        }""",
        [f"clubscore.queue.{session.pk}", {**HANDS[1], "number": 2}],
    )
    expect(root).to_have_attribute("data-hands", "2")
    expect(root).to_have_attribute("data-version", str(fresh(session).version))
    expect(scorer.locator("#deal-title")).to_have_text("Deal 3")
    scorer.wait_for_timeout(1000)  # the stream's echo of the deal has come and gone
    assert reads == [], reads
    # Another phone's deal is a change the page did not make: it reads then, as before.
    record_all(table["scorer"], session, HANDS[2:3])
    expect(root).to_have_attribute("data-hands", "3")
    assert reads, "another phone's deal is read"
    assert scorer.errors == []
