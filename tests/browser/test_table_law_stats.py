"""The player page says a player's table-law events (issue 42): revokes, misdeals as dealer and
payments instead of playing, each a count and its share of the deals, per variant."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from ledger.models import Club, Player
from ledger.services.sessions import session_import
from ledger.stats.services import stats_session_refresh
from tests.browser.conftest import BROWSER, login
from tests.ledger_fixtures import example_sheet

pytestmark = BROWSER


def test_the_player_page_counts_revokes(new_page: Any, scorer: Any, admin: Any, club: Club) -> None:
    session = session_import(actor=admin, club_id=club.pk, sheet=example_sheet("french-revokes"))
    stats_session_refresh(session_id=session.pk)
    adele = Player.objects.get(club=club, name="Adèle")  # revoked once in 5 deals
    page = new_page()
    login(page, "scorer", f"/players/{adele.pk}/")
    page.locator("#stats-details summary").click()
    expect(page.locator('li[data-figure="revokes"]')).to_contain_text("1 (20% of the deals)")
    expect(page.locator('li[data-figure="misdeals"]')).to_contain_text("0 (0% of the deals)")
    expect(page.locator('li[data-figure="concessions"]')).to_contain_text("paid instead of playing")
    assert page.errors == []
