"""The club night's page on a phone of 360 and 390 px, in English, French and Russian: the tables just
drawn (their numbered seats, the seat links shown once), the waiting line and the door, with no text
over other text, no seat number over a name ("Member 05" at 360 px once sat under the next seat's
number), and nothing cut at the screen's edge or under an ellipsis."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger import nights
from ledger.models import Club
from ledger.services.clubs import player_create
from ledger.services.presets import preset_create
from tests.browser.conftest import BROWSER, login, screenshot

pytestmark = BROWSER

# Every text's boxes (one per line of it) and every list marker's box, in page coordinates. An outside
# marker ("1.") sits left of its item's content box; its width is the marker's text in the item's font.
BOXES = """(width) => {
    const boxes = [];
    const root = document.querySelector('main');
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.data.trim() || node.parentElement.closest('details:not([open]), svg')) continue;
        if (node.parentElement.offsetParent === null) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
            if (r.width > 0.5) boxes.push({what: node.data.trim().slice(0, 24), el: node.parentElement,
                left: r.left, right: r.right, top: r.top, bottom: r.bottom});
        }
    }
    const canvas = document.createElement('canvas').getContext('2d');
    root.querySelectorAll('li').forEach(li => {
        const s = getComputedStyle(li);
        if (li.offsetParent === null || s.display !== 'list-item' || s.listStyleType === 'none') return;
        if (s.listStylePosition !== 'outside') return;
        const n = Array.from(li.parentElement.children).indexOf(li) + 1;
        canvas.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
        const w = canvas.measureText(li.parentElement.tagName === 'OL' ? `${n}. ` : '\u2022 ').width;
        const r = li.getBoundingClientRect();
        const left = r.left + parseFloat(s.borderLeftWidth) + parseFloat(s.paddingLeft);
        const firstLine = parseFloat(s.lineHeight) || parseFloat(s.fontSize) * 1.2;
        boxes.push({what: `marker ${n} of ${li.textContent.trim().slice(0, 16)}`, el: li,
            left: left - w, right: left, top: r.top, bottom: r.top + firstLine});
    });
    const out = [];
    for (const b of boxes) {
        if (b.left < -0.5 || b.right > width + 0.5) out.push(`${b.what} cut at the edge`);
    }
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j];
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;  // a marker and its own item's text
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 1 && y > 1) out.push(`${a.what} over ${b.what}`);
    }
    root.querySelectorAll('*').forEach(e => {
        if (e.offsetParent === null) return;
        const s = getComputedStyle(e);
        if ((s.overflowX === 'hidden' || s.textOverflow === 'ellipsis') && e.scrollWidth > e.clientWidth + 1)
            out.push(`${e.textContent.trim().slice(0, 24)} cut`);
    });
    if (document.documentElement.scrollWidth > width) out.push('the page scrolls sideways');
    return out;
}"""


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_night_page_on_a_phone_has_nothing_over_anything(
    new_page: Any, live_server: Any, treasurer: Any, admin: Any, club: Club, language: str, width: int
) -> None:
    preset_create(actor=admin, club_id=club.pk, name="Tuesdays", variant="french", rules={})
    night = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    for i in range(1, 10):  # nine: two tables and one waiting
        member = player_create(actor=admin, club_id=club.pk, name=f"Member {i:02d}")
        nights.check_in(actor=treasurer, night_id=night.pk, player_id=member.pk)
    page = new_page({"width": width, "height": 780}, touch=True)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    login(page, "treasurer", f"/clubs/{club.pk}/nights/{night.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.click("#draw-button")  # drawn here, so the seat links are on the page (shown once)
    expect(page.locator(".night-table")).to_have_count(2)
    expect(page.locator(".night-table .seat-links li")).to_have_count(8)
    page.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")
    screenshot(page, f"night-{width}-{language}")
    problems = page.evaluate(BOXES, width)  # the phone's width: a wider page zooms out
    assert problems == [], problems
    assert page.errors == []
