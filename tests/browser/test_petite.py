"""The trump row's "in petite" (младшая) choices: a bid in any suit that needs the turned card as well
says both in one tap when the trump is the turned suit; a plain suit still asks which card was turned."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Club, Player, Session
from ledger.services.hands import hand_record
from tests.browser.a11y import axe_violations
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.scorer_driver import Scorer
from tests.browser.test_scorer import raw_hands
from tests.ledger_fixtures import open_session

pytestmark = BROWSER

PHONE = {"width": 390, "height": 844}
# Deal 1 turns hearts: belle (старшая) is hearts for the whole game.
FIRST = {
    "french": {"bid": "pass", "turned": "hearts"},
    "russian": {"bid": "pass", "turned": "hearts"},
}
SOLO = {"french": "independence_six", "russian": "solo"}
PETITE = {"french": "petite", "russian": "младшая"}


@pytest.fixture
def opened(request: Any, admin: Any, club: Club, players: list[Player], scorer: Any) -> Session:
    session = open_session(admin, club, players, variant=request.param)
    hand_record(actor=admin, session_id=session.pk, hand=FIRST[request.param])
    return session


def trumps(thumb: Scorer) -> list[str]:
    return thumb.options("trump")


@pytest.mark.parametrize("opened", ["french", "russian"], indirect=True)
def test_a_solo_in_petite_says_its_trump_and_turned_card_in_one_tap(new_page: Any, opened: Session) -> None:
    variant = opened.variant
    page = new_page(PHONE, touch=True)
    login(page, "scorer", f"/sessions/{opened.pk}/score/")
    thumb = Scorer(page, touch=True).open(opened)
    thumb.choose("bidder", 2)
    thumb.choose("bid", SOLO[variant])
    # The four suits (belle preselected), then the three others in petite.
    assert trumps(thumb) == [
        "clubs",
        "diamonds",
        "hearts",
        "spades",
        "petite:clubs",
        "petite:diamonds",
        "petite:spades",
    ]
    assert thumb.pressed("trump") == "hearts"
    button = page.locator('[data-group="trump"] button[data-value="petite:spades"]')
    expect(button).to_have_text(f"♠ {PETITE[variant]}")
    box = button.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    thumb.taps = 0
    thumb.choose("trump", "petite:spades")
    assert thumb.taps == 1
    assert thumb.pressed("turned") == "spades" and thumb.pressed("trump") == "petite:spades"
    screenshot(page, f"390-scorer-{variant}-petite")
    assert axe_violations(page) == []
    # A plain suit afterwards: the turned card is asked again, it was said by the petite choice only.
    thumb.choose("trump", "spades")
    assert thumb.pressed("turned") is None and thumb.pressed("trump") == "spades"
    expect(page.locator("#record")).to_be_disabled()
    thumb.choose("trump", "petite:diamonds")
    thumb.choose("jack", 1)
    hand = {"bid": SOLO[variant], "bidder": 2, "trump": "diamonds", "turned": "diamonds", "jack": 1}
    thumb.count({**hand, "tricks": [1, 2, 9, 1]})
    thumb.wait_preview({**hand, "tricks": [1, 2, 9, 1]})
    thumb.record()
    thumb.wait_recorded(2)
    assert raw_hands(opened)[1] == {**hand, "tricks": [1, 2, 9, 1]}
    assert page.errors == []


@pytest.mark.parametrize("opened", ["french", "russian"], indirect=True)
def test_petite_choices_only_where_the_turned_card_is_a_separate_fact(new_page: Any, opened: Session) -> None:
    page = new_page(PHONE, touch=True)
    login(page, "scorer", f"/sessions/{opened.pk}/score/")
    thumb = Scorer(page, touch=True).open(opened)
    thumb.choose("bidder", 0)
    thumb.choose("bid", "simple")  # a simple's trump other than belle already is the turned suit
    assert not any(t.startswith("petite:") for t in trumps(thumb))
    thumb.choose("bid", SOLO[opened.variant])
    thumb.choose("turned", "clubs")  # the turned card given on its own: the trump row is plain again
    assert not any(t.startswith("petite:") for t in trumps(thumb))


@pytest.mark.parametrize("variant", ["french", "russian"])
def test_no_petite_on_deal_1(
    new_page: Any, admin: Any, club: Club, players: list[Player], scorer: Any, variant: str
) -> None:
    session = open_session(admin, club, players, variant=variant)
    page = new_page(PHONE, touch=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    thumb = Scorer(page, touch=True).open(session)
    thumb.choose("bidder", 0)
    thumb.choose("bid", SOLO[variant])
    assert trumps(thumb) == ["clubs", "diamonds", "hearts", "spades"]  # deal 1 turns belle itself
