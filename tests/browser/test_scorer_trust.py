"""Issue 38, at the scorer's phone: a hurried Record never undoes what it recorded, the game's last deal
is confirmed like any other, a confirmation says what the bar said, the form fits 360 px in every
language, amend says what changed, and the offline words stay short. Few tests, each with many checks
(the browser pass is CI's longest step)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Club, Player, Session
from ledger.services.hands import hand_record
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.scorer_driver import Scorer
from tests.browser.test_scorer import THREE, raw_hands
from tests.ledger_fixtures import open_session

pytestmark = BROWSER

SCREENS = {360: {"width": 360, "height": 640}, 390: {"width": 390, "height": 844}}
MISERE = {"bid": "little_misere", "bidder": 0, "tricks": [0, 0, 0, 0]}  # the bar counts Ann's 0 alone

# What stands under a point of the screen: a destructive button there is one tap from losing a deal.
UNDER = """([x, y]) => {
    const e = document.elementFromPoint(x, y);
    const b = e && e.closest('button');
    return b ? b.id || b.textContent : (e ? e.tagName : null);
}"""


def scorer_on(new_page: Any, session: Session, width: int) -> Scorer:
    page = new_page(SCREENS[width], touch=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    return Scorer(page, touch=True).open(session)


def record_points(thumb: Scorer) -> list[tuple[float, float]]:
    """Points across Record (a quarter, the middle, three quarters): where a hurried thumb taps again."""
    box = thumb.page.locator("#record").bounding_box()
    y = box["y"] + box["height"] / 2
    return [(box["x"] + box["width"] * f, y) for f in (0.25, 0.5, 0.75)]


def hurried(thumb: Scorer, taps: int, apart: float) -> list[tuple[float, float]]:
    """Record tapped `taps` times, `apart` seconds apart, at Record's left quarter (where Undo stood)."""
    points = record_points(thumb)
    x, y = points[0]
    for _ in range(taps):
        thumb.page.touchscreen.tap(x, y)
        time.sleep(apart)
    return points


@pytest.mark.parametrize("width", [360, 390])
def test_a_hurried_record_records_once_and_confirms_what_the_bar_said(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player], width: int
) -> None:
    """Items 1 and 3: three taps 0.6 s apart, then four 0.4 s apart, record two deals and undo none; nothing
    destructive stands where Record stood; a misère's confirmation says the bar's counts, not four zeros."""
    session = open_session(admin, club, players)
    thumb = scorer_on(new_page, session, width)
    page = thumb.page
    thumb.enter(THREE[0])
    thumb.wait_preview(THREE[0])
    points = hurried(thumb, 3, 0.6)
    thumb.wait_recorded(1)
    for x, y in points:  # what stands where Record stood, once the confirmation is shown
        assert page.evaluate(UNDER, [x, y]) not in ("confirm-undo", "undo-yes"), (x, y)
    expect(page.locator("#undo-yes")).to_have_count(0)  # nothing armed
    expect(page.locator("button.armed")).to_have_count(0)

    thumb.enter(MISERE)
    said = page.locator("#deal-words").inner_text()
    assert said.endswith("tricks: Ann 0"), said
    thumb.wait_preview(MISERE)
    hurried(thumb, 4, 0.4)
    thumb.wait_recorded(2)
    time.sleep(1)
    expect(page.locator("#confirmation")).to_contain_text(f"Deal 2 recorded: {said}.")
    expect(page.locator("#confirmation")).not_to_contain_text("Ben 0")
    expect(page.locator("#undo-yes")).to_have_count(0)
    assert raw_hands(session) == [THREE[0], MISERE]

    # Undo in the confirmation: the first tap arms it and "Yes" stands elsewhere; the same place again keeps
    # the deal.
    undo = page.locator("#confirm-undo")
    where = undo.bounding_box()
    undo.tap()
    expect(page.locator("#undo-yes")).to_be_visible()
    yes = page.locator("#undo-yes").bounding_box()
    assert yes["x"] >= where["x"] + where["width"] or yes["y"] >= where["y"] + where["height"], (where, yes)
    undo.tap()  # a second tap in the same place: "Keep deal 2"
    expect(page.locator("#undo-yes")).to_have_count(0)
    expect(undo).to_have_text("Undo deal 2")
    time.sleep(1)
    assert raw_hands(session) == [THREE[0], MISERE]
    assert page.errors == []


