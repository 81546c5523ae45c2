"""The scorer in Russian, in a real browser: the language chosen by the switcher, two deals recorded (one
online, one offline after the page reopened from the service worker's copy), every label, button, banner,
preview and payment in the catalogs' Russian (the books' terms: старшая, сдача, взятка, корзина), and no
English word left on the page."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger import selectors
from ledger.engine import settle
from ledger.models import Club, Hand, Session
from ledger.services.clubs import player_create
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.network import PhoneNetwork
from tests.browser.scorer_driver import Scorer
from tests.ledger_fixtures import fresh, open_session

pytestmark = BROWSER

# Russian names, so that any Latin word left on the scorer is untranslated text, not a name.
RU_NAMES = ["Аня", "Борис", "Вера", "Глеб"]
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# An unsupported simple in spades (the turned suit of deal 1, so старшая from deal 2 on), then a
# supported one: Борис buys in старшая, Глеб holds.
DEAL_1 = {"bid": "simple", "bidder": 0, "turned": "spades", "trump": "spades", "jack": 2, "tricks": [6, 2, 3, 2]}
DEAL_2 = {
    "bid": "simple",
    "bidder": 1,
    "turned": "hearts",
    "trump": "spades",
    "partner": 3,
    "jack": 0,
    "tricks": [2, 4, 3, 4],
}


# What Russian writes in Latin letters itself: the table's QR code (QR-код), one of the words
# tests/web/test_page_languages.py lets every language share.
WRITTEN_IN_LATIN = {"QR"}


def latin_words(text: str) -> list[str]:
    return [word for word in LATIN_WORD.findall(text) if word not in WRITTEN_IN_LATIN]


KEPT_IN = """async ([session, words]) => {
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        const catalog = await cache.match('/jsi18n/', { ignoreVary: true });
        const read = await cache.match(session, { ignoreVary: true });
        const page = await cache.match(location.pathname, { ignoreVary: true });
        if (catalog && read && page && (await catalog.text()).includes(words)
            && (await read.json()).hands === 1) return true;
    }
    return false;
}"""


def kept_in_russian(page: Any, session: Session, words: str) -> None:
    """Wait until the service worker keeps the scorer page, the session after deal 1, and the scripts'
    catalog (/jsi18n/) in the language that has `words`. Polled from here, as test_offline does: an
    async check's promise is no answer to `wait_for_function`."""
    arg = [f"/api/v1/sessions/{session.pk}/", json.dumps(words)[1:-1]]  # the catalog is JSON: non-ASCII escaped
    deadline = time.monotonic() + 15
    while not page.evaluate(KEPT_IN, arg):
        assert time.monotonic() < deadline, "the service worker did not keep the Russian scorer"
        page.wait_for_timeout(100)


def russian_payments(n: int) -> str:
    """Russian's three plural forms of платёж (1 платёж, 2 платежа, 5 платежей, 11 платежей)."""
    if n % 10 == 1 and n % 100 != 11:
        return "платёж"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "платежа"
    return "платежей"


@pytest.fixture
def russian_table(admin: Any, club: Club, scorer: Any) -> Session:
    Club.objects.filter(pk=club.pk).update(name="Бостон-клуб")  # a name, not a word to translate
    players = [player_create(actor=admin, club_id=club.pk, name=n) for n in RU_NAMES]
    return open_session(admin, club, players, variant="russian")


