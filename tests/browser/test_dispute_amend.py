"""The treasurer's "Amend deal N" under a dispute (the settlement page) once opened the scorer page at
its deal list, where he had to find deal N and tap its Amend; now one tap lands on that very deal's
amend, its count pad on the screen, at 360 and 390 px."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Club, Player
from ledger.services.hands import hand_record
from ledger.services.table import deal_check, seat_link_issue
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.test_presets import Taps
from tests.browser.test_scorer import THREE
from tests.ledger_fixtures import open_session

pytestmark = BROWSER


@pytest.mark.parametrize("width", [360, 390])
def test_one_tap_from_a_dispute_to_that_deals_amend(
    new_page: Any, treasurer: Any, admin: Any, club: Club, players: list[Player], width: int
) -> None:
    session = open_session(admin, club, players)
    for hand in THREE:
        hand_record(actor=admin, session_id=session.pk, hand=hand)
    _, link = seat_link_issue(actor=admin, session_id=session.pk, seat=1)
    deal_check(session_id=session.pk, number=2, state="disputed", reason="I took five", link=link)
    page = new_page({"width": width, "height": 640 if width == 360 else 844}, touch=True)
    login(page, "treasurer", f"/sessions/{session.pk}/settlement/")
    taps = Taps(page)
    taps.tap("#amend-2-1")
    expect(page.locator("#deal-title")).to_have_text("Amending deal 2")
    assert page.evaluate("location.pathname + location.hash") == f"/sessions/{session.pk}/score/"  # read, dropped
    expect(page.locator('.pad-seat[data-seat="0"]')).to_be_in_viewport()
    assert taps.count == 1
    screenshot(page, f"{width}-dispute-amend", full_page=False)
    assert page.errors == []
