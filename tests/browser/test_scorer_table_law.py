"""The table law on the scorer page (issue 42, rules.md §0.11), on a 390 px phone: a misdeal is one bid,
recorded with no fields; the deal passes on at once and the game's deal number stays where it was."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Club, Hand, Player, Session
from ledger.services.sessions import session_close
from tests.browser.conftest import BROWSER, api_get, login, screenshot
from tests.browser.scorer_driver import Scorer
from tests.browser.test_touch_targets import BROKEN
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


# --- issue 42's table, row by row, through the scorer page (rules.md §0.11) -----------------------------
# Each row is recorded from the form on a phone; the pinned bar says the event and what it costs each seat
# before Record, the confirmation says the same after it, and the money is the rule worked by hand here.
# Seed lines are `NNN:line` of `../shared/seeds/NNN_*.txt`. Seats: Ann 0, Ben 1, Cleo 2, Dan 3; Ann deals 1.


def taps_said(variant: str, event: str, total: int, beyond: int) -> None:
    """The taps to record an event, in total and beyond the deal itself, for the closing note (run with -s)."""
    print(f"taps: {variant} {event}: {total} in total, {beyond} beyond the deal")


def phone(new_page: Any, session: Session, width: int = 390) -> Scorer:
    page = new_page(viewport={"width": width, "height": 844}, touch=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    return Scorer(page, touch=True).open(session)


def bar_says(s: Scorer, hand: dict[str, Any]) -> tuple[str, str, list[int]]:
    """What the pinned bar says of `hand` before Record, once its preview is in: the deal in words (the
    event among them), the penalty line (empty when none) and each seat's payment."""
    s.wait_preview(hand)
    page = s.page
    expect(page.locator("#bar-pays .deltas")).to_be_visible()
    assert s.bar_in_view()
    words = page.locator("#deal-words").inner_text()
    penalty = page.locator("#bar-pays .penalty")
    said = penalty.inner_text() if penalty.count() else ""
    return words, said, s.bar_deltas()


def record_as_the_bar_said(s: Scorer, number: int, hand: dict[str, Any]) -> tuple[str, str, list[int]]:
    """Record `hand` (entered) and check the confirmation says exactly what the bar said before it."""
    words, penalty, deltas = bar_says(s, hand)
    s.record()
    s.wait_recorded(number)
    confirmation = s.page.locator("#confirmation")
    expect(confirmation.locator("p.sent")).to_have_text(f"Deal {number} recorded: {words}.")
    if penalty:
        expect(confirmation.locator(".penalty")).to_have_text(penalty)
    else:
        expect(confirmation.locator(".penalty")).to_have_count(0)
    shown = [int(v) for v in confirmation.locator(".deltas .num").evaluate_all("els => els.map(e => e.dataset.n)")]
    assert shown == deltas
    return words, penalty, deltas


def enter_the_event(s: Scorer, hand: dict[str, Any], event: str) -> int:
    """Enter `hand` without its `event` field, then the event on the same form: the taps the event took."""
    s.enter({k: v for k, v in hand.items() if k != event})
    before = s.taps
    s.enter(hand)
    return s.taps - before


def settled(session: Session, number: int) -> dict[str, Any]:
    return dict(Hand.objects.get(session=session, number=number).settled)


def no_adjustment(s: Scorer, session: Session) -> None:
    hands = Hand.objects.filter(session=session)
    assert all(t["reason"] != "adjustment" for h in hands for t in h.settled["transfers"])
    s.page.goto(f"/sessions/{session.pk}/settlement/")
    expect(s.page.locator("body")).not_to_contain_text("adjustment")
    assert not s.page.errors


