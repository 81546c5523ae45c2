"""The new-session page: house rules in words, a refused form's errors at the top and focused, and a
warning when the same four already sit at another open table."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from ledger.models import Club, Player
from tests.browser.conftest import BROWSER, login, screenshot
from tests.ledger_fixtures import open_session

pytestmark = BROWSER


def test_new_session_words_errors_and_the_same_table(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    other = open_session(admin, club, players)
    page = new_page({"width": 390, "height": 844})
    login(page, "scorer", f"/clubs/{club.pk}/sessions/new/")
    expect(page.locator('label[for="rule-american-pool_limit"]')).to_have_text("Pool limit")  # words, not pool_limit
    expect(page.locator("label.check").filter(has=page.locator("#rule-american-last_trick_hand"))).to_contain_text(
        "Last-trick hand"
    )
    for seat, player in enumerate(players[:4]):
        page.select_option(f"#seat-{seat}", str(player.pk))
    expect(page.locator("#same-table")).to_contain_text(f"already sit at another open table (session #{other.pk})")
    page.fill("#stake_currency", "USD")  # a currency without an amount: refused
    page.click("text=Open the session")
    errors = page.locator("#form-errors")
    expect(errors).to_be_visible()
    expect(errors).to_be_focused()
    assert page.evaluate("document.getElementById('form-errors').getBoundingClientRect().top") < 844
    screenshot(page, "390-session-new-refused")