def test_a_deal_is_recorded_on_the_scorer_in_russian(
    new_page: Any, phone_network: Callable[[], PhoneNetwork], russian_table: Session
) -> None:
    net = phone_network()  # the phone's own network, cut below (tests/browser/network.py)
    page = new_page(proxy=net.proxy)
    login(page, "scorer", f"/sessions/{russian_table.pk}/score/")
    scorer = Scorer(page).open(russian_table)
    # The switcher at the foot of the page: the choice is kept in the cookie, the page comes back in Russian.
    page.select_option("#lang-select", "ru")
    page.locator(".lang-form button[type=submit]").click()
    page.wait_for_url(f"**/sessions/{russian_table.pk}/score/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("#scorer")).to_have_attribute("data-state", "ready")
    assert {c["name"]: c["value"] for c in page.context.cookies()}.get("django_language") == "ru"

    expect(page.locator("#deal-title")).to_have_text("Сдача 1")
    expect(page.locator("#deal-dealer")).to_have_text("· сдаёт Аня")
    expect(page.locator("#deal-belle")).to_have_text("старшая: масть, открытая в первой сдаче")
    expect(page.locator("#preview")).to_have_text("Выберите заказ; все платежи будут показаны здесь до записи.")
    scorer.choose("bid", DEAL_1["bid"])
    expect(page.locator("#record-hint")).to_contain_text("Осталось ввести: ")
    expect(page.locator("#record")).to_have_text("Записать сдачу 1")
    expect(page.locator("#record")).to_be_disabled()
    scorer.enter(DEAL_1)
    expect(page.locator("#tricks-left")).to_have_text("(все 13)")
    assert page.locator('[data-group="trump"] button[data-value="spades"]').get_attribute("title") == "пики"

    expected = settle({**russian_sheet(russian_table), "hands": [DEAL_1]})["hands"][0]
    assert scorer.preview_deltas(DEAL_1) == expected["deltas"]
    preview = page.locator("#preview")
    expect(preview.locator(".preview-title")).to_have_text("Платежи сдачи 1:")
    payments = len(expected["transfers"])
    expect(preview.locator(".transfers summary")).to_contain_text(f"{payments} {russian_payments(payments)}")
    preview.locator(".transfers summary").click()
    lines = preview.locator(".transfers li").all_inner_texts()
    assert len(lines) == payments and all("→" in line for line in lines)
    screenshot(page, "scorer-russian-preview")
    scorer_words = page.locator("#scorer").inner_text()
    assert latin_words(scorer_words) == [], latin_words(
        scorer_words
    )  # labels, bids, buttons, the preview: no English left

    scorer.record()
    expect(page.locator("#confirmation")).to_contain_text("Сдача 1 записана: ")
    expect(page.locator("#scorer")).to_have_attribute("data-hands", "1")
    assert [h.raw for h in Hand.objects.filter(session=russian_table)] == [DEAL_1]

    # Deal 2: старшая is known now. The phone loses the network and the page is opened again: the service
    # worker's copy comes up in Russian (the page and the catalog as last served); the deal waits, the
    # banner says so, and it is sent when the network returns.
    expect(page.locator("#deal-title")).to_have_text("Сдача 2")
    expect(page.locator("#deal-belle")).to_have_text("старшая ♠")
    expect(page.locator("#undo")).to_have_text("Отменить сдачу 1")
    kept_in_russian(page, russian_table, "Записать сдачу %(n)s")
    page.context.set_offline(True)
    net.cut()
    page.reload()
    expect(page.locator("#scorer")).to_have_attribute("data-state", "ready")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("#banner")).to_contain_text("Нет сети: сдачи хранятся на этом телефоне")
    expect(page.locator("#deal-title")).to_have_text("Сдача 2")
    scorer.enter(DEAL_2)
    expect(page.locator("#preview")).to_have_text(
        "Без сети нет предпросмотра: сервер проверит и рассчитает сдачу при отправке."
    )
    expect(page.locator("#record")).to_have_text("Записать сдачу 2")
    scorer.record()
    expect(page.locator("#confirmation")).to_have_text("Сдача 2 хранится на этом телефоне и ждёт отправки.")
    expect(page.locator("#banner")).to_have_text("Нет сети: 1 сдача ждёт отправки (2), хранится на этом телефоне.")
    expect(page.locator("#queue-badge")).to_have_text("⟳ ждут: 1")
    expect(page.locator("#balances-note")).to_have_text(  # the balances' age said under them, not in the banner
        "После сдачи 1: 1 сдача, ждущая отправки, ещё не учтена."
        " Счёт — такой, каким этот телефон видел его в последний раз."
    )
    screenshot(page, "scorer-russian-offline")
    assert latin_words(page.locator("#scorer").inner_text()) == []
    net.restore()
    page.context.set_offline(False)
    expect(page.locator("#scorer")).to_have_attribute("data-waiting", "0", timeout=20_000)
    expect(page.locator("#confirmation")).to_contain_text("Сдача 2 записана: ")
    expect(page.locator("#scorer")).to_have_attribute("data-hands", "2")
    assert [h.raw for h in Hand.objects.filter(session=russian_table).order_by("number")] == [DEAL_1, DEAL_2]
    assert len(net.posted(f"/api/v1/sessions/{russian_table.pk}/hands/")) == 2  # each deal sent once
    balances = settle({**russian_sheet(russian_table), "hands": [DEAL_1, DEAL_2]})["balances"]
    assert scorer.balances() == balances

    page.locator("#deals summary").click()
    expect(page.locator("#deal-list li").first).to_contain_text("сдаёт Глеб: Борис")  # deal 2 dealt by seat 3
    expect(page.locator("#deal-list li").first).to_contain_text("4 взятки")  # 1 взятка, 2–4 взятки, 5 взяток
    expect(page.locator('#deal-list button[data-amend="2"]')).to_have_text("Исправить")
    buttons = [b for b in page.locator("#scorer button:visible").all_inner_texts() if b.strip()]
    assert buttons and [b for b in buttons if latin_words(b)] == []  # no English button label left
    assert page.errors == []


def russian_sheet(session: Session) -> dict[str, Any]:
    return selectors.session_sheet(session=fresh(session))
