"""Table law as the other players see it (issue 42, rules.md §0.11): a follower's card names each event in
the players' words with what it cost each seat, so that he checks it before tapping ✓; a misdeal shows the
deal moving on and the game's deal beside the hand's number; under claims lapse the card says when a
deal's claims close, and the conditions stay a tap away during play. On a phone, 360 and 390 px, in
English, French and Russian. The amounts are worked by hand below from rules.md's tables."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Club, DealCheck
from ledger.services.table import board_link_issue, seat_link_issue
from tests.browser.a11y import axe_violations
from tests.browser.conftest import BROWSER, login, screenshot
from tests.ledger_fixtures import open_session, record_all

pytestmark = BROWSER

# American Boston, Ann deals first, ante 5, decimal tables (rules.md §1).
# Hand 1, dealt by Ann: seven ♥ by Ben, 6 tricks, Ben revoked (§0.11, 000:115, 001:71): s = 1, A-T4 Seven
#   1 short = 20 to each of Ann, Cleo and Dan; the pools hold 5 (Ann's ante), which Ben pays in again.
REVOKE = {"bid": "seven", "bidder": 1, "trump": "hearts", "tricks": [2, 6, 2, 2], "revoke": 1}
# Hand 2, dealt by Ben: a misdeal: one red counter, 10, into the pools; the deal passes to the left, Cleo.
MISDEAL = {"bid": "misdeal"}
# Hand 3 (deal 2 of the game), dealt by Cleo (ante 5: the pools 20 + 5 = 25): Dan's boston, paid instead
#   of playing, as failed by 1 trick (pay_instead_short 1): A-T4 Five 1 short = 10 to each adversary, and
#   the failure doubles the pool: 25 in.
PAYS_INSTEAD = {"bid": "boston", "bidder": 3, "trump": "spades", "conceded": "bidder"}

WORDS = {
    "en": {
        1: "Revoke by Ben — Ben −65 · Ann +20 · Cleo +20 · Dan +20 · pools +5",
        2: "Misdeal by Ben: the deal passes to Cleo — Ben −10 · pools +10",
        3: "Dan pays instead of playing: as a failure by 1 trick — Dan −55 · Ann +10 · Ben +10 · Cleo +10 · pools +25",
        "misdeal": "not a deal of the game",
        "game": "(deal 2 of the game)",
        "next": "next: deal 4 (deal 3 of the game), dealt by Dan",
        "confirm": "✓ Deal 3 is right",
    },
    "fr": {
        1: "Fausse renonce de Ben — Ben −65 · Ann +20 · Cleo +20 · Dan +20 · poules +5",
        2: "Maldonne de Ben : la donne passe à Cleo — Ben −10 · poules +10",
        3: "Dan paie au lieu de jouer : comme une chute de 1 levée — Dan −55 · Ann +10 · Ben +10 · Cleo +10 "
        "· poules +25",
        "misdeal": "pas une donne de la partie",
        "game": "(donne 2 de la partie)",
        "next": "ensuite : donne 4 (donne 3 de la partie), donneur Dan",
        "confirm": None,
    },
    "ru": {
        1: "Ренонс: Ben — Ben −65 · Ann +20 · Cleo +20 · Dan +20 · корзины +5",
        2: "Промах сдатчика: Ben; сдача переходит к Cleo — Ben −10 · корзины +10",
        3: "Dan платит, не играя: как ремиз без 1 взятки — Dan −55 · Ann +10 · Ben +10 · Cleo +10 · корзины +25",
        "misdeal": "не считается сдачей партии",
        "game": "(сдача 2 партии)",
        "next": "далее: сдача 4 (сдача 3 партии), сдаёт Dan",
        "confirm": None,
    },
}


def open_seat(new_page: Any, live_server: Any, key: str, language: str, width: int) -> Any:
    page = new_page({"width": width, "height": 740})
    if language != "en":
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(f"/s/{key}/")
    return page


def fits(page: Any) -> None:
    """Nothing wider than the phone: the event's words wrap inside the card."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), screenshot(page, "law-wide")


