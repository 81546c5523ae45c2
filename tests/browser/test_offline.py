"""The scorer with no network: the page opens from the service worker's copy, takes deals, and sends
each once when the network returns; two phones on one table never record one deal twice."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from ledger.engine import settle
from ledger.models import Club, Hand, Player, Session
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.scorer_driver import Scorer
from tests.browser.test_scorer import THREE, raw_hands, sheet_with
from tests.ledger_fixtures import open_session

pytestmark = BROWSER

PHONE = {"width": 390, "height": 844}


def phone(new_page: Any, session: Session) -> tuple[Any, Scorer]:
    page = new_page(PHONE, touch=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    thumb = Scorer(page, touch=True).open(session)
    return page, thumb


def network(context: Any, *, up: bool) -> None:
    """Cut or restore the phone's network. Chromium's offline emulation does not always cover the
    requests a service worker lets through to the network (seen as a deal reaching the server while
    "offline", about one run in two), so the context also refuses every request while it is down, as a
    real dead network would."""
    if up:
        context.unroute("**/*")
        context.set_offline(False)
    else:
        context.set_offline(True)
        context.route("**/*", lambda route: route.abort("internetdisconnected"))


def kept_for_offline(page: Any, session: Session, hands: int) -> None:
    """Wait until the service worker has kept the page, its files and the session after `hands` deals."""
    page.wait_for_function(
        """async ([url, hands]) => {
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                const keys = (await cache.keys()).map(r => new URL(r.url).pathname);
                if (!keys.includes(location.pathname) || !keys.some(k => k.endsWith('scorer.js'))) continue;
                const kept = await cache.match(url, { ignoreVary: true });
                if (kept && (await kept.json()).hands === hands) return true;
            }
            return false;
        }""",
        arg=[f"/api/v1/sessions/{session.pk}/", hands],
    )


def test_the_scorer_reopens_offline_takes_deals_and_sends_each_once(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = open_session(admin, club, players)
    page, thumb = phone(new_page, session)
    thumb.enter(THREE[0])
    thumb.record()
    thumb.wait_recorded(1)
    kept_for_offline(page, session, 1)

    network(page.context, up=False)
    page.reload()  # no "no internet" page: the service worker's copy opens
    expect(page.locator("#scorer")).to_have_attribute("data-state", "ready")
    expect(page.locator("#banner")).to_contain_text("Offline")
    expect(page.locator("#banner")).to_contain_text("No preview offline")
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
    assert Hand.objects.filter(session=session).count() == 1  # nothing of this session reached the server

    network(page.context, up=True)
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0", timeout=20_000)
    confirmation = page.locator("#confirmation")
    expect(confirmation).to_contain_text("Deal 2 recorded.")
    expect(confirmation).to_contain_text("Deal 3 recorded.")  # the payments of each sent deal
    expect(confirmation.locator(".deltas")).to_have_count(2)
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [h.raw for h in hands] == THREE  # each deal once
    assert [str(h.client_key) for h in hands[1:]] == keys
    settled = settle(sheet_with(session, THREE))
    expect(page.locator("#balances .num").first).to_have_attribute("data-n", str(settled["balances"][0]))
    assert page.errors == []


def two_phones_one_deal(new_page: Any, session: Session, mine: dict[str, Any], theirs: dict[str, Any]) -> Any:
    """Phone B (offline) and phone A both enter deal 1; A's reaches the server first."""
    page_b, b = phone(new_page, session)
    _page_a, a = phone(new_page, session)
    network(page_b.context, up=False)
    b.enter(mine)
    b.record()
    expect(page_b.locator("#banner")).to_contain_text("1 deal waiting to be sent (1)")
    a.enter(theirs)
    a.record()
    a.wait_recorded(1)
    network(page_b.context, up=True)
    return page_b


def test_two_phones_the_same_deal_is_recorded_once(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = open_session(admin, club, players)
    page = two_phones_one_deal(new_page, session, THREE[0], THREE[0])
    expect(page.locator("#confirmation")).to_contain_text(
        "Deal 1 was already recorded by another phone, the same deal as yours: yours was dropped", timeout=20_000
    )
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0")
    expect(page.locator("#conflict")).to_be_hidden()
    expect(page.locator("#deal-title")).to_have_text("Deal 2")
    assert raw_hands(session) == [THREE[0]]


def test_two_phones_different_deals_keep_theirs_by_default(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = open_session(admin, club, players)
    page = two_phones_one_deal(new_page, session, THREE[0], THREE[1])
    conflict = page.locator("#conflict")
    expect(conflict).to_contain_text("another phone recorded deal 1 first, and it differs", timeout=20_000)
    expect(conflict.locator(".theirs")).to_contain_text("Ben six ♣ 5 tricks")
    expect(conflict.locator(".mine")).to_contain_text("Cleo seven ♥ 8 tricks")
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
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = open_session(admin, club, players)
    page = two_phones_one_deal(new_page, session, THREE[0], THREE[1])
    page.locator("#conflict").get_by_text("Record mine as the next deal (2)").click()
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0", timeout=20_000)
    expect(page.locator("#deal-title")).to_have_text("Deal 3")
    assert raw_hands(session) == [THREE[1], THREE[0]]
