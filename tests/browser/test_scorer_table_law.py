"""The table law on the scorer page (issue 42, rules.md §0.11), on a 390 px phone: a misdeal is one bid,
recorded with no fields; the deal passes on at once and the game's deal number stays where it was."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from ledger.models import Club, Hand, Player, Session
from tests.browser.conftest import BROWSER, login
from tests.browser.scorer_driver import Scorer
from tests.ledger_fixtures import fresh, open_session

pytestmark = BROWSER

PHONE_390 = {"width": 390, "height": 844}
SEVEN = {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 1, 8, 2]}
SIX = {"bid": "six", "bidder": 1, "trump": "clubs", "tricks": [3, 5, 3, 2]}


def test_a_misdeal_passes_the_deal_and_is_not_a_deal_of_the_game(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """American (misdeal_penalty 10): Ann deals 1, Ben misdeals (10 into the pool, no adjustment), Cleo deals
    the game's deal 2, recorded as the sheet's hand 3."""
    session: Session = open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})
    page = new_page(viewport=PHONE_390, touch=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    s = Scorer(page, touch=True).open(session)
    s.enter(SEVEN)
    s.record()
    s.wait_recorded(1)
    expect(page.locator("#deal-title")).to_have_text("Deal 2")
    expect(page.locator("#deal-dealer")).to_have_text("· dealer Ben")
    expect(page.locator("#deal-game")).to_be_hidden()

    before = s.taps
    s.enter({"bid": "misdeal"})
    expect(page.locator("#record")).to_be_enabled()  # no field wanted
    s.record()
    s.wait_recorded(2)
    misdeal_taps = s.taps - before
    expect(page.locator("#confirmation")).to_contain_text("Deal 2 recorded: misdeal")
    # At once: the deal passed to Cleo; the sheet's hand 3 is the game's deal 2.
    expect(page.locator("#deal-title")).to_have_text("Deal 3")
    expect(page.locator("#deal-dealer")).to_have_text("· dealer Cleo")
    expect(page.locator("#deal-game")).to_have_text("deal 2 of the game")

    s.enter(SIX)
    s.record()
    s.wait_recorded(3)
    expect(page.locator("#deal-title")).to_have_text("Deal 4")
    expect(page.locator("#deal-dealer")).to_have_text("· dealer Dan")
    expect(page.locator("#deal-game")).to_have_text("deal 3 of the game")

    misdeal = Hand.objects.get(session=session, number=2)
    assert misdeal.raw == {"bid": "misdeal"}  # no fields, no adjustment
    assert misdeal.settled["dealer"] == 1
    assert [(t["from"], t["to"], t["counters"]) for t in misdeal.settled["transfers"]] == [(1, "pool", 10)]
    assert misdeal.settled["deltas"] == [0, -10, 0, 0] and misdeal.settled["pool_delta"] == 10
    assert fresh(session).next_deal == {"number": 4, "dealer": 3, "double": False, "deal": 3}  # next_legal says it
    page.goto(f"/sessions/{session.pk}/settlement/")
    expect(page.locator("body")).not_to_contain_text("adjustment")
    assert not page.errors
    print(f"taps to record a misdeal: {misdeal_taps}")
    assert misdeal_taps == 2, misdeal_taps  # the bid, Record


def test_an_american_revoke_is_a_seat_under_more(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """000:115 "the same as at Boston": a seven by Ben, 6 tricks, Ben revoked; the revoke is recorded from
    the form (a seat under "More"), priced by the engine, no adjustment."""
    session: Session = open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})
    page = new_page(viewport=PHONE_390, touch=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    s = Scorer(page, touch=True).open(session)
    hand = {"bid": "seven", "bidder": 1, "trump": "hearts", "tricks": [3, 6, 2, 2], "revoke": 1}
    s.enter(hand)  # the driver opens "More" for the revoke (one tap) and taps its seat (one)
    expect(page.locator("#more-fields")).to_have_attribute("open", "")
    s.record()
    s.wait_recorded(1)
    recorded = Hand.objects.get(session=session, number=1)
    assert recorded.raw == hand  # from the form, no adjustment
    assert recorded.settled["deltas"] == [15, -65, 20, 20]  # A-T4 seven 1 short, pools doubled by Ben
    revoked_taps = s.taps
    s.enter({k: v for k, v in hand.items() if k != "revoke"})  # the same seven without a revoke, deal 2
    s.record()
    s.wait_recorded(2)
    plain_taps = s.taps - revoked_taps
    assert not page.errors
    print(f"taps to record the revoked seven: {revoked_taps}, the same without a revoke: {plain_taps}")
    assert revoked_taps - plain_taps == 2, (revoked_taps, plain_taps)  # More, then the seat