def test_the_american_revoke_is_said_on_the_bar_before_record(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """000:115 "the same as at Boston": Ben's seven ♥, 6 tricks, Ben revoked. A-T4's seven 1 short is 20 to
    each adversary; the pool holds Ann's ante of 5, which Ben doubles. The bar says it before Record."""
    session = open_session(admin, club, players)
    s = phone(new_page, session)
    hand = {"bid": "seven", "bidder": 1, "trump": "hearts", "tricks": [3, 6, 2, 2], "revoke": 1}
    s.enter(hand)
    words, penalty, deltas = record_as_the_bar_said(s, 1, hand)
    assert "Revoke Ben" in words
    assert penalty == "Penalty: Ben → Ann 20, Ben → Cleo 20, Ben → Dan 20, Ben → pools 5"
    assert deltas == [20 - 5, -20 * 3 - 5, 20, 20]  # Ann antes 5
    assert settled(session, 1)["pools"] == [5 + 5]
    taps_said("american", "revoke", s.taps, 2)  # beyond the seven: More, the seat (the test above counts it)
    no_adjustment(s, session)


def test_a_fontainebleau_revoke(new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any) -> None:
    """004:5 "the same as at Boston": Ann's six ♥ (V 40), 4 tricks, Ann revoked: 2 short, 40 + 5 × 2 = 50 to
    each adversary, and the pool (her ante of 5) doubled by her."""
    session = open_session(admin, club, players, variant="fontainebleau")
    s = phone(new_page, session)
    hand = {"bid": "six", "bidder": 0, "trump": "hearts", "tricks": [4, 3, 3, 3], "revoke": 0}
    beyond = enter_the_event(s, hand, "revoke")  # "More", the seat
    words, penalty, deltas = record_as_the_bar_said(s, 1, hand)
    assert "Revoke Ann" in words
    assert penalty == "Penalty: Ann → Ben 50, Ann → Cleo 50, Ann → Dan 50, Ann → pool 5"
    assert deltas == [-5 - 50 * 3 - 5, 50, 50, 50]
    assert settled(session, 1)["pools"] == [5 + 5]
    taps_said("fontainebleau", "revoke", s.taps, beyond)
    assert beyond == 2
    no_adjustment(s, session)


def test_a_revoke_by_a_russian_opponent(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """§0.11 (002:194 prices the buyer's side only): Cleo's solo in старшая ♠, Ben (an opponent) revoked. The
    solo is paid as made with its quota: 16 × 2 (старшая) = 32 from each opponent, and Ben alone pays the
    three's 96; the basket (4 × 10) untouched; Ann's бостон (♦J): 2 from each."""
    session = open_session(admin, club, players, variant="russian")
    s = phone(new_page, session, width=360)
    hand = {
        "bid": "solo",
        "bidder": 2,
        "trump": "spades",
        "turned": "spades",
        "jack": 0,
        "tricks": [4, 4, 4, 1],
        "revoke": 1,
    }
    beyond = enter_the_event(s, hand, "revoke")
    assert beyond == 2  # "More", the seat
    taps_said("russian", "opponent revoke", s.taps + 1, beyond)  # and Record
    words, penalty, deltas = record_as_the_bar_said(s, 1, hand)
    assert "Ben" in words and penalty == "Penalty: Ben → Cleo 96"
    assert deltas == [-10 + 2 * 3, -10 - 32 * 3 - 2, -10 + 32 * 3 - 2, -10 - 2]
    assert settled(session, 1)["pools"] == [4 * 10]
    no_adjustment(s, session)


def test_a_french_misdeal_loses_the_deal(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """001:13 "A misdeal loses the deal": Ann misdeals, nobody pays anything (no ante, no penalty), the deal
    passes to her right (Dan), whose deal is the game's deal 1 and antes."""
    session = open_session(admin, club, players, variant="french")
    s = phone(new_page, session)
    s.enter({"bid": "misdeal"})
    words, penalty, deltas = record_as_the_bar_said(s, 1, {"bid": "misdeal"})
    assert words == "misdeal · the deal passes to Dan" and penalty == ""
    assert deltas == [0, 0, 0, 0]
    taps_said("french", "misdeal", s.taps, s.taps)
    assert s.taps == 2
    expect(s.page.locator("#deal-dealer")).to_have_text("· dealer Dan")
    expect(s.page.locator("#deal-game")).to_have_text("deal 1 of the game")
    misdeal = settled(session, 1)
    assert (misdeal["transfers"], misdeal["pools"]) == ([], [0])
    no_adjustment(s, session)


def test_a_russian_misdeal_and_the_strict_culprits_share(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """002:33: the deal passes on; «строгие ревнители правил» (misdeal_forfeits_share) leave the culprit out
    of the basket's division. Ann misdeals; Dan's deal forms the basket (4 × 10) and all pass doubles it
    (80); at the close Ben, Cleo and Dan divide it: 80 // 3 = 26 each, 80 − 78 = 2 carried."""
    session = open_session(admin, club, players, variant="russian", rules={"misdeal_forfeits_share": True})
    s = phone(new_page, session, width=360)
    s.enter({"bid": "misdeal"})
    words, penalty, deltas = record_as_the_bar_said(s, 1, {"bid": "misdeal"})
    assert words.startswith("misdeal") and words.endswith("· the deal passes to Dan") and penalty == ""
    assert deltas == [0, 0, 0, 0]
    taps_said("russian", "misdeal", s.taps, s.taps)
    assert s.taps == 2
    expect(s.page.locator("#deal-dealer")).to_have_text("· dealer Dan")  # the deal goes to the right
    all_pass = {"bid": "pass", "turned": "hearts"}
    s.enter(all_pass)
    record_as_the_bar_said(s, 2, all_pass)
    assert settled(session, 2)["pools"] == [4 * 10 * 2]
    _, closing = session_close(actor=admin, session_id=session.pk, expected_version=fresh(session).version)
    assert (closing["close"]["division"], closing["close"]["carried"]) == ([0, 26, 26, 26], [80 - 3 * 26])
    no_adjustment(s, session)


def test_a_fontainebleau_bidder_pays_instead_of_playing(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """000:111 "it is usual to allow him to pay instead of playing": Cleo's eight ♠ (V 70), no card played,
    paid as failed by one trick (`pay_instead_short` 1): 70 + 5 to each adversary, as much into the pool.
    The form offers the third way a deal ends, the pad goes, Record is one tap on."""
    session = open_session(admin, club, players, variant="fontainebleau")
    s = phone(new_page, session)
    hand = {"bid": "eight", "bidder": 2, "trump": "spades", "conceded": "bidder"}
    s.enter({k: v for k, v in hand.items() if k != "conceded"})
    assert s.options("conceded") == ["played", "conceded", "bidder"]
    assert s.pressed("conceded") == "played"
    expect(s.page.locator('[data-group="conceded"]')).to_contain_text("bidder pays instead")
    expect(s.page.locator('.frow[data-field="tricks"]')).to_be_visible()
    before = s.taps
    s.choose("conceded", "bidder")
    expect(s.page.locator('.frow[data-field="tricks"]')).to_be_hidden()  # no card played, no count
    expect(s.page.locator("#record")).to_be_enabled()
    s.wait_preview(hand)
    screenshot(s.page, "scorer-pays-instead", full_page=False)
    words, penalty, deltas = record_as_the_bar_said(s, 1, hand)
    assert words == "Cleo · eight · ♠ · Cleo pays instead of playing" and penalty == ""
    assert deltas == [-5 + 75, 75, -75 * 3 - 75, 75]  # Ann antes 5
    assert settled(session, 1)["pools"] == [5 + 75]
    assert Hand.objects.get(session=session, number=1).raw == hand
    assert s.swipes == 0, s.swiped  # the choice stands above the bar, under the pad: no swipe to reach it
    taps_said("fontainebleau", "pays instead", s.taps, s.taps - before - 1)
    assert s.taps - before == 2  # the choice, Record (no count)
    # With a partner the bidder does not play alone: the third way is not offered.
    s.enter({"bidder": 1, "bid": "six", "trump": "hearts", "partner": 3})
    assert s.options("conceded") == ["played", "conceded"]
    no_adjustment(s, session)


def test_an_american_bidder_pays_instead_by_house_rule(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """§0.11 (American the same as 000:111, by house rule): Ben's seven ♥ paid as failed by 1 (A-T4: 20 to
    each adversary), the pool (Ann's 5) doubled by him; the misère has no third way (not a trick contract)."""
    session = open_session(admin, club, players)
    s = phone(new_page, session, width=360)
    hand = {"bid": "seven", "bidder": 1, "trump": "hearts", "conceded": "bidder"}
    s.enter({k: v for k, v in hand.items() if k != "conceded"})
    before = s.taps
    s.choose("conceded", "bidder")
    words, penalty, deltas = record_as_the_bar_said(s, 1, hand)
    assert words.endswith("Ben pays instead of playing") and penalty == ""
    assert deltas == [20 - 5, -20 * 3 - 5, 20, 20]
    taps_said("american", "pays instead", s.taps, s.taps - before - 1)  # the choice; no count
    assert s.taps - before == 2
    s.enter({"bidder": 2, "bid": "little_misere"})
    assert s.options("conceded") == ["played", "conceded"]
    no_adjustment(s, session)


def test_an_ace_turned_pays_the_remiz_before_the_all_pass_doubles_it(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """002:108 «с ремизом» (remiz 2): Ann deals and turns the ace of spades, all pass. The basket: 4 × 10,
    then Ann's 2, then the all pass doubles what each put in: 84, not the 82 of an adjustment after it."""
    session = open_session(admin, club, players, variant="russian", rules={"remiz": 2})
    s = phone(new_page, session)
    plain = {"bid": "pass", "turned": "spades"}
    hand = {**plain, "ace_turned": True}
    s.enter(plain)
    before = s.taps
    assert s.options("ace_turned") == ["no", "yes"] and s.pressed("ace_turned") == "no"
    s.choose("ace_turned", "yes")
    s.wait_preview(hand)
    screenshot(s.page, "scorer-ace-turned", full_page=False)
    words, penalty, deltas = record_as_the_bar_said(s, 1, hand)
    assert "ace turned by Ann: remiz" in words
    assert penalty == "Penalty: Ann → basket 2"
    assert deltas == [-(10 + 2) * 2, -10 * 2, -10 * 2, -10 * 2]
    assert settled(session, 1)["pools"] == [(4 * 10 + 2) * 2] == [84]
    assert s.swipes == 0, s.swiped
    taps_said("russian", "ace turned", s.taps, s.taps - before - 1)
    assert s.taps - before - 1 == 1  # yes (Record is the deal's own)
    no_adjustment(s, session)


def test_the_ace_turned_is_not_asked_without_the_remiz(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    session = open_session(admin, club, players, variant="russian")
    s = phone(new_page, session)
    s.enter({"bid": "pass", "turned": "spades"})
    expect(s.page.locator('.frow[data-field="ace_turned"]')).to_be_hidden()


def test_russian_optional_bids_agreed_before_play(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """002:114-122, agreed before play (open petit misère 30 a head, souverain 50 made / 40 failed): the
    page offers them from the session's legal shape. Ann's souverain in старшая ♠, 12 tricks: 50 × 2 =
    100 from each, the basket's 40 and her бостон (2 from each); then Ben's open petit misère (12 cards, one
    discarded), made: 30 from each and the basket formed again."""
    rules = {"open_misere": 30, "souverain": {"made": 50, "failed": 40}}
    session = open_session(admin, club, players, variant="russian", rules=rules)
    s = phone(new_page, session, width=360)
    legal = [b["code"] for b in api_get(s.page, f"/api/v1/sessions/{session.pk}/")["next_legal"]["bids"]]
    assert s.options("bid") == legal == ["simple", "solo", "open_misere", "souverain", "pass", "misdeal"]
    souverain = {
        "bid": "souverain",
        "bidder": 0,
        "trump": "spades",
        "turned": "spades",
        "jack": 0,
        "tricks": [12, 1, 0, 0],
    }
    s.enter(souverain)
    words, _, deltas = record_as_the_bar_said(s, 1, souverain)
    assert "souverain" in words
    assert deltas == [-10 + 100 * 3 + 4 * 10 + 2 * 3, -10 - 100 - 2, -10 - 100 - 2, -10 - 100 - 2]
    taps_said("russian", "souverain", s.taps, 0)
    misere = {"bid": "open_misere", "bidder": 1, "turned": "hearts", "jack": 2, "tricks": [4, 0, 4, 4]}
    before = s.taps
    s.enter(misere)
    words, _, deltas = record_as_the_bar_said(s, 2, misere)
    assert "open petit misère" in words
    assert deltas == [-10 - 30, -10 + 30 * 3 + 4 * 10, -10 - 30, -10 - 30]  # no бостон in a misère made
    taps_said("russian", "open petit misère", s.taps - before, 0)
    no_adjustment(s, session)


def test_labet_and_solo_switched_off(new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any) -> None:
    """002:110-113, switched off: the solo is not offered, and a failure pays nothing into the basket. Ben
    and Dan's simple in старшая ♠ at 7 tricks, Ben short with 4 of his 5: R-T2 8 to each opponent from Ben
    alone, no labet; Cleo's бостон (♦J): 2 from each."""
    session = open_session(admin, club, players, variant="russian", rules={"labet": False, "solo": False})
    s = phone(new_page, session)
    assert "solo" not in s.options("bid")
    hand = {
        "bid": "simple",
        "bidder": 1,
        "trump": "spades",
        "turned": "spades",
        "jack": 2,
        "partner": 3,
        "tricks": [3, 4, 3, 3],
    }
    s.enter(hand)
    _, penalty, deltas = record_as_the_bar_said(s, 1, hand)
    assert penalty == ""
    assert deltas == [-10 + 8 - 2, -10 - 8 * 2 - 2, -10 + 8 + 2 * 3, -10 - 2]
    assert settled(session, 1)["pools"] == [4 * 10]  # no labet
    no_adjustment(s, session)


def test_claims_lapse_once_the_next_deal_is_recorded(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """002:189 (claims_lapse): deal 1 is amended while it is the last; once deal 2 is recorded, amending it is
    refused in words that say why and what the treasurer does instead."""
    session = open_session(admin, club, players, variant="russian", rules={"claims_lapse": True})
    s = phone(new_page, session)
    solo = {"bid": "solo", "bidder": 2, "trump": "spades", "turned": "spades", "jack": 0, "tricks": [4, 4, 4, 1]}
    s.enter(solo)
    s.record()
    s.wait_recorded(1)
    s.enter({"bid": "pass", "turned": "hearts"})
    s.record()
    s.wait_recorded(2)
    page = s.page
    page.locator("#amend-open").tap()
    page.locator('#deal-list button[data-amend="1"]').tap()
    expect(page.locator("#deal-title")).to_have_text("Amending deal 1")
    s.choose("jack", 1)
    page.locator("#record").tap()
    conflict = page.locator("#conflict")
    expect(conflict).to_be_visible()
    expect(conflict).to_contain_text("deal 1 can no longer be amended")
    expect(conflict).to_contain_text("adjustment into the basket")
    assert Hand.objects.get(session=session, number=1).raw == solo  # nothing changed
    assert not page.errors


def test_a_fontainebleau_misdeal(new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any) -> None:
    """§0.11 "same as at Boston" (one red counter, `misdeal_penalty` 10): Ann misdeals, pays 10 into the pool
    and no ante; the deal passes on."""
    session = open_session(admin, club, players, variant="fontainebleau")
    s = phone(new_page, session, width=360)
    s.enter({"bid": "misdeal"})
    words, penalty, deltas = record_as_the_bar_said(s, 1, {"bid": "misdeal"})
    assert words.startswith("misdeal · the deal passes to ") and penalty == "Penalty: Ann → pool 10"
    assert deltas == [-10, 0, 0, 0]
    assert settled(session, 1)["pools"] == [10]
    taps_said("fontainebleau", "misdeal", s.taps, s.taps)
    assert s.taps == 2
    no_adjustment(s, session)


def test_a_french_revoke_costs_the_same_taps(
    new_page: Any, scorer: Any, club: Club, players: list[Player], admin: Any
) -> None:
    """§3.6 (001:71, not a row of the issue's table: priced before it): the taps of a revoke in French Boston,
    for the closing note, and the bar's penalty said again after Record. Ben and Dan's simple ♥, Dan revoked."""
    session = open_session(admin, club, players, variant="french")
    s = phone(new_page, session, width=360)
    hand = {"bid": "simple", "bidder": 1, "trump": "hearts", "turned": "hearts", "partner": 3, "jack": 0}
    hand = {**hand, "tricks": [2, 5, 3, 3], "revoke": 3}
    beyond = enter_the_event(s, hand, "revoke")
    assert beyond == 2  # "More", the seat
    taps_said("french", "revoke", s.taps + 1, beyond)
    _, penalty, _ = record_as_the_bar_said(s, 1, hand)
    assert penalty.startswith("Penalty: Dan → Ann ")  # the revoker alone pays each adversary
    assert settled(session, 1)["pools"] == [10 * 2]  # Ann's ante of 10, doubled by Dan; no pool won


@pytest.mark.parametrize(
    ("language", "variant", "rules", "hand", "said"),
    [
        (
            "fr",
            "fontainebleau",
            {},
            {"bid": "eight", "bidder": 2, "trump": "spades", "conceded": "bidder"},
            [
                "Cleo paie au lieu de jouer",
                "Comment le coup a fini",  # the row of choices
            ],
        ),
        (
            "ru",
            "russian",
            {"remiz": 2},
            {"bid": "pass", "turned": "spades", "ace_turned": True},
            [
                "туз на открытии козыря, сдатчик Ann: ремиз",
                "Штраф: Ann → корзина 2",
            ],
        ),
    ],
)
def test_the_events_in_the_players_words_at_360_px(
    new_page: Any,
    scorer: Any,
    live_server: Any,
    club: Club,
    players: list[Player],
    admin: Any,
    language: str,
    variant: str,
    rules: dict[str, Any],
    hand: dict[str, Any],
    said: list[str],
) -> None:
    """« paie au lieu de jouer », «ремиз»: the form and the bar say the event in the page's language, on a
    360 × 640 phone with no word broken and no swipe."""
    session = open_session(admin, club, players, variant=variant, rules=rules)
    page = new_page(viewport={"width": 360, "height": 640}, touch=True)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    s = Scorer(page, touch=True).open(session)
    s.enter(hand)
    s.wait_preview(hand)
    assert s.swipes == 0, s.swiped  # the choice (under the count pad) and the ace row above the bar
    for words in said:
        expect(page.locator("#scorer")).to_contain_text(words)
    assert page.evaluate(BROKEN) == []
    assert not page.errors
