"""The new-club form's time zone in a French browser in Tokyo (issue 38, item 20): the choices are in
French, by region, and the browser's own zone is put first and chosen, which only the page's script
knows (the server only knows the page's language, which suggests Paris)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Club
from tests.browser.conftest import BROWSER, PHONE, TIMEOUT_MS, login

pytestmark = BROWSER


@pytest.mark.parametrize(("zone", "words"), [("Asia/Tokyo", "Tokyo (Japon)"), ("Europe/Paris", "Paris (France)")])
def test_the_browser_s_zone_comes_first_in_french(
    browser: Any, live_server: Any, admin: Any, zone: str, words: str
) -> None:
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, locale="fr-FR", timezone_id=zone)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        login(page, "admin", "/clubs/new/")
        select = page.locator("#club-zone")
        expect(select).to_have_value(zone)
        first = page.locator("#club-zone optgroup").first
        expect(first).to_have_attribute("label", "Les plus probables")
        expect(first.locator("option").first).to_have_text(words)
        expect(first.locator("option").first).to_have_attribute("value", zone)
        assert first.locator(f'option[value="{zone}"]').count() == 1  # put first, not twice
        expect(page.locator('#club-zone optgroup[label="Asie"] option[value="Asia/Tokyo"]')).to_have_text(
            "Tokyo (Japon)"
        )
        page.fill("#club-name", "Club du Levant")
        page.click("#club-new button[type=submit]")
        page.wait_for_url("**/clubs/*/")
        assert Club.objects.get(name="Club du Levant").time_zone == zone
        assert errors == []
    finally:
        context.close()
