"""The scorer with no network: the page opens from the service worker's copy, takes deals, and sends
each once when the network returns; two phones on one table never record one deal twice."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.engine import settle
from ledger.models import Club, Hand, Player, Session
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.network import PhoneNetwork
from tests.browser.scorer_driver import Scorer
from tests.browser.test_scorer import THREE, raw_hands, sheet_with
from tests.ledger_fixtures import open_session

pytestmark = BROWSER

PHONE = {"width": 390, "height": 844}


class Phone:
    """A scorer's phone on its own network (tests/browser/network.py), which a test cuts and restores."""

    def __init__(self, new_page: Any, net: PhoneNetwork, session: Session) -> None:
        self.net = net
        self.page = new_page(PHONE, touch=True, proxy=net.proxy)
        login(self.page, "scorer", f"/sessions/{session.pk}/score/")
        self.thumb = Scorer(self.page, touch=True).open(session)
        self.hands_path = f"/api/v1/sessions/{session.pk}/hands/"

    def network(self, *, up: bool) -> None:
        """Down: the browser says it is offline (`navigator.onLine`) and nothing it sends, from the page
        or its service worker, reaches the server. Up: both back."""
        if up:
            self.net.restore()
            self.page.context.set_offline(False)
        else:
            self.page.context.set_offline(True)
            self.net.cut()

    def deals_sent(self) -> list[str | None]:
        """The key of every deal this phone sent to the server, each time it sent one."""
        return self.net.posted(self.hands_path)


NewPhone = Callable[[Session], Phone]


@pytest.fixture
def new_phone(new_page: Any, phone_network: Callable[[], PhoneNetwork]) -> NewPhone:
    return lambda session: Phone(new_page, phone_network(), session)


KEPT = """async ([url, hands]) => {
    const named = 'script[src], link[rel="stylesheet"], link[rel="modulepreload"]';
    const files = Array.from(document.querySelectorAll(named));
    const wanted = [location.pathname].concat(files.map(n => new URL(n.src || n.href).pathname));
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        const keys = (await cache.keys()).map(r => new URL(r.url).pathname);
        if (!wanted.every(w => keys.includes(w))) continue;
        const kept = await cache.match(url, { ignoreVary: true });
        if (kept && (await kept.json()).hands === hands) return true;
    }
    return false;
}"""


def kept_for_offline(page: Any, session: Session, hands: int) -> None:
    """Wait until the service worker has kept the page, every file it loads and the session after `hands`
    deals. Polled from here: `wait_for_function` takes the promise an async check returns for a truthy
    answer and returns at once, which let a test cut the network before anything was kept."""
    deadline = time.monotonic() + 15
    while not page.evaluate(KEPT, [f"/api/v1/sessions/{session.pk}/", hands]):
        assert time.monotonic() < deadline, "the service worker did not keep the scorer for offline use"
        page.wait_for_timeout(100)


def deal_one_kept_for_offline(
    new_phone: NewPhone, admin: Any, club: Club, players: list[Player]
) -> tuple[Session, Phone]:
    """A new session on a phone, deal 1 recorded, and the service worker's copy of the session after it."""
    session = open_session(admin, club, players)
    phone = new_phone(session)
    phone.thumb.enter(THREE[0])
    phone.thumb.record()
    phone.thumb.wait_recorded(1)
    kept_for_offline(phone.page, session, 1)
    return session, phone


