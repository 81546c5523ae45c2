"""Every page at 390 px: no serious or critical axe-core violation, and a screenshot of each to
test-artifacts/screenshots/ (the scorer also while a deal is entered)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.engine.variants import get_variant, variant_names
from ledger.models import Club, Player, Session
from ledger.services.presets import preset_create
from ledger.services.sessions import session_close
from tests.browser.a11y import axe_violations
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.scorer_driver import Scorer
from tests.browser.test_scorer import THREE
from tests.ledger_fixtures import fresh, open_session, record_all

pytestmark = BROWSER

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def evening(admin: Any, club: Club, players: list[Player], scorer: Any, treasurer: Any) -> dict[str, Session]:
    """An open session with three deals and a closed one, with a stake."""
    stake = {"currency": "USD", "per_counter": "0.01"}
    closed = open_session(admin, club, players, stake=stake)
    record_all(admin, closed, THREE)
    session_close(actor=admin, session_id=closed.pk, pools="divide", expected_version=fresh(closed).version)
    live = open_session(admin, club, players, stake=stake)
    record_all(admin, live, THREE[:2])
    return {"open": live, "closed": closed}


def check(page: Any, name: str) -> None:
    screenshot(page, f"390-{name}")
    assert axe_violations(page) == [], name


def test_every_page_at_390_px_has_no_serious_violation(
    new_page: Any, evening: dict[str, Session], club: Club, players: list[Player]
) -> None:
    live, closed = evening["open"], evening["closed"]
    admin = closed.opened_by
    preset = preset_create(actor=admin, club_id=club.pk, name="House", variant="russian", rules={})
    page = new_page(PHONE, touch=True)
    page.goto("/login/")
    check(page, "login")
    login(page, "treasurer", "/")
    pages = {
        "home": "/",
        "club": f"/clubs/{club.pk}/",
        "session-new": f"/clubs/{club.pk}/sessions/new/",
        "sheet": f"/sessions/{live.pk}/sheet/",
        "settlement-open": f"/sessions/{live.pk}/settlement/",
        "settlement": f"/sessions/{closed.pk}/settlement/",
        "player": f"/players/{players[0].pk}/",
        "statement": f"/players/{players[0].pk}/statement/",
        "books": f"/clubs/{club.pk}/books/",
        "import": f"/clubs/{club.pk}/import/",
        "rules": "/rules/",
        **{f"rules-{v}": f"/rules/{v}/" for v in variant_names()},
        # presets and a table's conditions (issue 42)
        "presets": f"/clubs/{club.pk}/presets/",
        "preset-new": f"/clubs/{club.pk}/presets/new/",
        "preset-edit": f"/clubs/{club.pk}/presets/{preset.pk}/",
        "preset-open": f"/clubs/{club.pk}/presets/{preset.pk}/open/",
        "join": f"/sessions/{live.pk}/join/",
        "follow": f"/sessions/{live.pk}/follow/",
        "conditions": f"/sessions/{live.pk}/conditions/",
    }
    for name, url in pages.items():
        response = page.goto(url)
        assert response.status == 200, url
        page.wait_for_load_state("networkidle")
        check(page, name)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name  # nothing wider than the phone

    page.goto(f"/sessions/{live.pk}/score/")
    expect(page.locator("#scorer")).to_have_attribute("data-state", "ready")
    check(page, "scorer")
    thumb = Scorer(page, touch=True)
    thumb.enter(THREE[2])
    thumb.wait_preview(THREE[2])
    check(page, "scorer-entering")
    thumb.record()
    thumb.wait_recorded(3)
    page.click("#deals summary")
    page.locator("#preview .transfers summary, #confirmation").first.wait_for()
    check(page, "scorer-recorded")
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll(
                '#scorer button, #scorer summary, #scorer a, #scorer label.check'))
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim().slice(0, 30), Math.round(e.getBoundingClientRect().height),
                       Math.round(e.getBoundingClientRect().width)])
            .filter(([, h, w]) => h < 44 || w < 44)"""
    )
    assert small == []  # every target at least 44 px (Amend, More, the transfers, the checkbox's label)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.errors == []


@pytest.mark.parametrize("variant", variant_names())
def test_the_scorer_of_each_variant_has_no_serious_violation(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player], variant: str
) -> None:
    session = open_session(admin, club, players, variant=variant)
    page = new_page(PHONE, touch=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    expect(page.locator("#scorer")).to_have_attribute("data-state", "ready")
    widest = max(get_variant(variant).declaration.bids, key=lambda bid: len(bid.fields))  # the most of the form
    page.click(f'[data-group="bid"] button[data-value="{widest.code}"]')
    check(page, f"scorer-{variant}-form")
