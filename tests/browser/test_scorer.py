"""The scorer page in a real browser, on a 360 px phone: recording, previews, errors beside their fields,
amending and undoing, and the offline queue (nothing lost, nothing recorded twice, conflicts shown)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import APIResponse, expect

from ledger import selectors
from ledger.engine import settle
from ledger.models import Club, Hand, HandRevision, Player, Session
from ledger.services.hands import hand_record
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.scorer_driver import Scorer, bidder_dropped
from tests.ledger_fixtures import fresh, open_session

pytestmark = BROWSER

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
# Three American deals (decimal tables, ante 5): a made seven, a failed six, misère partout.
THREE: list[dict[str, Any]] = [
    {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 1, 8, 2]},
    {"bid": "six", "bidder": 1, "trump": "clubs", "tricks": [3, 5, 3, 2]},
    {"bid": "pass", "tricks": [4, 4, 3, 2]},
]


def simple(
    bidder: int, trump: str, turned: str, jack: int, tricks: list[int], partner: int | None = None
) -> dict[str, Any]:
    """A French or Russian simple, with its partner where it has one (a forced solo without)."""
    hand = {"bid": "simple", "bidder": bidder, "turned": turned, "trump": trump, "jack": jack, "tricks": tricks}
    return hand if partner is None else {**hand, "partner": partner}


FRENCH_PAIR_HAND = simple(1, "hearts", "hearts", jack=0, tricks=[2, 5, 3, 3], partner=3)  # French, deal 1
NO_TRUMP_SEVEN = {"bid": "seven", "bidder": 3, "trump": "none", "tricks": [2, 2, 2, 7]}  # Fontainebleau


@pytest.fixture
def table(admin: Any, club: Club, players: list[Player], scorer: Any) -> Session:
    """An open American session (defaults: decimal tables, ante 5), Ann dealing first, with a stake."""
    return open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})


def sheet_with(session: Session, hands: list[dict[str, Any]]) -> dict[str, Any]:
    sheet = selectors.session_sheet(session=fresh(session))
    return {**sheet, "hands": hands}


def raw_hands(session: Session) -> list[dict[str, Any]]:
    return [h.raw for h in Hand.objects.filter(session=session).order_by("number")]


def test_open_a_session_and_record_three_deals(new_page: Any, scorer: Any, club: Club, players: list[Player]) -> None:
    page = new_page()
    login(page, "scorer", f"/clubs/{club.pk}/")
    screenshot(page, "club")
    page.click("text=Open a new session")
    for seat, name in enumerate(NAMES):
        page.select_option(f"#seat-{seat}", label=name)
    expect(page.locator('[data-seat-name="2"]')).to_have_text("Seat 3: Cleo")
    page.fill("#stake_currency", "USD")
    page.fill("#stake_per_counter", "0.01")
    screenshot(page, "session-new")
    page.click("text=Open the session")
    page.wait_for_url("**/score/")
    session = Session.objects.get()
    assert session.rules == {
        "table": "decimal",
        "ante": 5,
        "pool_limit": 100,
        "last_trick_hand": False,
        "misdeal_penalty": 10,  # table law (rules.md §0.11)
        "pay_instead_short": 1,
    }
    scorer_page = Scorer(page)
    expect(page.locator("#scorer")).to_have_attribute("data-state", "ready")
    expect(page.locator("#deal-title")).to_have_text("Deal 1")
    expect(page.locator("#deal-dealer")).to_have_text("· dealer Ann")

    for number, hand in enumerate(THREE, 1):
        scorer_page.enter(hand)
        expected = settle(sheet_with(session, THREE[:number]))["hands"][-1]
        assert scorer_page.preview_deltas(hand) == expected["deltas"]  # the preview is the engine's, before recording
        if number == 1:
            screenshot(page, "scorer-preview")
        scorer_page.record()
        scorer_page.wait_recorded(number)

    assert raw_hands(session) == THREE
    settlement = settle(sheet_with(session, THREE))
    assert scorer_page.balances() == settlement["balances"]
    assert page.locator("#pools-line").inner_text() == (
        "Pools " + " · ".join(str(p) for p in settlement["pools"]) if settlement["pools"] else "Pools empty"
    )
    expect(page.locator("#deal-dealer")).to_have_text("· dealer Dan")  # deal 4: the deal passed left three times
    assert [t.inner_text() for t in page.locator("#balances .num").all()] == [
        ("+" if b > 0 else "−" if b < 0 else "") + f"{abs(b):,}" for b in settlement["balances"]
    ]
    screenshot(page, "scorer")
    assert page.errors == []


def test_the_servers_error_is_shown_beside_its_field(new_page: Any, scorer: Any, table: Session) -> None:
    page = new_page()
    login(page, "scorer", f"/sessions/{table.pk}/score/")
    scorer_page = Scorer(page).open(table)
    scorer_page.choose("bid", "seven")
    expect(page.locator("#record")).to_be_disabled()  # no bidder, no trump, no tricks yet: nothing to send
    expect(page.locator("#record-hint")).to_have_text("Still to enter: bidder, trump, tricks")
    scorer_page.enter(THREE[0])

    # The form offers only what the rules allow; a refusal still comes from the server (here a body
    # altered on its way), and its words are shown beside the field they name.
    page.route("**/api/v1/sessions/*/hands/", bidder_dropped())
    scorer_page.record()
    message = page.locator("#err-bidder")
    expect(message).not_to_be_empty()
    expect(page.locator('.frow[data-field="bidder"]')).to_have_class("frow required has-error")
    screenshot(page, "scorer-error")
    assert Hand.objects.count() == 0 and scorer_page.queue() == []
    assert scorer_page.pressed("bid") == "seven"  # the form is kept for the correction
    page.unroute("**/api/v1/sessions/*/hands/")
    scorer_page.record()
    scorer_page.wait_recorded(1)
    assert raw_hands(table) == [THREE[0]]


def test_a_misere_that_ends_short_says_how_many_tricks_are_left(new_page: Any, scorer: Any, table: Session) -> None:
    """A misère lost early leaves tricks unplayed: 12 of 13 counted is "1 left", never "-1 too many"."""
    page = new_page()
    login(page, "scorer", f"/sessions/{table.pk}/score/")
    thumb = Scorer(page).open(table)
    thumb.choose("bidder", 0)
    thumb.choose("bid", "grand_misere")
    for count in (0, 4, 4):  # a misère needs only the bidder's count: the pad leaves the last seat open
        thumb.tap(f'#pad-keys button[data-count="{count}"]')
    expect(page.locator("#tricks-left")).to_have_text("(5 left)")
    last = page.locator("#pad-seats .pad-seat").last
    last.click()
    thumb.tap('#pad-keys button[data-count="4"]')
    expect(page.locator("#tricks-left")).to_have_text("(1 left)")
    thumb.record()
    thumb.wait_recorded(1)
    assert raw_hands(table)[0]["tricks"] == [0, 4, 4, 4]


def test_the_hint_names_a_card_with_its_capital(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: Any
) -> None:
    """ "Still to enter: …, ♦J": the field labels go lower case inside the sentence, a card does not."""
    session = open_session(admin, club, players, variant="french")
    page = new_page()
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    thumb = Scorer(page).open(session)
    thumb.choose("bid", "simple")
    expect(page.locator("#record-hint")).to_contain_text("bidder")
    expect(page.locator("#record-hint")).to_contain_text("♦J")


def test_offline_deals_wait_and_are_sent_in_order(new_page: Any, scorer: Any, table: Session) -> None:
    page = new_page()
    login(page, "scorer", f"/sessions/{table.pk}/score/")
    scorer_page = Scorer(page).open(table)
    page.context.set_offline(True)
    for number, hand in enumerate(THREE[:2], 1):
        scorer_page.enter(hand)
        scorer_page.record()
        expect(page.locator("#confirmation")).to_contain_text(f"Deal {number} is kept on this phone")
    expect(page.locator("#banner")).to_contain_text("2 deals waiting to be sent (1, 2)")
    expect(page.locator("#queue-badge")).to_have_text("⟳ 2 waiting")
    expect(page.locator("#deal-title")).to_have_text("Deal 3")
    expect(page.locator("#deal-dealer")).to_have_text("· dealer Cleo")
    screenshot(page, "scorer-offline")
    waiting = scorer_page.queue()
    assert [item["hand"] for item in waiting] == [{**h, "number": n} for n, h in enumerate(THREE[:2], 1)]
    assert Hand.objects.count() == 0  # nothing reached the server

    # The network returns but the server is still out of reach, and the phone reloads the page: the deals
    # are still there, from localStorage.
    page.route(
        "**/api/v1/sessions/*/hands/",
        lambda route: route.abort() if route.request.method == "POST" else route.continue_(),
    )
    page.context.set_offline(False)
    page.reload()
    expect(page.locator("#scorer")).to_have_attribute("data-state", "ready")
    expect(page.locator("#banner")).to_contain_text("2 deals waiting to be sent (1, 2)")
    assert Hand.objects.count() == 0
    page.unroute("**/api/v1/sessions/*/hands/")
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0", timeout=20_000)
    expect(page.locator("#banner")).to_be_hidden()
    hands = list(Hand.objects.filter(session=table).order_by("number"))
    assert [h.raw for h in hands] == THREE[:2]
    assert [str(h.client_key) for h in hands] == [item["key"] for item in waiting]
    assert scorer_page.balances() == settle(sheet_with(table, THREE[:2]))["balances"]


def test_offline_while_the_page_stays_open(new_page: Any, scorer: Any, table: Session) -> None:
    """The network drops and returns under an open page: the deals go out by themselves, in order."""
    page = new_page()
    login(page, "scorer", f"/sessions/{table.pk}/score/")
    scorer_page = Scorer(page).open(table)
    scorer_page.enter(THREE[0])
    scorer_page.record()
    scorer_page.wait_recorded(1)
    page.context.set_offline(True)
    for hand in THREE[1:]:
        scorer_page.enter(hand)
        scorer_page.record()
    expect(page.locator("#banner")).to_contain_text("Offline")
    expect(page.locator("#banner")).to_contain_text("2 deals waiting to be sent (2, 3)")
    expect(page.locator("#preview")).to_be_visible()
    assert Hand.objects.count() == 1
    page.context.set_offline(False)
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0", timeout=20_000)
    assert raw_hands(table) == THREE
    assert HandRevision.objects.filter(session=table).count() == 3
    expect(page.locator("#balances .num").first).to_have_attribute(
        "data-n", str(settle(sheet_with(table, THREE))["balances"][0])
    )


def test_a_lost_answer_is_retried_and_recorded_once(new_page: Any, scorer: Any, table: Session) -> None:
    """The server records the deal but its answer never reaches the phone: the retry, with the same key,
    gets the first answer again and nothing is recorded twice."""
    page = new_page()
    login(page, "scorer", f"/sessions/{table.pk}/score/")
    scorer_page = Scorer(page).open(table)
    lost: list[APIResponse] = []

    def lose_first_answer(route: Any) -> None:
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch())  # it reaches the server ...
            route.abort("connectionreset")  # ... and the answer is lost on the way back
        else:
            route.continue_()

    page.route("**/api/v1/sessions/*/hands/", lose_first_answer)
    scorer_page.enter(THREE[0])
    page.evaluate(
        """() => { const form = document.getElementById('hand-form'); window.busySeen = [];
            new MutationObserver(() => window.busySeen.push(form.getAttribute('aria-busy')))
              .observe(form, { attributes: true, attributeFilter: ['aria-busy'] }); }"""
    )
    scorer_page.record()
    expect(page.locator("#confirmation")).to_contain_text("Deal 1 recorded:", timeout=20_000)
    # While the deal was on its way the form, still showing it, said it was busy; free again once recorded.
    busy_seen = page.evaluate("window.busySeen")
    assert busy_seen[0] == "true" and busy_seen[-1] == "false", busy_seen
    assert lost and lost[0].status == 201
    assert Hand.objects.filter(session=table).count() == 1
    assert HandRevision.objects.filter(session=table).count() == 1
    assert fresh(table).version == 2


def test_taps_while_a_deal_is_on_its_way_change_nothing(new_page: Any, scorer: Any, table: Session) -> None:
    """The scorer taps on while "Recording deal 1…" shows (a slow network, the next deal begun too soon):
    the form keeps the deal as it was sent, the deal is recorded as entered, and the next deal starts on a
    clean form."""
    page = new_page()
    login(page, "scorer", f"/sessions/{table.pk}/score/")
    scorer_page = Scorer(page).open(table)
    held: list[Any] = []

    def hold_the_first_deal(route: Any) -> None:
        if route.request.method == "POST" and not held:
            held.append(route)  # answered below, when the test lets it through
        else:
            route.continue_()

    page.route("**/api/v1/sessions/*/hands/", hold_the_first_deal)
    scorer_page.enter(THREE[0])
    words = page.locator("#deal-words").inner_text()
    scorer_page.record()
    expect(page.locator("#record")).to_have_text("Recording deal 1…")
    expect(page.locator("#hand-form")).to_have_attribute("aria-busy", "true")
    page.click('[data-group="bidder"] button[data-value="0"]')  # Ann, by finger
    page.click('[data-group="trump"] button[data-value="spades"]')
    page.focus('[data-group="bidder"] button[data-value="1"]')
    page.keyboard.press("Space")  # Ben, by key
    assert (scorer_page.pressed("bidder"), scorer_page.pressed("trump")) == ("2", "hearts")
    expect(page.locator("#deal-words")).to_have_text(words)
    assert held, "the deal was not sent"
    held[0].continue_()
    scorer_page.wait_recorded(1)
    assert raw_hands(table) == [THREE[0]]
    assert (scorer_page.pressed("bidder"), scorer_page.pressed("bid")) == (None, None)
    expect(page.locator("#hand-form")).to_have_attribute("aria-busy", "false")
    scorer_page.enter(THREE[1])  # the next deal, on the clean form
    scorer_page.record()
    scorer_page.wait_recorded(2)
    assert raw_hands(table) == THREE[:2]
    assert page.errors == []


def deal_waiting_offline(new_page: Any, session: Session) -> tuple[Any, Scorer]:
    """The scorer's phone, offline, with deal 1 (Cleo's seven) waiting on it."""
    page = new_page()
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    scorer_page = Scorer(page).open(session)
    page.context.set_offline(True)
    scorer_page.enter(THREE[0])
    scorer_page.record()
    expect(page.locator("#banner")).to_contain_text("1 deal waiting to be sent (1)")
    return page, scorer_page


def test_a_conflict_with_another_phone_is_shown(new_page: Any, scorer: Any, admin: Any, table: Session) -> None:
    page, scorer_page = deal_waiting_offline(new_page, table)
    # meanwhile another phone records deal 1
    hand_record(actor=admin, session_id=table.pk, hand=THREE[1])
    page.context.set_offline(False)
    conflict = page.locator("#conflict")
    expect(conflict).to_contain_text("Conflict: another phone recorded deal 1 first", timeout=20_000)
    expect(conflict.locator(".mine")).to_contain_text("Cleo · seven · ♥ · tricks: Cleo 8, Dan 2, Ann 2, Ben 1")
    expect(conflict.locator(".theirs")).to_contain_text("Ben · six · ♣ · tricks: Ben 5, Cleo 3, Dan 2, Ann 3")
    expect(page.locator("#deal-title")).to_have_text("Deal 1: settle the conflict")  # not moved on yet
    screenshot(page, "scorer-conflict")
    assert raw_hands(table) == [THREE[1]]
    assert len(scorer_page.queue()) == 1  # kept, never dropped silently
    page.click("text=Record mine as the next deal (2)")
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0", timeout=20_000)
    expect(conflict).to_be_hidden()
    expect(page.locator("#deal-title")).to_have_text("Deal 3")
    assert raw_hands(table) == [THREE[1], THREE[0]]


def test_a_press_on_record_mine_is_not_lost_when_the_page_renders_again(
    new_page: Any, scorer: Any, admin: Any, table: Session
) -> None:
    """The conflict box is drawn again whenever a read or the settle of my deal lands. A button rebuilt
    then is a new node: a press begun on the old one got no click when released on the new one (a
    mouse's press; CI's Playwright click lost "Record mine" so, and the deal stayed waiting). What is
    unchanged stays as it was, so the press is a click."""
    page = new_page(service_workers="block")  # no service worker: page.route holds the settle
    login(page, "scorer", f"/sessions/{table.pk}/score/")
    scorer_page = Scorer(page).open(table)
    page.context.set_offline(True)
    scorer_page.enter(THREE[0])
    scorer_page.record()
    hand_record(actor=admin, session_id=table.pk, hand=THREE[1])
    held: list[Any] = []
    page.route("**/api/v1/settle/", lambda route: held.append(route))  # what my deal pays lands mid-press
    page.context.set_offline(False)
    conflict = page.locator("#conflict")
    expect(conflict.locator(".mine .pays-pending")).to_be_visible(timeout=20_000)
    mine = conflict.get_by_text("Record mine as the next deal (2)")
    box = mine.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for route in held:
        route.continue_()
    page.unroute("**/api/v1/settle/")
    expect(conflict.locator(".mine .deltas")).to_be_visible()  # drawn again, mid-press
    # and again: another tab of this phone wrote the queue (the storage event renders the page)
    page.evaluate("key => window.dispatchEvent(new StorageEvent('storage', { key }))", f"clubscore.queue.{table.pk}")
    page.mouse.up()
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0", timeout=20_000)
    expect(conflict).to_be_hidden()
    assert raw_hands(table) == [THREE[1], THREE[0]]


def test_amend_shows_what_changes_then_undo(new_page: Any, scorer: Any, table: Session) -> None:
    for hand in THREE[:2]:
        hand_record(actor=scorer, session_id=table.pk, hand=hand)
    page = new_page()
    login(page, "scorer", f"/sessions/{table.pk}/score/")
    scorer_page = Scorer(page).open(table)
    page.click("#deals summary")
    page.click('button[data-amend="1"]')
    expect(page.locator("#deal-title")).to_have_text("Amending deal 1")
    page.click('.pad-seat[data-seat="2"]')  # Cleo took 6, not 8: the seven failed
    page.click('#pad-keys button[data-count="6"]')
    page.click('.pad-seat[data-seat="1"]')
    page.click('#pad-keys button[data-count="2"]')
    page.click('.pad-seat[data-seat="0"]')
    page.click('#pad-keys button[data-count="3"]')
    amended = {**THREE[0], "tricks": [3, 2, 6, 2]}
    changed = settle(sheet_with(table, [amended, THREE[1]]))
    scorer_page.wait_preview(amended)
    table_rows = page.locator("#preview .change-table tbody tr")
    expect(table_rows).to_have_count(4)
    expect(page.locator("#preview .preview-title")).to_have_text("Deal 1 would become:")
    becomes = table_rows.nth(2).locator(".num").evaluate_all("els => els.map(e => Number(e.dataset.n))")
    assert becomes[1] == changed["hands"][0]["deltas"][2] and becomes[3] == changed["balances"][2]
    screenshot(page, "scorer-amend")
    scorer_page.record()
    expect(page.locator("#confirmation")).to_contain_text("Deal 1 amended:")
    assert raw_hands(table) == [amended, THREE[1]]
    assert scorer_page.balances() == changed["balances"]

    page.click("#undo")
    expect(page.locator("#undo")).to_have_text("Keep deal 2")  # the same place again keeps it
    page.click("#undo-yes")  # "Yes, undo deal 2", beside it
    expect(page.locator("#confirmation")).to_contain_text("Deal 2 undone.")
    assert raw_hands(table) == [amended]
    assert scorer_page.balances() == settle(sheet_with(table, [amended]))["balances"]


@pytest.mark.parametrize(
    ("variant", "hand", "shown", "hidden"),
    [
        (
            "french",
            FRENCH_PAIR_HAND,
            ["turned", "trump", "partner", "jack", "honours", "tricks"],
            ["conceded", "last_trick"],
        ),
        (
            "russian",
            simple(0, "spades", "spades", jack=2, tricks=[6, 2, 3, 2]),
            ["turned", "trump", "partner", "jack", "tricks"],
            ["conceded", "honours"],
        ),
        (
            "fontainebleau",
            NO_TRUMP_SEVEN,
            ["trump", "partner", "conceded", "tricks"],
            ["jack", "turned", "honours"],  # honours count only with the house rule on
        ),
    ],
)
def test_other_variants_offer_only_their_fields(
    new_page: Any,
    scorer: Any,
    admin: Any,
    club: Club,
    players: list[Player],
    variant: str,
    hand: dict[str, Any],
    shown: list[str],
    hidden: list[str],
) -> None:
    session = open_session(admin, club, players, variant=variant)
    page = new_page()
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    scorer_page = Scorer(page).open(session)
    from ledger.web.legal import bids_allowed

    assert scorer_page.options("bid") == bids_allowed(variant, fresh(session).rules, 1)
    scorer_page.enter(hand)
    for name in shown:
        expect(page.locator(f'.frow[data-field="{name}"]')).to_be_visible()
    for name in hidden:
        expect(page.locator(f'.frow[data-field="{name}"]')).to_be_hidden()
    expected = settle(sheet_with(session, [hand]))["hands"][0]
    assert scorer_page.preview_deltas(hand) == expected["deltas"]
    screenshot(page, f"scorer-{variant}")
    scorer_page.record()
    scorer_page.wait_recorded(1)
    assert raw_hands(session) == [hand]
