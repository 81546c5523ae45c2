"""A substitute mid-game (issue 37) on the scorer's phone: after deal 2, Ben leaves and a guest, Quinn,
takes his seat. From the scorer page: "Seat a substitute", the seat (its list: 2 taps), the guest's
field, his name typed, "Seat him from the next deal": 5 taps and a name, back on the scorer page with
Quinn's name at seat 2. The deals go on; the treasurer's settlement page shows Ben on deals 1-2 and
Quinn from deal 3, each with his own money."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from ledger.models import Club, Player, SeatChange, Session
from tests.browser.conftest import BROWSER, login, screenshot
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, open_session, record_all
from tests.money.helpers import close

pytestmark = BROWSER


def test_the_scorer_seats_a_guest_mid_game(
    new_page: Any, scorer: Any, treasurer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session: Session = open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})
    record_all(scorer, session, AMERICAN_HANDS[:2])
    page = new_page(touch=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    expect(page.locator("#balances")).to_contain_text("Ben")
    taps = 0
    page.locator("#substitute-link").tap()
    taps += 1
    page.wait_for_url("**/substitute/")
    expect(page.locator("#substitute-hint")).to_contain_text("deal 3")
    page.select_option("#substitute-seat", "1")  # a tap opens the list, a tap picks "Seat 2: Ben leaves"
    taps += 2
    page.locator("#substitute-guest").tap()
    taps += 1
    page.keyboard.type("Quinn")
    screenshot(page, "substitute-form")
    page.locator("#substitute-submit").tap()
    taps += 1
    page.wait_for_url("**/score/")
    assert taps == 5
    expect(page.locator("body")).to_contain_text("Quinn takes seat 2 from deal 3")
    expect(page.locator("#balances")).to_contain_text("Quinn")
    expect(page.locator("#balances")).not_to_contain_text("Ben")
    assert list(SeatChange.objects.values_list("seat", "player__name", "from_hand")) == [(1, "Quinn", 3)]
    screenshot(page, "substitute-seated", full_page=False)

    record_all(scorer, fresh(session), AMERICAN_HANDS[2:])
    closed = close(treasurer, session)
    books = new_page()
    login(books, "treasurer", f"/sessions/{session.pk}/settlement/")
    table = books.locator("#final-table")
    expect(table).to_contain_text("Ben, deals 1–2")
    expect(table).to_contain_text("Quinn, from deal 3")
    stints = closed.closing["stints"]
    assert [s["player"] for s in stints] == ["Ann", "Ben", "Cleo", "Dan", "Quinn"]
    assert sum(s["money"] for s in stints) + closed.closing["pool_money"] == 0
    assert any(4 in (p["from"], p["to"]) for p in closed.closing["payments"])  # Quinn (stint 4) pays or is paid
    expect(books.locator("#payments")).to_contain_text("Quinn")
    screenshot(books, "substitute-settlement")