def test_the_last_deal_is_confirmed_with_undo_and_amend(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    """Item 2 (American, 12 deals): deal 12's confirmation says what was recorded and that the game is over,
    with Undo and Amend; item 5: Undo's "Yes" says "Undoing deal 12…" at once, before the server answers."""
    session = open_session(admin, club, players)
    for number in range(11):
        hand_record(actor=scorer, session_id=session.pk, hand=THREE[number % 3])
    thumb = scorer_on(new_page, session, 360)
    page = thumb.page
    expect(page.locator("#deal-title")).to_have_text("Deal 12")
    thumb.enter(THREE[2])
    thumb.record()
    thumb.wait_recorded(12)
    bar = page.locator("#deal-bar")
    expect(bar).to_be_visible()
    expect(page.locator("#deal-title")).to_have_text("The game is over")
    confirmation = page.locator("#confirmation")
    expect(confirmation).to_contain_text("Deal 12 recorded: all pass · tricks: Ann 4, Ben 4, Cleo 3, Dan 2.")
    expect(confirmation).to_contain_text("The game is over: deal 12 was its last.")
    expect(confirmation.locator(".deltas")).to_have_count(1)
    expect(page.locator("#record")).to_be_hidden()
    assert thumb.bar_in_view()
    screenshot(page, "360-scorer-last-deal", full_page=False)

    held: list[Any] = []
    page.route(
        "**/hands/12/", lambda route: held.append(route) if route.request.method == "DELETE" else route.continue_()
    )
    page.locator("#confirm-undo").tap()
    page.locator("#undo-yes").tap()
    expect(page.locator("#undo-yes")).to_have_text("Undoing deal 12…", timeout=300)  # at once, not after the answer
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline
        page.wait_for_timeout(50)
    held[0].continue_()
    expect(confirmation).to_contain_text("Deal 12 undone.")
    expect(page.locator("#deal-title")).to_have_text("Deal 12")
    assert len(raw_hands(session)) == 11
    page.unroute("**/hands/12/")

    thumb.enter(THREE[2])
    thumb.record()
    thumb.wait_recorded(12)
    page.locator("#confirm-amend").tap()
    expect(page.locator("#deal-title")).to_have_text("Amending deal 12")
    assert page.errors == []


# The words of the form's labels, the header, the bids and the bar that a line break cuts in two.
BROKEN = """() => {
    const broken = [];
    const shown = e => e.getClientRects().length > 0;
    const nodes = [...document.querySelectorAll('.frow .flabel, .bids .opt, .deal-head, .top, .deal-bar')]
        .filter(shown);
    for (const node of nodes) {
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
            const re = /\\S+/g;
            for (let m = re.exec(t.data); m; m = re.exec(t.data)) {
                const range = document.createRange();
                range.setStart(t, m.index);
                range.setEnd(t, m.index + m[0].length);
                const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
                if (tops.size > 1) broken.push(m[0]);
            }
        }
    }
    return broken;
}"""
WIDE = """() => ({
    page: document.documentElement.scrollWidth,
    record: Math.round(document.getElementById('record').getBoundingClientRect().right),
    wider: [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 0.5
        && e.getClientRects().length).map(e => e.id || e.className || e.tagName).slice(0, 5),
})"""


def test_the_form_fits_360_px_in_every_language(
    new_page: Any, live_server: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    """Item 4: at 360 px, in English, French and Russian, on a French and a Russian table with the bidder,
    the partner and the ♦J rows shown: the page is no wider than the screen, Record ends on it, and no word
    of a label, a bid, the header or the bar is broken across two lines."""
    sessions = {v: open_session(admin, club, players, variant=v) for v in ("french", "russian")}
    page = new_page(SCREENS[360], touch=True)
    login(page, "scorer", "/")
    for language in ("en", "fr", "ru"):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        for variant, session in sessions.items():
            thumb = Scorer(page, touch=True).open(session)
            expect(page.locator("html")).to_have_attribute("lang", language)
            thumb.choose("bidder", 1)
            thumb.choose("bid", "simple")
            expect(page.locator('.frow[data-field="partner"]')).to_be_visible()
            wide = page.evaluate(WIDE)
            assert wide["page"] <= 360 and wide["record"] <= 360, (language, variant, wide)
            assert page.evaluate(BROKEN) == [], (language, variant)
            screenshot(page, f"360-scorer-{variant}-{language}", full_page=False)
    assert page.errors == []


# How many lines an element's text takes on the screen.
LINES = """s => {
    const bottoms = new Set();
    const walker = document.createTreeWalker(document.querySelector(s), NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(t);
        [...range.getClientRects()].filter(r => r.width > 0).forEach(r => bottoms.add(Math.round(r.bottom)));
    }
    return bottoms.size;
}"""


def test_offline_says_which_deals_in_a_line_and_the_catch_up_stays_compact(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    """Item 6 (360x640): offline, the banner names the deals kept on this phone in at most two lines; back
    online, the confirmation of five deals sent at once takes at most a third of the screen."""
    session = open_session(admin, club, players)
    thumb = scorer_on(new_page, session, 360)
    page = thumb.page
    page.context.set_offline(True)
    expect(page.locator("#banner")).to_contain_text("Offline")
    assert page.evaluate(LINES, "#banner") <= 2
    for _ in range(5):
        thumb.enter(THREE[2])
        thumb.record()
    banner = page.locator("#banner")
    expect(banner).to_have_text("Offline: 5 deals waiting to be sent (1, 2, 3, 4, 5), kept on this phone.")
    assert page.evaluate(LINES, "#banner") <= 2
    page.context.set_offline(False)
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0", timeout=20_000)
    thumb.wait_recorded(5)
    confirmation = page.locator("#confirmation")
    expect(confirmation).to_contain_text("Deals 1, 2, 3, 4 recorded too.")
    expect(confirmation.locator(".deltas")).to_have_count(1)
    height = page.locator("#deal-bar").bounding_box()["height"]
    print("catch-up bar height", height)
    assert height <= 640 / 3, height
    screenshot(page, "360-scorer-catch-up", full_page=False)
    assert raw_hands(session) == [THREE[2]] * 5
    assert page.errors == []


# Whether an element is wholly on the screen above the pinned bar.
ABOVE_BAR = """s => {
    const box = document.querySelector(s).getBoundingClientRect();
    const bar = document.getElementById('deal-bar').getBoundingClientRect();
    return {top: box.top, bottom: box.bottom, bar: bar.top, ok: box.top >= 0 && box.bottom <= bar.top + 0.5};
}"""


def test_amend_is_reached_without_a_swipe_and_says_what_changed(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    """Item 5 (390x844): an earlier deal's Amend is two taps from the top of the page, no swipe; while
    amending, the bar says the change in words ("Dan 2 → 1") and the before/after table is in view above the
    bar; the amended confirmation says the change too."""
    session = open_session(admin, club, players)
    for hand in THREE:
        hand_record(actor=scorer, session_id=session.pk, hand=hand)
    thumb = scorer_on(new_page, session, 390)
    page = thumb.page
    thumb.tap("#amend-open")
    thumb.tap('#deal-list button[data-amend="1"]')
    expect(page.locator("#deal-title")).to_have_text("Amending deal 1")
    expect(page.locator("#amend-changes")).to_have_text("Nothing changed yet.")
    thumb.tap('.pad-seat[data-seat="3"]')  # Dan took 1, not 2
    thumb.tap('#pad-keys button[data-count="1"]')
    changes = page.locator("#amend-changes")
    expect(changes).to_have_text("Changes: Ben 1 → 2, Dan 2 → 1")  # Ben, last of the pad, took the rest
    said = changes.inner_text()
    expect(page.locator("#preview .change-table tbody tr")).to_have_count(4)
    page.wait_for_function(f"() => ({ABOVE_BAR})('#preview .change-table').ok")  # brought up above the bar
    screenshot(page, "390-scorer-amend", full_page=False)
    thumb.record()  # Save deal 1
    expect(page.locator("#confirmation")).to_contain_text("Deal 1 amended:")
    expect(page.locator("#confirmation")).to_contain_text(said)
    assert thumb.swipes == 0, thumb.swiped
    assert raw_hands(session)[0]["tricks"][3] == 1
    assert page.errors == []