@pytest.mark.parametrize(("language", "width"), [("en", 360), ("fr", 390), ("ru", 360), ("en", 390)])
def test_a_follower_sees_each_event_named_with_what_it_cost_each_seat(
    new_page: Any, live_server: Any, admin: Any, club: Club, players: list[Any], language: str, width: int
) -> None:
    """Before: the revoke's card said "Ben seven ♥ · tricks 2 · 6 · 2 · 2" and each seat's change, the
    misdeal's just "misdeal" with the sheet's number, and the bidder who paid instead was "(conceded)", as
    if the adversaries had conceded. Now each card names the event and each seat's part in it, live, as the
    scorer records it; Cleo (seat 2) checks deal 3 and taps ✓."""
    session = open_session(admin, club, players)
    key, _ = seat_link_issue(actor=admin, session_id=session.pk, seat=2)
    record_all(admin, session, [REVOKE])
    page = open_seat(new_page, live_server, key, language, width)
    words = WORDS[language]
    event = page.locator("#deal-1 .deal-event")
    expect(event).to_have_text(words[1])
    expect(event).to_have_attribute("data-event", "revoke")
    record_all(admin, session, [MISDEAL, PAYS_INSTEAD])  # live: the page swaps its rows in
    expect(page.locator("#deal-3 .deal-event")).to_have_text(words[3])
    expect(page.locator("#deal-2 .deal-event")).to_have_text(words[2])
    expect(page.locator("#deal-2 .deal-title .badge.misdeal")).to_have_text(words["misdeal"])
    expect(page.locator("#deal-3 .deal-title .game-deal")).to_have_text(words["game"])
    expect(page.locator(".follow-next")).to_contain_text(words["next"])
    expect(page.locator("#deal-3 .deal-words")).not_to_contain_text("conceded")  # nobody conceded
    # The card's per-seat changes are the whole deal's (antes too): the event's line is its part of them.
    deltas = page.locator("#deal-3 .deal-seat .n").all_inner_texts()
    assert deltas == ["+10", "+10", "+5", "−55"], deltas  # Cleo +10 − her ante 5
    fits(page)
    assert axe_violations(page) == []  # the event's colours read (contrast), in every language
    page.locator("#deal-3 .deal-event").scroll_into_view_if_needed()
    screenshot(page, f"law-follow-{language}-{width}")
    page.locator('#deal-3 [data-action="confirm"]').click()
    expect(page.locator('#deal-3 [data-action="confirm"]')).to_have_attribute("aria-pressed", "true")
    if words["confirm"]:
        expect(page.locator('#deal-3 [data-action="confirm"]')).to_have_text(words["confirm"])
    assert DealCheck.objects.filter(session=session, number=3, seat=2, state=DealCheck.State.CONFIRMED).exists()
    assert page.errors == []


RUSSIAN_WORDS = {
    "ru": {
        1: "Сдатчик открыл туза: ремиз в корзину — Ann −2 · корзина +2",
        2: "Промах сдатчика: Dan; сдача переходит к Cleo — платить нечего",
        "lapsed": "Претензии по сдаче 1 закрыты: записана сдача 2 (домашнее правило «Претензии до следующей "
        "сдачи»), исправить её уже нельзя. Казначей может внести исправление поправкой в корзину на следующей "
        "сдаче.",
        "open": "Претензии по сдаче 2 закроются, как только будет записана сдача 3: проверьте её сейчас.",
        "conditions": "Условия стола",
    },
    "en": {
        1: "The dealer turned an ace: remiz into the basket — Ann −2 · basket +2",
        2: "Misdeal by Dan: the deal passes to Cleo — nothing to pay",
        "lapsed": "Claims on deal 1 lapsed when deal 2 was recorded (house rule “Claims lapse”): it can no longer "
        "be amended. A treasurer can record the correction as an adjustment into the basket on the next deal.",
        "open": "Claims on deal 2 lapse once deal 3 is recorded: check it now.",
        "conditions": "The table's conditions",
    },
}


@pytest.mark.parametrize(("language", "width"), [("ru", 390), ("en", 360)])
def test_a_russian_table_s_ace_turned_misdeal_and_claims_lapse(
    new_page: Any, live_server: Any, admin: Any, club: Club, players: list[Any], language: str, width: int
) -> None:
    """«С ремизом» 2 (002:108) and claims lapse (002:189). Hand 1, dealt by Ann: all pass, and Ann turned an
    ace: 2 chips into the basket before the all pass doubles it. Hand 2, dealt by Dan (the deal passes to
    the right): a misdeal, no penalty by default (002:33); the deal passes on to Cleo. Deal 1's claims lapsed
    when hand 2 was recorded: its card says so and what the treasurer can do; hand 2's says when its own
    close. The table's conditions stay a tap away during play."""
    rules = {"remiz": 2, "claims_lapse": True}
    session = open_session(admin, club, players, variant="russian", rules=rules)
    key, _ = seat_link_issue(actor=admin, session_id=session.pk, seat=1)
    record_all(admin, session, [{"bid": "pass", "turned": "hearts", "ace_turned": True}, {"bid": "misdeal"}])
    page = open_seat(new_page, live_server, key, language, width)
    words = RUSSIAN_WORDS[language]
    expect(page.locator("#deal-1 .deal-event")).to_have_text(words[1])
    expect(page.locator("#deal-2 .deal-event")).to_have_text(words[2])
    expect(page.locator("#deal-1 .deal-claim.lapsed")).to_have_text(words["lapsed"])
    expect(page.locator("#deal-2 .deal-claim")).to_have_text(words["open"])
    expect(page.locator("#deal-2 .deal-claim")).not_to_have_class("lapsed")
    fits(page)
    # The conditions: folded once a deal is recorded, a tap away, and they say the two house rules.
    summary = page.locator("details.conditions-box > summary")
    expect(summary).to_have_text(words["conditions"])
    expect(page.locator("#conditions")).to_be_hidden()
    summary.click()
    expect(page.locator('#conditions [data-option="remiz"] dd')).to_contain_text("2")
    expect(page.locator('#conditions [data-option="claims_lapse"]')).to_be_visible()
    screenshot(page, f"law-follow-russian-{language}-{width}")
    assert page.errors == []


