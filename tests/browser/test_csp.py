"""Issue 29, point 9: every kind of page loads under the strict Content-Security-Policy (no inline script,
handler or style, no eval) with zero violations, and its buttons still work; issue 24: the score sheet at
360x640 and 390x844 shows the seats' columns and its totals with no sideways swipe, its caption whole.

A violation is caught twice: the page's own `securitypolicyviolation` events (listened to before any of
the page's scripts runs) and the browser's console errors, which name the Content Security Policy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Club, MoneyTransaction, Player, Role, Session
from ledger.services.clubs import player_create
from ledger.services.sessions import session_close, session_import
from ledger.services.table import board_link_issue
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.scorer_driver import Scorer
from tests.browser.test_books import evening
from tests.browser.test_scorer import THREE
from tests.ledger_fixtures import example_sheet, fresh, member, open_session, record_all

pytestmark = BROWSER

LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + e.sourceFile + ':' + e.lineNumber);
});
window.__printed = 0;
window.print = function () { window.__printed += 1; };
"""


def watched(new_page: Any, viewport: dict[str, int] | None = None) -> Any:
    """A page that records every CSP violation, from its events and from the console."""
    page = new_page(viewport)
    page.add_init_script(LISTEN)
    page.console_csp = []
    page.on(
        "console",
        lambda m: page.console_csp.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return page


def violations(page: Any) -> list[str]:
    return [*page.evaluate("() => window.__csp || []"), *page.console_csp]


def clean(page: Any) -> None:
    """The page (as it is now) broke no rule of the policy, and no script of it failed."""
    page.wait_for_load_state("networkidle")
    assert violations(page) == []
    assert page.errors == []


@pytest.fixture
def table(admin: Any, club: Club, players: list[Player], scorer: Any) -> Session:
    return open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})


def three_deals(admin: Any, club: Club, players: list[Player]) -> Session:
    session = open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})
    record_all(admin, session, THREE)
    return session


def test_the_scorer_records_a_deal(new_page: Any, scorer: Any, table: Session) -> None:
    page = watched(new_page)
    login(page, "scorer", f"/sessions/{table.pk}/score/")
    thumb = Scorer(page).open(table)
    thumb.enter(THREE[0])
    thumb.record()
    thumb.wait_recorded(1)
    clean(page)


