"""Logging out leaves nothing of the club on the browser (issue 29, point 6): the scorer of club A logs
out, a member of club B logs in on the same browser, the network goes: nothing of club A is shown (the
service worker's copies and the queue went with the logout). And while a deal waits on the phone, not
yet recorded, the logout is refused with a message: the deal is never lost by it."""

from __future__ import annotations

import contextlib
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from ledger.models import Club, Player, Role
from ledger.services.clubs import club_create
from ledger.services.hands import hand_record
from tests.browser.conftest import BROWSER, login
from tests.browser.scorer_driver import Scorer
from tests.browser.test_offline import kept_for_offline
from tests.browser.test_scorer import THREE, deal_waiting_offline
from tests.ledger_fixtures import member, open_session

pytestmark = BROWSER

LOG_OUT = "header.top form[data-logout] button[type=submit]"

KEPT_URLS = """async () => {
    const urls = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const r of await cache.keys()) urls.push(new URL(r.url).pathname);
    }
    return urls;
}"""


def test_after_logout_another_club_sees_nothing_of_the_first_offline(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = open_session(admin, club, players)
    hand_record(actor=admin, session_id=session.pk, hand=THREE[0])
    other = club_create(actor=admin, name="Other Club")
    member(other, admin, "bea", Role.SCORER)
    page = new_page()
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    thumb = Scorer(page).open(session)
    kept_for_offline(page, session, 1)  # the worker keeps club A's scorer page and its reads
    assert thumb.queue() == []

    with page.expect_response("**/logout/") as answer:
        page.click(LOG_OUT)
    assert answer.value.all_headers().get("clear-site-data") == '"cache", "storage"'
    page.wait_for_url("**/")
    login(page, "bea", "/")
    expect(page.locator("body")).to_contain_text("Other Club")
    kept = page.evaluate(KEPT_URLS)
    assert not [u for u in kept if f"/sessions/{session.pk}/" in u], kept
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('clubscore.'))") == []

    page.context.set_offline(True)
    with contextlib.suppress(PlaywrightError):  # no copy to open: the browser's own "no internet" page
        page.goto(f"/sessions/{session.pk}/score/")
    page.wait_for_load_state()  # whatever opened (the browser's error page) has finished opening
    shown = page.locator("body").inner_text()
    assert "Bars Club" not in shown
    assert "Cleo" not in shown
    assert page.locator("#scorer").count() == 0


def test_a_deal_waiting_on_the_phone_blocks_the_logout(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = open_session(admin, club, players)
    page, thumb = deal_waiting_offline(new_page, session)

    page.click(LOG_OUT)
    refused = page.locator("#logout-refused")
    expect(refused).to_have_text(
        "Not logged out: 1 deal waits on this phone to be sent. Open the scorer page and let it be recorded "
        "(or discard it) first."
    )
    assert page.url.endswith(f"/sessions/{session.pk}/score/")
    assert len(thumb.queue()) == 1

    # Back online the deal is recorded; then the logout goes through.
    page.context.set_offline(False)
    thumb.wait_recorded(1)
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0")
    page.click(LOG_OUT)
    page.wait_for_url("**/")
    expect(page.locator("header.top")).to_contain_text("Log in")
    assert page.errors == []
