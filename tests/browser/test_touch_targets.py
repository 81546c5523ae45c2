"""Touch targets of at least 44 px on every page, and on the scorer no word broken mid-word, at 360 and
390 px (issue 24). A link inside a sentence is exempt (WCAG 2.5.8's inline exception)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.engine.samples import playable_rules, random_sheet
from ledger.engine.variants import variant_names
from ledger.models import Club, Player, Session
from tests.browser.conftest import BROWSER, login
from tests.browser.scorer_driver import Scorer
from tests.browser.test_a11y import evening  # noqa: F401  (the fixture: an open and a closed session)
from tests.ledger_fixtures import open_session

pytestmark = BROWSER

SMALL = """() => Array.from(document.querySelectorAll('main button, main summary, main a, main label.check'))
    .filter(e => e.offsetParent !== null && !e.closest('p, td.prose'))
    .map(e => [e.textContent.trim().slice(0, 30), Math.round(e.getBoundingClientRect().height),
               Math.round(e.getBoundingClientRect().width)])
    .filter(([, h, w]) => h < 44 || w < 44)"""

# Each word of a button's or label's text on one line: two boxes for one word is a word broken.
BROKEN = """() => {
    const out = [];
    document.querySelectorAll('#scorer button, #scorer .flabel, #deal-bar p').forEach(e => {
        if (e.offsetParent === null) return;
        const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const re = /\\S+/g;
            let m;
            while ((m = re.exec(node.data))) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const tops = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
                if (tops.size > 1) out.push(m[0]);
            }
        }
    });
    return out;
}"""


def test_every_page_has_44_px_targets(new_page: Any, evening: dict[str, Session], club: Club) -> None:  # noqa: F811
    closed = evening["closed"]
    page = new_page({"width": 390, "height": 844}, touch=True)
    login(page, "treasurer", "/")
    for url in ("/", f"/clubs/{club.pk}/", f"/sessions/{closed.pk}/settlement/", f"/clubs/{club.pk}/books/"):
        page.goto(url)
        page.wait_for_load_state("networkidle")
        page.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")
        assert page.evaluate(SMALL) == [], url


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("variant", variant_names())
def test_no_word_is_broken_on_the_scorer(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player], variant: str, width: int
) -> None:
    rules = playable_rules(variant)
    first = random_sheet(variant, random.Random(1), 1, rules=rules, adjust_rate=0)["hands"][0]  # a valid deal 1
    session = open_session(admin, club, players, variant=variant, rules=rules)
    page = new_page({"width": width, "height": 640 if width == 360 else 844}, touch=True)
    login(page, "scorer", f"/sessions/{session.pk}/score/")
    thumb = Scorer(page, touch=True).open(session)
    assert page.evaluate(BROKEN) == []  # every bid shown
    thumb.enter(first)
    expect(page.locator("#record")).to_be_enabled()
    assert page.evaluate(BROKEN) == []  # the whole form and the bar
    assert page.evaluate(SMALL) == []
