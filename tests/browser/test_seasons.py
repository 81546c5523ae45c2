"""A season's page in a browser (issue 41): a player's line opens his evenings, the five that count and
the ones dropped, each a link to its session; the rules are printed under the table."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from ledger.models import Club, Player
from ledger.stats import seasons
from tests.browser.a11y import axe_violations
from tests.browser.conftest import BROWSER, login
from tests.stats.seasons_data import EVENINGS, import_all

pytestmark = BROWSER


def test_a_players_line_opens_his_evenings(new_page: Any, scorer: Any, admin: Any, club: Club) -> None:
    evenings = import_all(admin, club, EVENINGS)
    season = seasons.season_create(
        actor=admin,
        club_id=club.pk,
        name="Winter 2026",
        starts_on="2026-01-01",
        ends_on="2026-03-31",
        variants=["american"],
        min_evenings=3,
        best_of=5,
    )
    ann = Player.objects.get(club=club, name="Ann")
    page = new_page()
    login(page, "scorer", f"/clubs/{club.pk}/seasons/{season.pk}/")
    line = page.locator(f"#line-{ann.pk}")
    # Ann: fifth, ten evenings, five counted, 244 (by hand in tests/stats/test_seasons.py).
    expect(line.locator("td").nth(0)).to_have_text("5")
    expect(line.locator(".counting li")).to_have_count(5)
    expect(line.locator(".counting")).not_to_be_visible()
    line.locator("summary").click()
    expect(line.locator(".counting li")).to_have_count(5)
    expect(line.locator(".counting")).to_be_visible()
    expect(line.locator(".dropped li")).to_have_count(5)
    expect(line.locator(".dropped")).to_contain_text("−365")
    expect(line.locator(".counting")).to_contain_text("+181")
    # The dropped evening of January 26 (−365) opens its session.
    january_26 = evenings["2026-01-26"].pk
    line.locator(f'.dropped a[href="/sessions/{january_26}/"]').click()
    page.wait_for_url(f"**/sessions/{january_26}/settlement/")
    page.go_back()
    expect(page.locator("#season-rules")).to_contain_text("best 5 evenings count")
    expect(page.locator(f"#line-{Player.objects.get(club=club, name='Gleb').pk}")).to_have_class("muted not-qualified")
    assert page.errors == []


def test_the_season_pages_on_a_phone(new_page: Any, treasurer: Any, admin: Any, club: Club) -> None:
    """At 390 px: no serious accessibility violation and nothing wider than the phone, the line opened."""
    import_all(admin, club, EVENINGS)
    season = seasons.season_create(
        actor=admin,
        club_id=club.pk,
        name="Winter 2026",
        starts_on="2026-01-01",
        ends_on="2026-03-31",
        variants=["american"],
        min_evenings=3,
        best_of=5,
    )
    page = new_page({"width": 390, "height": 844}, touch=True)
    login(page, "treasurer", f"/clubs/{club.pk}/seasons/")
    for url in (f"/clubs/{club.pk}/seasons/", f"/clubs/{club.pk}/seasons/{season.pk}/", f"/clubs/{club.pk}/"):
        page.goto(url)
        page.wait_for_load_state("networkidle")
        if "seasons/" in url and url.rstrip("/").split("/")[-1].isdigit():
            page.locator("#standings summary").first.click()
        assert axe_violations(page) == [], url
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, url
    assert page.errors == []
