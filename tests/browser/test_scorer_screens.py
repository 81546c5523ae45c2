"""Screenshots at 390x844 (touch) of each variant's conflict and amend (issue 24's "Done when"; a deal
being entered and its confirmation are taken by test_evening's first deal of each variant, an amend
opened from the confirmation by test_scorer_mishaps), written to test-artifacts/screenshots/. Each also
checks what it shows: both sides of the conflict with what every player pays, as the server settles
them, and the amend's before/after preview."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.engine import settle
from ledger.models import Club, Player
from ledger.services.hands import hand_record
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.scorer_driver import Scorer
from tests.browser.test_evening import EVENINGS
from tests.browser.test_scorer import raw_hands, sheet_with
from tests.ledger_fixtures import open_session

pytestmark = BROWSER

# The other phone's deal 1, a valid deal 1 that differs from the scorer's (the evening's first deal).
THEIRS = {"american": 1, "french": 2, "russian": 2, "fontainebleau": 1}


@pytest.mark.parametrize("variant", sorted(EVENINGS))
def test_a_conflict_and_an_amend_as_the_scorer_sees_them(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player], variant: str
) -> None:
    session = open_session(admin, club, players, variant=variant)
    page = new_page({"width": 390, "height": 844}, touch=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    thumb = Scorer(page, touch=True).open(session)
    mine = EVENINGS[variant][0][1]
    theirs = EVENINGS[variant][THEIRS[variant]][1]
    thumb.enter(mine)
    thumb.wait_preview(mine)
    hand_record(actor=admin, session_id=session.pk, hand=theirs)
    thumb.record()
    conflict = page.locator("#conflict")
    expect(conflict).to_contain_text("another phone recorded deal 1 first, and it differs")
    for side, hand in ((".theirs", theirs), (".mine", mine)):
        deltas = settle(sheet_with(session, [hand]))["hands"][0]["deltas"]
        paid = conflict.locator(f"{side} .deltas .num")
        expect(paid).to_have_count(4)
        assert [int(n) for n in paid.evaluate_all("els => els.map(e => e.dataset.n)")] == deltas, side
    if variant in ("french", "russian"):  # deal 1 has no belle yet: the other phone's turned suit is not it
        expect(page.locator("#deal-belle")).to_contain_text("the suit turned on deal 1")
    conflict.scroll_into_view_if_needed()
    screenshot(page, f"390-scorer-{variant}-conflict", full_page=False)
    thumb.tap("#conflict button.primary")  # keep theirs
    expect(conflict).to_be_hidden()
    assert raw_hands(session) == [theirs]

    # Amend deal 1 from the deal list: one screen, the same pad, the preview before and after.
    page.locator("#deals summary").tap()
    page.locator('#deal-list button[data-amend="1"]').tap()
    expect(page.locator("#deal-title")).to_have_text("Amending deal 1")
    seat = page.locator(".pad-seat").first  # the bidder takes one trick more: the pad's last seat gives it up
    seat.tap()
    was = int(seat.locator("output").inner_text())
    page.locator(f'#pad-keys button[data-count="{was + 1}"]').tap()
    expect(page.locator("#preview .change-table tr.changed").first).to_be_visible()
    page.evaluate("window.scrollTo({ top: 0, behavior: 'instant' })")
    screenshot(page, f"390-scorer-{variant}-amend-preview", full_page=False)
    screenshot(page, f"390-scorer-{variant}-amend-preview-whole")
    assert page.errors == []