def test_a_member_reaches_the_printable_conditions_from_the_follower_page(
    new_page: Any, live_server: Any, admin: Any, club: Club, players: list[Any]
) -> None:
    """A logged-in member's follower page links the printable conditions during play (a seat link has no
    login to read that page, so it keeps the fold alone)."""
    session = open_session(admin, club, players, variant="russian", rules={"claims_lapse": True})
    record_all(admin, session, [{"bid": "misdeal"}])
    page = new_page({"width": 360, "height": 740})
    login(page, admin.get_username(), f"/sessions/{session.pk}/follow/")
    page.locator("details.conditions-box > summary").click()
    page.locator("#conditions-link").click()
    expect(page).to_have_url(f"{live_server.url}/sessions/{session.pk}/conditions/")
    expect(page.locator('[data-option="claims_lapse"]')).to_be_visible()
    assert page.errors == []


@pytest.mark.parametrize(("language", "width"), [("fr", 360), ("ru", 390)])
def test_the_score_sheet_notes_each_event_in_view_and_in_print(
    new_page: Any, live_server: Any, admin: Any, club: Club, players: list[Any], language: str, width: int
) -> None:
    """The sheet said "misdeal" and nothing of the revoke or of paying instead. Each event's note sits under
    its row, in view at the left of a phone while the table scrolls sideways, and prints in full."""
    session = open_session(admin, club, players)
    record_all(admin, session, [REVOKE, MISDEAL, PAYS_INSTEAD])
    page = new_page({"width": width, "height": 740})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    login(page, admin.get_username(), f"/sessions/{session.pk}/sheet/")
    words = WORDS[language]
    for number in (1, 2, 3):
        note = page.locator(f'tr.sheet-note[data-note="{number}"] .note-text')
        expect(note).to_have_text(words[number])
        box = note.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (number, box)
    expect(page.locator('tr[data-deal="3"] .game-deal')).to_have_text(words["game"])
    page.locator("#sheet-table").evaluate("el => { el.scrollLeft = el.scrollWidth; }")  # swiped sideways
    box = page.locator('tr.sheet-note[data-note="3"] .note-text').bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    screenshot(page, f"law-sheet-{language}-{width}")
    assert axe_violations(page) == []
    page.emulate_media(media="print")
    expect(page.locator('tr.sheet-note[data-note="3"] .note-text')).to_have_text(words[3])
    assert page.errors == []


def test_the_room_board_says_the_last_event_and_the_game_s_deal_on_eight_tables(
    new_page: Any, live_server: Any, admin: Any, club: Club, players: list[Any]
) -> None:
    """From 3 m: after a revoke, a misdeal and a bidder paying instead, the board said "deal 3 of 12" (the
    sheet's hands) and nothing of what happened. Now "deal 2 of 12", the last deal's event on a line of its
    own, and eight tables still fit the screen."""
    session = open_session(admin, club, players)
    record_all(admin, session, [REVOKE, MISDEAL, PAYS_INSTEAD])
    for _ in range(7):
        record_all(admin, open_session(admin, club, players), [REVOKE])
    key, _ = board_link_issue(actor=admin, club_id=club.pk, label="wall")
    board = new_page({"width": 1920, "height": 1080})
    board.goto(f"/b/{key}/")
    expect(board.locator(".board-table")).to_have_count(8)
    table = board.locator(f"[data-session='{session.pk}']")
    expect(table.locator(".deal-of")).to_have_text("deal 2 of 12")
    expect(table.locator(".board-event")).to_have_text("Deal 3: Dan pays instead of playing: as a failure by 1 trick")
    assert board.evaluate("() => document.documentElement.scrollHeight <= window.innerHeight + 1")
    screenshot(board, "1920-board-law")
    assert axe_violations(board) == []
    assert board.errors == []