def test_the_sheet_and_the_settlement_print(
    new_page: Any, treasurer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = three_deals(admin, club, players)
    page = watched(new_page)
    login(page, "treasurer", f"/sessions/{session.pk}/sheet/")
    expect(page.locator("tbody tr[data-deal]")).to_have_count(3)
    clean(page)
    page.goto(f"/sessions/{session.pk}/settlement/")
    page.click("button[data-print]")
    assert page.evaluate("() => window.__printed") == 1  # the Print button, without its old onclick
    page.check('input[name="confirm"]')
    page.click("text=Close and settle")
    expect(page.locator("#payments")).to_be_visible()
    clean(page)


def test_the_books_record_a_payment(
    new_page: Any, treasurer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    evening(admin, club, players, "EUR")
    page = watched(new_page)
    login(page, "treasurer", f"/clubs/{club.pk}/books/")
    page.locator("#book-EUR .transfers-list li button.use-transfer").first.click()
    page.click("text=Record the payment")
    expect(page.locator(".messages")).to_contain_text("Recorded: ")
    assert MoneyTransaction.objects.filter(kind="paid").count() == 1
    clean(page)


def test_the_club_page_and_the_player_page_with_its_charts(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = three_deals(admin, club, players)
    session_close(actor=admin, session_id=session.pk, pools="divide", expected_version=fresh(session).version)
    page = watched(new_page)
    login(page, "scorer", f"/clubs/{club.pk}/")
    page.locator("#leaderboard label", has_text="Money").click()
    expect(page.locator("#leaderboard")).to_have_attribute("data-shown", "period=all&by=money&currency=USD")
    clean(page)
    page.goto(f"/players/{players[2].pk}/")
    expect(page.locator("#counters-chart")).to_be_visible()
    page.wait_for_function("() => window.Chart && Chart.getChart(document.getElementById('counters-chart'))")
    clean(page)


def test_the_import_page_reads_a_file(new_page: Any, treasurer: Any, club: Club, tmp_path: Path) -> None:
    sheet = example_sheet("american-evening-defaults")
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(sheet))
    page = watched(new_page)
    login(page, "treasurer", f"/clubs/{club.pk}/import/")
    page.set_input_files("#sheet-files", [str(path)])
    expect(page.locator(".sheet-card:not(.is-error)")).to_have_count(1)
    clean(page)


def test_following_a_table_and_the_board(new_page: Any, admin: Any, club: Club) -> None:
    ann = member(club, admin, "ann", Role.PLAYER)
    seated = [
        player_create(actor=admin, club_id=club.pk, name="Ann", user=ann),
        *(player_create(actor=admin, club_id=club.pk, name=n) for n in ("Ben", "Cleo", "Dan")),
    ]
    session = open_session(admin, club, seated)
    record_all(admin, session, THREE[:1])
    page = watched(new_page)
    login(page, "ann", f"/sessions/{session.pk}/follow/")
    page.click("#deal-1 [data-action=dispute]")
    expect(page.locator("#why-text-1")).to_be_visible()
    clean(page)
    page.goto(f"/sessions/{session.pk}/join/")
    expect(page.locator("figure.qr svg")).to_be_visible()
    clean(page)
    page.goto(f"/clubs/{club.pk}/board/")
    expect(page.locator(".board-table")).to_have_count(1)
    clean(page)
    key, _ = board_link_issue(actor=admin, club_id=club.pk, label="wall")
    page.goto(f"/b/{key}/")
    expect(page.locator(".board-table")).to_have_count(1)
    clean(page)


def test_the_api_docs_page_works_offline_under_its_policy(new_page: Any, db: None) -> None:
    page = watched(new_page, {"width": 1280, "height": 800})
    page.goto("/api/docs/")
    operations = page.locator(".opblock")
    expect(operations.first).to_be_visible()
    operations.first.locator(".opblock-summary").first.click()
    expect(page.locator(".opblock.is-open")).to_have_count(1)
    clean(page)


# --- the score sheet on a phone (issue 24) -------------------------------------------------------------


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, {"width": 390, "height": 844}])
def test_the_sheet_shows_every_seat_and_the_totals_without_a_sideways_swipe(
    new_page: Any, scorer: Any, admin: Any, club: Club, viewport: dict[str, int]
) -> None:
    """A Fontainebleau evening of twelve deals (piccolissimo, boston...), its seats with longer names."""
    sheet = example_sheet("fontainebleau-evening-defaults")
    sheet["players"] = ["Annabelle", "Bastien", "Cleopatra", "Dmitri"]
    session = session_import(actor=admin, club_id=club.pk, sheet=sheet)
    page = watched(new_page, viewport)
    login(page, "scorer", f"/sessions/{session.pk}/sheet/")
    expect(page.locator("tbody tr[data-deal]")).to_have_count(len(sheet["hands"]))
    width = viewport["width"]
    boxes = page.evaluate(
        """() => {
            const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; };
            const wrap = document.getElementById('sheet-table'), frame = wrap.getBoundingClientRect();
            const all = s => Array.from(document.querySelectorAll('#sheet-table ' + s)).map(box);
            const caption = document.querySelector('#sheet-table caption');
            return {
              seats: all('thead th.seat'), cells: all('tbody td[data-seat]'), totals: all('tfoot td[data-total-seat]'),
              deal: all('th.deal'), caption: [box(caption)], captionWhole: caption.scrollWidth <= caption.clientWidth,
              scrollLeft: wrap.scrollLeft, shown: [frame.left, frame.left + wrap.clientWidth],
            };
        }"""
    )
    assert boxes["scrollLeft"] == 0
    assert len(boxes["seats"]) == len(boxes["totals"]) == 4
    assert len(boxes["cells"]) == 4 * len(sheet["hands"])
    shown_left, shown_right = boxes["shown"]  # what the sheet's frame shows without a swipe, in the viewport
    assert shown_left >= 0 and shown_right <= width
    for kind in ("seats", "cells", "totals", "deal", "caption"):
        for left, right in boxes[kind]:
            assert left >= shown_left and right <= shown_right + 0.5, (kind, left, right, boxes["shown"])
    assert boxes["captionWhole"]
    screenshot(page, f"{width}-sheet", full_page=False)
    page.locator("#sheet-table").evaluate("e => e.scrollLeft = 1000")  # to the details: the deal stays put
    deal = page.locator("tbody tr[data-deal='10'] th.deal").bounding_box()
    assert deal is not None and deal["x"] >= 0 and deal["x"] + deal["width"] <= width
    expect(page.locator("tbody tr[data-deal='10'] th.deal")).to_contain_text("piccolissimo")
    clean(page)
