"""The club's past in a real browser (issue 26), at 390 px and 1280 px: the club page's list of past
sessions paged and filtered to an imported evening; a leaderboard of a past year, its rating said as
the player's page says it; the error pages in the three languages with DEBUG on, as `bin/serve` runs."""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Club, Session
from ledger.services.sessions import session_import
from tests.api.test_import_history import SHEET
from tests.browser.conftest import BROWSER, api_get, login, screenshot
from tests.ledger_fixtures import example_sheet

pytestmark = BROWSER

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}
SIZES = [pytest.param(PHONE, id="390px"), pytest.param(WIDE, id="1280px")]

AMERICAN = SHEET  # a two-deal American evening, closed (the import tests' sheet)


def club_past(admin: Any, club: Club) -> Session:
    """23 American evenings of 2024, one a week, and a Russian partie of 9 May 2025: imported, dated."""
    first = dt.date(2024, 1, 7)
    for i in range(23):
        sheet = copy.deepcopy(AMERICAN)
        sheet["first_dealer"] = i % 4
        day = (first + dt.timedelta(weeks=i)).isoformat()
        session_import(actor=admin, club_id=club.pk, sheet=sheet, closed_at=day)
    russian = example_sheet("russian-partie-defaults")
    return session_import(actor=admin, club_id=club.pk, sheet=russian, closed_at="2025-05-09")


def width_fits(page: Any, viewport: dict[str, int]) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]


@pytest.mark.parametrize("viewport", SIZES)
def test_the_club_page_finds_an_imported_evening(
    new_page: Any, treasurer: Any, admin: Any, club: Club, viewport: dict[str, int]
) -> None:
    evening = club_past(admin, club)
    page = new_page(viewport)
    login(page, "treasurer", f"/clubs/{club.pk}/")
    past = page.locator("#past")
    expect(past.locator("#past-count")).to_have_text("24 closed sessions")
    expect(past.locator("#past-list > li")).to_have_count(20)
    expect(past.locator("#past-page")).to_have_text("Page 1 of 2")
    past.get_by_role("link", name="Older").click()
    expect(past.locator("#past-page")).to_have_text("Page 2 of 2")
    expect(past.locator("#past-list > li")).to_have_count(4)
    expect(past.locator("#past-list > li").last).to_contain_text("7 Jan 2024")  # the first evening, played then
    page.fill("#past-from", "2025-05-01")
    page.fill("#past-to", "2025-05-31")
    page.select_option("#past-variant", "russian")
    page.get_by_role("button", name="Show").click()
    expect(past.locator("#past-count")).to_have_text("1 closed session")
    line = past.locator("#past-list > li")
    expect(line).to_have_count(1)
    expect(line).to_contain_text("9 May 2025")
    expect(line).to_contain_text("Анна")
    expect(page.locator("#past-variant")).to_have_value("russian")  # the filters stay as chosen
    screenshot(page, f"club-past-filtered-{viewport['width']}")
    width_fits(page, viewport)
    line.get_by_role("link", name="settlement").click()
    page.wait_for_url(f"**/sessions/{evening.pk}/settlement/")
    assert page.errors == []


def test_a_filter_that_does_not_read_is_said_beside_it(new_page: Any, treasurer: Any, admin: Any, club: Club) -> None:
    club_past(admin, club)
    page = new_page(PHONE)
    login(page, "treasurer", f"/clubs/{club.pk}/")
    page.fill("#past-from", "2025-05-10")
    page.fill("#past-to", "2025-05-09")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#past-to-errors")).to_have_text("The last day comes before the first day.")
    expect(page.locator("#past-to")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#past-to")).to_have_value("2025-05-09")  # what was typed is kept
    expect(page.locator("#past-to-errors")).to_be_in_viewport()  # the page opens at the list (#past)
    screenshot(page, "club-past-refused-390")


@pytest.mark.parametrize("viewport", SIZES)
def test_a_leaderboard_of_a_past_year_says_the_rating_as_the_player_page_does(
    new_page: Any, treasurer: Any, admin: Any, club: Club, viewport: dict[str, int]
) -> None:
    club_past(admin, club)
    page = new_page(viewport)
    login(page, "treasurer", f"/clubs/{club.pk}/")
    board = page.locator("#leaderboard")
    board.locator("label", has_text="A past year").click()
    expect(page.locator("#board-year")).to_be_visible()
    expect(page.locator("#board-month")).to_be_hidden()
    page.select_option("#board-year", "2024")
    expect(board).to_have_attribute("data-shown", "period=year&by=rating&year=2024")
    rows = api_get(page, f"/api/v1/clubs/{club.pk}/leaderboard/?period=year&year=2024&by=rating")["rows"]
    assert [r["player"]["name"] for r in rows] and {r["player"]["name"] for r in rows} <= {"Ann", "Ben", "Cleo", "Dan"}
    lines = board.locator("#board-table tbody tr")
    expect(lines).to_have_count(len(rows))
    expect(board.locator("#board-relation")).to_contain_text("less three times its give-or-take")
    top = rows[0]
    words = f"about {round(top['mu'])}, give or take {max(1, round(top['sigma']))}"
    figure = f"cautious figure {top['value']:.1f}".replace("-", "−")
    expect(lines.first).to_contain_text(f"{words} · {figure}")
    screenshot(page, f"leaderboard-2024-{viewport['width']}")
    width_fits(page, viewport)

    board.locator("label", has_text="Money").click()
    expect(board).to_have_attribute("data-shown", "period=year&by=money&year=2024&currency=EUR")
    money = api_get(page, f"/api/v1/clubs/{club.pk}/leaderboard/?year=2024&by=money")["rows"]
    expect(lines).to_have_count(len(money))
    board.locator("label", has_text="A past month").click()
    page.select_option("#board-month", "2024-03")
    expect(board).to_have_attribute("data-shown", "period=month&by=money&month=2024-03&currency=EUR")

    page.goto(f"/players/{top['player']['id']}/")  # the same rating, said the same way
    expect(page.locator("#rating-words")).to_have_text(f"{words} · {figure}")
    expect(page.locator("#rating-relation")).to_have_text(board_relation(page))
    assert page.errors == []


def board_relation(page: Any) -> str:
    return str(page.evaluate("CS.ratingRelation"))


ERROR_WORDS = {
    "en": ("Not found", "Back to your clubs"),
    "fr": ("Introuvable", "Retour à vos clubs"),
    "ru": ("Не найдено", "К вашим клубам"),
}


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_error_pages_under_debug_as_bin_serve_runs(
    new_page: Any, live_server: Any, settings: Any, scorer: Any, club: Club, language: str
) -> None:
    settings.DEBUG = True  # bin/serve's development settings
    page = new_page(PHONE)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    login(page, "scorer", f"/clubs/{club.pk}/")
    title, back = ERROR_WORDS[language]
    for address in ("/no/such/page/", "/sessions/999999/", f"/clubs/{club.pk}/books/"):
        response = page.goto(address)
        assert response is not None and response.status in (403, 404)
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("h1")).to_have_count(1)
        if response.status == 404:
            expect(page.locator("h1")).to_have_text(title)
        expect(page.locator("main")).to_contain_text(back)
        expect(page.locator("header.top .brand")).to_be_visible()  # the site's layout
        content = page.content()
        assert "URLconf" not in content and "Traceback" not in content and "DEBUG" not in content
    page.goto("/no/such/page/")
    screenshot(page, f"error-404-{language}-390")
