"""A complete deal records itself three seconds after its payments are shown (the page's default): the
scorer sees the preview, a change starts the count again, Wait or the setting leave the deal to the
Record button, and a deal another phone recorded meanwhile is never recorded by itself."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from ledger import services
from ledger.engine import settle
from ledger.models import Club, Player, Session
from tests.browser.a11y import axe_violations
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.scorer_driver import Scorer, bidder_dropped
from tests.browser.test_scorer import THREE, raw_hands, sheet_with
from tests.ledger_fixtures import open_session

pytestmark = BROWSER

SEVEN = THREE[0]  # Cleo's seven in hearts, made with 8: tricks [2, 1, 8, 2]
COUNTDOWN_S = 1  # the count-down of the tests that only wait it out (the page's default is 3 s)


@pytest.fixture(autouse=True)
def quick_countdown(request: Any, settings: Any) -> None:
    if "default_countdown" not in request.keywords:
        settings.SCORER_AUTO_RECORD_SECONDS = COUNTDOWN_S


@pytest.fixture
def table(admin: Any, club: Club, players: list[Player], scorer: Any) -> Session:
    """An open American session (defaults: decimal tables, ante 5)."""
    return open_session(admin, club, players)


def scorer_on(new_page: Any, session: Session) -> Scorer:
    page = new_page({"width": 390, "height": 844}, touch=True, auto_record=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    return Scorer(page, touch=True).open(session)


def not_recorded_after_the_countdown(thumb: Scorer, hands: int, by_this_phone: int | None = None) -> None:
    time.sleep(django_settings.SCORER_AUTO_RECORD_SECONDS + 1)
    expect(thumb.page.locator("#scorer")).to_have_attribute("data-hands", str(hands))
    assert thumb.entered() == (hands if by_this_phone is None else by_this_phone)


@pytest.mark.default_countdown
def test_a_complete_deal_shows_its_payments_then_records_itself(new_page: Any, scorer: Any, table: Session) -> None:
    thumb = scorer_on(new_page, table)
    page = thumb.page
    thumb.enter(SEVEN)
    expected = settle(sheet_with(table, [SEVEN]))["hands"][-1]
    assert thumb.preview_deltas(SEVEN) == expected["deltas"]
    expect(page.locator("#scorer")).to_have_attribute("data-auto-record", "counting")
    expect(page.locator("#auto-text")).to_have_text("Deal 1 records itself in 3 seconds unless you change it.")
    expect(page.locator("label.auto-toggle")).to_have_text(
        "Record each deal by itself, 3 seconds after its payments are shown (on this phone)"
    )
    expect(page.locator("#hold")).to_be_visible()
    screenshot(page, "scorer-counting-down")
    assert raw_hands(table) == []  # not yet: the scorer has the count-down to look
    thumb.wait_recorded(1)
    assert thumb.taps == 6 and raw_hands(table) == [SEVEN]
    expect(page.locator("#auto-line")).to_be_hidden()
    assert page.errors == []


@pytest.mark.default_countdown  # the test taps during the count-down: the page's 3 s
def test_a_change_during_the_countdown_starts_it_again_with_the_corrected_deal(
    new_page: Any, scorer: Any, table: Session
) -> None:
    thumb = scorer_on(new_page, table)
    page = thumb.page
    thumb.enter(SEVEN)
    thumb.wait_preview(SEVEN)
    # Dan took 1, not 2 (Ben, the last seat, then has 2): the scorer taps Dan's count again in time.
    thumb.tap('.pad-seat[data-seat="3"]')
    expect(page.locator("#scorer")).not_to_have_attribute("data-auto-record", "counting")
    not_recorded_after_the_countdown(thumb, 0)  # the deal waits for the count
    thumb.tap('#pad-keys button[data-count="1"]')
    corrected = {**SEVEN, "tricks": [2, 2, 8, 1]}
    thumb.wait_preview(corrected)
    thumb.wait_recorded(1)
    assert raw_hands(table) == [corrected]


@pytest.mark.default_countdown  # the test taps during the count-down: the page's 3 s
def test_wait_leaves_the_deal_to_the_record_button(new_page: Any, scorer: Any, table: Session) -> None:
    thumb = scorer_on(new_page, table)
    page = thumb.page
    thumb.enter(SEVEN)
    thumb.wait_preview(SEVEN)
    thumb.tap("#hold")
    expect(page.locator("#auto-text")).to_have_text("Deal 1 waits for you: tap Record when it is right.")
    not_recorded_after_the_countdown(thumb, 0)
    assert axe_violations(page) == []
    thumb.record()
    thumb.wait_recorded(1)
    assert raw_hands(table) == [SEVEN]
    # The next deal counts down again: Wait was for that deal only.
    thumb.enter(THREE[1])
    thumb.wait_recorded(2)


@pytest.mark.default_countdown  # the test taps during the count-down: the page's 3 s
def test_opening_more_stops_the_countdown(new_page: Any, scorer: Any, table: Session) -> None:
    thumb = scorer_on(new_page, table)
    page = thumb.page
    thumb.enter(SEVEN)
    thumb.wait_preview(SEVEN)
    thumb.tap("#more-summary")  # a revoke to add, say
    expect(page.locator("#scorer")).not_to_have_attribute("data-auto-record", "counting")
    not_recorded_after_the_countdown(thumb, 0)
    thumb.tap("#more-summary")  # closed again: the deal counts down
    thumb.wait_recorded(1)


def test_the_setting_turns_it_off_on_this_phone(new_page: Any, scorer: Any, table: Session) -> None:
    thumb = scorer_on(new_page, table)
    page = thumb.page
    toggle = page.locator("#f-auto")
    expect(toggle).to_be_checked()  # the default
    page.locator("label.auto-toggle").tap()
    expect(toggle).not_to_be_checked()
    thumb.open(table)  # reopened: the phone remembers
    expect(page.locator("#f-auto")).not_to_be_checked()
    thumb.enter(SEVEN)
    thumb.wait_preview(SEVEN)
    not_recorded_after_the_countdown(thumb, 0)
    thumb.record()
    thumb.wait_recorded(1)


def test_offline_a_complete_deal_waits_on_the_phone_by_itself(new_page: Any, scorer: Any, table: Session) -> None:
    thumb = scorer_on(new_page, table)
    page = thumb.page
    page.context.set_offline(True)
    thumb.enter(SEVEN)
    expect(page.locator("#preview")).to_contain_text("No preview offline")
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "1", timeout=(COUNTDOWN_S + 5) * 1000)
    assert raw_hands(table) == []
    page.context.set_offline(False)
    expect(page.locator("#scorer")).to_have_attribute("data-hands", "1", timeout=15_000)
    assert raw_hands(table) == [SEVEN]


def test_a_deal_another_phone_recorded_meanwhile_is_not_recorded_by_itself(
    new_page: Any, scorer: Any, admin: Any, table: Session
) -> None:
    thumb = scorer_on(new_page, table)
    page = thumb.page
    thumb.choose("bidder", SEVEN["bidder"])  # the scorer begins deal 1 ...
    services.hand_record(actor=admin, session_id=table.pk, hand=THREE[1])  # ... another phone records it
    expect(page.locator("#deal-title")).to_have_text("Deal 2", timeout=20_000)  # the page's poll
    thumb.enter(SEVEN)
    thumb.wait_preview(SEVEN)
    expect(page.locator("#auto-text")).to_have_text(
        "Another phone recorded deal 1 while you entered this one: check it is not the same deal before you"
        " record yours as deal 2."
    )
    not_recorded_after_the_countdown(thumb, 1, by_this_phone=0)
    thumb.record()  # checked: a different deal, recorded as deal 2
    thumb.wait_recorded(2)
    assert raw_hands(table) == [THREE[1], SEVEN]


def test_a_deal_the_server_refused_does_not_record_itself_again(new_page: Any, scorer: Any, table: Session) -> None:
    thumb = scorer_on(new_page, table)
    page = thumb.page
    posts: list[dict[str, Any]] = []
    page.route("**/api/v1/sessions/*/hands/", bidder_dropped(posts))
    thumb.enter(SEVEN)
    expect(page.locator("#err-bidder")).not_to_be_empty(timeout=(COUNTDOWN_S + 5) * 1000)
    expect(page.locator("#auto-text")).to_have_text("Deal 1 waits for you: tap Record when it is right.")
    not_recorded_after_the_countdown(thumb, 0, by_this_phone=1)
    assert len(posts) == 1  # sent once, by itself; refused, it waits for the scorer
    page.unroute("**/api/v1/sessions/*/hands/")
    thumb.record()
    thumb.wait_recorded(1)
    assert raw_hands(table) == [SEVEN]