def test_the_scorer_reopens_offline_takes_deals_and_sends_each_once(
    new_phone: NewPhone, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session, phone = deal_one_kept_for_offline(new_phone, admin, club, players)
    page, thumb = phone.page, phone.thumb
    first = phone.deals_sent()
    assert first == [str(Hand.objects.get(session=session, number=1).client_key)]  # deal 1, sent once

    phone.network(up=False)
    page.reload()  # no "no internet" page: the service worker's copy opens
    expect(page.locator("#scorer")).to_have_attribute("data-state", "ready")
    expect(page.locator("#banner")).to_contain_text("Offline")
    expect(page.locator("#banner")).to_contain_text("deals are kept on this phone")
    expect(page.locator("#deal-title")).to_have_text("Deal 2")
    for hand in THREE[1:]:
        thumb.enter(hand)
        expect(page.locator("#preview")).to_contain_text("No preview offline")
        thumb.record()
    expect(page.locator("#banner")).to_contain_text("2 deals waiting to be sent (2, 3)")
    page.reload()  # still offline: the queue is still there, shown
    expect(page.locator("#scorer")).to_have_attribute("data-state", "ready")
    expect(page.locator("#banner")).to_contain_text("2 deals waiting to be sent (2, 3)")
    expect(page.locator("#deal-title")).to_have_text("Deal 4")
    screenshot(page, "scorer-offline-reopened")
    keys = [item["key"] for item in thumb.queue()]
    assert phone.deals_sent() == first  # nothing reached the server while offline
    assert raw_hands(session) == THREE[:1]

    phone.network(up=True)
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0", timeout=20_000)
    confirmation = page.locator("#confirmation")
    expect(confirmation).to_contain_text("Deal 2 recorded too.")  # the earlier deals in one line
    expect(confirmation).to_contain_text("Deal 3 recorded:")  # the last in words, with its payments
    expect(confirmation.locator(".deltas")).to_have_count(1)
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [h.raw for h in hands] == THREE  # each deal once
    assert [str(h.client_key) for h in hands[1:]] == keys
    assert phone.deals_sent() == first + keys  # each sent once, in order: no second send of any deal
    settled = settle(sheet_with(session, THREE))
    expect(page.locator("#balances .num").first).to_have_attribute("data-n", str(settled["balances"][0]))
    assert page.errors == []


def test_a_deal_recorded_just_before_the_network_fails_is_counted_once(
    new_phone: NewPhone, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    """The server answers deal 2, then the network fails (as while the server restarts for an upgrade,
    issue 27): the session read after it comes from the service worker's copy of before deal 2. The page
    still counts deal 2, so the next deal is 3, not deal 2 again coming back as a conflict with itself."""
    session, phone = deal_one_kept_for_offline(new_phone, admin, club, players)  # the worker's copy: 1 deal
    page, thumb = phone.page, phone.thumb

    phone.net.cut_after = ("POST", phone.hands_path)
    thumb.enter(THREE[1])
    thumb.record()
    expect(page.locator("#scorer")).to_have_attribute("data-hands", "2")
    expect(page.locator("#deal-title")).to_have_text("Deal 3")
    assert phone.net.up is False and raw_hands(session) == THREE[:2]
    screenshot(page, "scorer-recorded-then-offline")
    thumb.enter(THREE[2])
    thumb.record()
    expect(page.locator("#banner")).to_contain_text("1 deal waiting to be sent (3)")

    phone.network(up=True)
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0", timeout=20_000)
    expect(page.locator("#scorer")).to_have_attribute("data-hands", "3")
    expect(page.locator("#deal-title")).to_have_text("Deal 4")  # no conflict to settle
    assert raw_hands(session) == THREE  # each deal once, in its place
    assert page.errors == []


def two_phones_one_deal(new_phone: NewPhone, session: Session, mine: dict[str, Any], theirs: dict[str, Any]) -> Any:
    """Phone B (offline) and phone A both enter deal 1; A's reaches the server first."""
    b = new_phone(session)
    a = new_phone(session)
    b.network(up=False)
    b.thumb.enter(mine)
    b.thumb.record()
    expect(b.page.locator("#banner")).to_contain_text("1 deal waiting to be sent (1)")
    a.thumb.enter(theirs)
    a.thumb.record()
    a.thumb.wait_recorded(1)
    assert b.deals_sent() == []
    b.network(up=True)
    return b.page


def test_two_phones_the_same_deal_is_recorded_once(
    new_phone: NewPhone, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = open_session(admin, club, players)
    page = two_phones_one_deal(new_phone, session, THREE[0], THREE[0])
    expect(page.locator("#confirmation")).to_contain_text(
        "Deal 1 was already recorded by another phone, the same deal as yours: yours was dropped", timeout=20_000
    )
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0")
    expect(page.locator("#conflict")).to_be_hidden()
    expect(page.locator("#deal-title")).to_have_text("Deal 2")
    assert raw_hands(session) == [THREE[0]]


def test_two_phones_different_deals_keep_theirs_by_default(
    new_phone: NewPhone, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = open_session(admin, club, players)
    page = two_phones_one_deal(new_phone, session, THREE[0], THREE[1])
    conflict = page.locator("#conflict")
    expect(conflict).to_contain_text("another phone recorded deal 1 first, and it differs", timeout=20_000)
    expect(conflict.locator(".theirs")).to_contain_text("Ben · six · ♣ · tricks: Ben 5, Cleo 3, Dan 2, Ann 3")
    expect(conflict.locator(".mine")).to_contain_text("Cleo · seven · ♥ · tricks: Cleo 8, Dan 2, Ann 2, Ben 1")
    expect(page.locator("#deal-title")).to_have_text("Deal 1: settle the conflict")
    expect(page.locator("#hand-form")).to_be_hidden()
    expect(conflict.locator("button.primary")).to_have_text("Keep theirs, drop mine")  # the default
    screenshot(page, "scorer-two-phones")
    conflict.locator("button.primary").click()
    expect(conflict).to_be_hidden()
    expect(page.locator("#deal-title")).to_have_text("Deal 2")
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0")
    assert raw_hands(session) == [THREE[1]]


def test_two_phones_different_deals_mine_as_the_next_deal(
    new_phone: NewPhone, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = open_session(admin, club, players)
    page = two_phones_one_deal(new_phone, session, THREE[0], THREE[1])
    page.locator("#conflict").get_by_text("Record mine as the next deal (2)").click()
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0", timeout=20_000)
    expect(page.locator("#deal-title")).to_have_text("Deal 3")
    assert raw_hands(session) == [THREE[1], THREE[0]]
