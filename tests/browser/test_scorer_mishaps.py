"""The mishaps of issue 24 at a card table (390 px, touch): nothing is recorded that the scorer did not
confirm with Record, and a conflict with another phone ends with an empty form and each deal once."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.engine import settle
from ledger.models import Club, Player, Session
from ledger.services.hands import hand_record
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.scorer_driver import Scorer
from tests.browser.test_evening import EVENINGS
from tests.browser.test_scorer import FRENCH_PAIR_HAND, THREE, raw_hands, sheet_with
from tests.ledger_fixtures import open_session

pytestmark = BROWSER

SEVEN = THREE[0]  # Cleo's seven in hearts, made with 8: tricks [2, 1, 8, 2]
SIX = THREE[1]  # Ben's six in clubs, failed with 5


@pytest.fixture
def table(admin: Any, club: Club, players: list[Player], scorer: Any) -> Session:
    """An open American session (defaults: decimal tables, ante 5)."""
    return open_session(admin, club, players)


def scorer_on(new_page: Any, session: Session) -> Scorer:
    page = new_page({"width": 390, "height": 844}, touch=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    return Scorer(page, touch=True).open(session)


def nothing_recorded(thumb: Scorer, session: Session, hands: int = 0, taps: int = 0) -> None:
    """A complete deal left alone stays unrecorded: no timer records it. `taps`: the Record taps so far."""
    time.sleep(4)
    assert len(raw_hands(session)) == hands
    assert thumb.entered() == taps
    expect(thumb.page.locator("#scorer")).to_have_attribute("data-waiting", "0")


def form_is_empty(thumb: Scorer) -> None:
    page = thumb.page
    expect(page.locator('[data-group="bid"] button[aria-pressed="true"]')).to_have_count(0)
    expect(page.locator('[data-group="bidder"] button[aria-pressed="true"]')).to_have_count(0)
    expect(page.locator("#record")).to_be_disabled()


def conflict_online(thumb: Scorer, admin: Any, session: Session) -> None:
    """The scorer enters deal 1 online; another phone records a different deal 1 before his Record."""
    thumb.enter(SEVEN)
    thumb.wait_preview(SEVEN)
    hand_record(actor=admin, session_id=session.pk, hand=SIX)
    thumb.record()
    conflict = thumb.page.locator("#conflict")
    expect(conflict).to_contain_text("another phone recorded deal 1 first, and it differs")
    expect(thumb.page.locator("#deal-title")).to_have_text("Deal 1: settle the conflict")


def test_a_wrong_count_noticed_late_is_fixed_before_anything_is_recorded(new_page: Any, table: Session) -> None:
    thumb = scorer_on(new_page, table)
    thumb.enter(SEVEN)
    thumb.wait_preview(SEVEN)
    nothing_recorded(thumb, table)  # the scorer looks at it: still nothing recorded
    thumb.tap('.pad-seat[data-seat="3"]')  # Dan took 1, not 2
    thumb.tap('#pad-keys button[data-count="1"]')
    corrected = {**SEVEN, "tricks": [2, 2, 8, 1]}
    thumb.wait_preview(corrected)
    thumb.record()
    thumb.wait_recorded(1)
    assert raw_hands(table) == [corrected]


def test_keep_theirs_leaves_an_empty_form_and_nothing_to_record_again(
    new_page: Any, admin: Any, table: Session
) -> None:
    thumb = scorer_on(new_page, table)
    conflict_online(thumb, admin, table)
    # Each side says what every player pays, both as the server settles them (never the script).
    theirs = settle(sheet_with(table, [SIX]))["hands"][0]["deltas"]
    mine = settle(sheet_with(table, [SEVEN]))["hands"][0]["deltas"]
    assert theirs != mine
    for side, deltas in ((".theirs", theirs), (".mine", mine)):
        paid = thumb.page.locator(f"#conflict {side} .deltas .num")
        expect(paid).to_have_count(4)
        assert [int(n) for n in paid.evaluate_all("els => els.map(e => e.dataset.n)")] == deltas
    screenshot(thumb.page, "390-scorer-conflict-american")
    thumb.tap("#conflict button.primary")  # Keep theirs, drop mine
    expect(thumb.page.locator("#conflict")).to_be_hidden()
    expect(thumb.page.locator("#deal-title")).to_have_text("Deal 2")
    form_is_empty(thumb)
    nothing_recorded(thumb, table, hands=1, taps=1)
    assert raw_hands(table) == [SIX]


def test_record_mine_as_the_next_deal_records_it_once(new_page: Any, admin: Any, table: Session) -> None:
    thumb = scorer_on(new_page, table)
    conflict_online(thumb, admin, table)
    thumb.page.locator("#conflict").get_by_text("Record mine as the next deal (2)").tap()
    expect(thumb.page.locator("#scorer")).to_have_attribute("data-hands", "2")
    expect(thumb.page.locator("#deal-title")).to_have_text("Deal 3")
    form_is_empty(thumb)
    time.sleep(4)
    assert raw_hands(table) == [SIX, SEVEN]


def french_on(new_page: Any, admin: Any, club: Club, players: list[Player]) -> tuple[Scorer, Session]:
    session = open_session(admin, club, players, variant="french")
    return scorer_on(new_page, session), session


def test_honours_forgotten_while_looking_up_are_added_before_record(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    thumb, session = french_on(new_page, admin, club, players)
    without = dict(FRENCH_PAIR_HAND)
    thumb.enter(without)
    thumb.wait_preview(without)
    nothing_recorded(thumb, session)  # the scorer looks up, then remembers the honours
    thumb.choose("honours", 3)
    with_honours = {**FRENCH_PAIR_HAND, "honours": 3}
    thumb.wait_preview(with_honours)
    thumb.record()
    thumb.wait_recorded(1)
    assert raw_hands(session) == [with_honours]


def test_a_partner_tapped_late_makes_a_pair_not_a_forced_solo(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    thumb, session = french_on(new_page, admin, club, players)
    solo = {k: v for k, v in FRENCH_PAIR_HAND.items() if k != "partner"}
    thumb.enter(solo)
    thumb.wait_preview(solo)
    nothing_recorded(thumb, session)  # complete as a forced solo, but the table has not said its partner yet
    thumb.choose("partner", FRENCH_PAIR_HAND["partner"])
    thumb.wait_preview(FRENCH_PAIR_HAND)
    thumb.record()
    thumb.wait_recorded(1)
    assert raw_hands(session) == [FRENCH_PAIR_HAND]


def test_a_new_bidder_after_the_counts_clears_them_and_says_so(new_page: Any, table: Session) -> None:
    thumb = scorer_on(new_page, table)
    page = thumb.page
    thumb.enter(SEVEN)
    thumb.wait_preview(SEVEN)
    thumb.choose("bidder", 1)  # it was Ben's seven, not Cleo's
    expect(page.locator("#cleared-note")).to_have_text("New bidder: the tricks were cleared, count them again.")
    expect(page.locator("#pad-seats .pad-seat.done")).to_have_count(0)
    expect(page.locator("#record")).to_be_disabled()
    nothing_recorded(thumb, table)
    bens = {**SEVEN, "bidder": 1, "tricks": [2, 8, 1, 2]}
    thumb.count(bens)
    thumb.wait_preview(bens)
    expect(page.locator("#cleared-note")).to_be_hidden()
    thumb.record()
    thumb.wait_recorded(1)
    assert raw_hands(table) == [bens]


def test_a_new_bidder_who_was_the_partner_clears_the_partner(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    thumb, session = french_on(new_page, admin, club, players)
    page = thumb.page
    thumb.enter(FRENCH_PAIR_HAND)  # Ben with Dan
    thumb.choose("bidder", 3)  # Dan bid, not Ben
    expect(page.locator("#cleared-note")).to_have_text("New bidder: the tricks and the partner were cleared.")
    expect(page.locator('[data-group="partner"] button[aria-pressed="true"]')).to_have_attribute("data-value", "")
    nothing_recorded(thumb, session)


def test_a_new_bid_with_the_same_tricks_keeps_the_counts(new_page: Any, table: Session) -> None:
    thumb = scorer_on(new_page, table)
    page = thumb.page
    thumb.enter(SEVEN)
    thumb.choose("bid", "six")  # a six, not a seven: the counts still fit
    expect(page.locator("#cleared-note")).to_be_hidden()
    six = {**SEVEN, "bid": "six"}
    thumb.wait_preview(six)
    thumb.record()
    thumb.wait_recorded(1)
    assert raw_hands(table) == [six]


@pytest.mark.parametrize("variant", ["american", "french", "russian", "fontainebleau"])
def test_amend_from_the_confirmation_then_a_conflict(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player], variant: str
) -> None:
    """Each variant at 390 px: a deal recorded, one count fixed from its confirmation on one screen (the
    pad fills the last seat, the before/after preview), then a conflict with another phone kept theirs."""
    session = open_session(admin, club, players, variant=variant)
    thumb = scorer_on(new_page, session)
    page = thumb.page
    first, theirs, mine = (entry[1] for entry in EVENINGS[variant][:3])
    thumb.enter(first)
    thumb.record()
    thumb.wait_recorded(1)
    expect(page.locator("#confirmation")).to_contain_text("Deal 1 recorded: ")
    # One count was wrong: the bidder took one fewer, the last seat of the pad one more.
    thumb.taps = thumb.swipes = 0
    bidder = first["bidder"]
    seats = [bidder] + ([first["partner"]] if "partner" in first else [])
    order = seats + [(bidder + i) % 4 for i in range(4) if (bidder + i) % 4 not in seats]
    tricks = list(first["tricks"])
    tricks[bidder] -= 1
    tricks[order[-1]] += 1
    amended = {**first, "tricks": tricks}
    thumb.tap("#confirm-amend")
    expect(page.locator("#deal-title")).to_have_text("Amending deal 1")
    thumb.tap(f'.pad-seat[data-seat="{bidder}"]')
    thumb.tap(f'#pad-keys button[data-count="{tricks[bidder]}"]')
    thumb.wait_preview(amended)
    expect(page.locator("#preview .change-table tbody tr")).to_have_count(4)
    assert thumb.bar_in_view()
    screenshot(page, f"390-scorer-amend-{variant}", full_page=False)
    thumb.record()  # "Save deal 1", on the bar
    expect(page.locator("#confirmation")).to_contain_text("Deal 1 amended: ")
    assert (thumb.taps, thumb.swipes) == (4, 0)
    assert raw_hands(session) == [amended]
    # Deal 2: another phone records another deal 2 first; keeping theirs leaves nothing to record again.
    thumb.enter(mine)
    hand_record(actor=admin, session_id=session.pk, hand=theirs)
    thumb.record()
    expect(page.locator("#conflict")).to_contain_text("another phone recorded deal 2 first, and it differs")
    screenshot(page, f"390-scorer-conflict-{variant}", full_page=False)
    thumb.tap("#conflict button.primary")
    expect(page.locator("#deal-title")).to_have_text("Deal 3")
    form_is_empty(thumb)
    nothing_recorded(thumb, session, hands=2, taps=2)
    assert raw_hands(session) == [amended, theirs]
