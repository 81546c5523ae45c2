"""Drives the scorer page the way a scorer's thumb does, counting every tap (Record included).

A field already showing the wanted value (preselected, or filled from another choice) costs nothing:
the driver taps only what differs, in the order the form shows its rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from ledger.models import Session
from tests.browser.conftest import TIMEOUT_MS

ORDER = (
    "bidder",
    "bid",
    "trump",
    "turned",
    "ace_turned",
    "partner",
    "jack",
    "tricks",
    "honours",
    "last_trick",
    "conceded",
    "revoke",
)


class Scorer:
    def __init__(self, page: Any, touch: bool = False) -> None:
        self.page = page
        self.touch = touch
        self.taps = 0
        self.swipes = 0
        self.swiped: list[str] = []  # what each swipe was for

    def open(self, session: Session) -> Scorer:
        self.page.goto(f"/sessions/{session.pk}/score/")
        expect(self.page.locator("#scorer")).to_have_attribute("data-state", "ready")
        return self

    def tap(self, selector: str) -> None:
        """A tap; a target not wholly in view (under the pinned bar, or off the screen) costs a swipe first."""
        locator = self.page.locator(selector)
        seen = self.in_view(selector)
        if not seen["in_view"]:
            self.swipes += 1
            self.swiped.append(f"{selector} {seen}")
            locator.scroll_into_view_if_needed()
        if self.touch:
            locator.tap()
        else:
            locator.click()
        self.taps += 1

    def in_view(self, selector: str) -> dict[str, Any]:
        """Whether the target is wholly on the screen and, unless it is in the pinned bar, above it, judged as
        a scorer looks before tapping: once the target is shown and the page stands still (its box and the
        bar's unchanged over three frames, at most 2 s). The target is looked up afresh at each frame: a
        render replaces the form's buttons with equal new ones, and the element found before it then reads
        as a box of height 0 (CI, 2026-12-02: counted as swipes under load, never a target a user missed).
        The answer says what was seen, for a failing test's message."""
        return dict(
            self.page.evaluate(
                """async ([selector, shownWithin]) => {
                    const bar = document.getElementById('deal-bar');
                    const find = () => [...document.querySelectorAll(selector)]
                        .find(e => e.getBoundingClientRect().height > 0) || null;
                    const look = () => {
                        const e = find();
                        if (!e) return null;
                        const box = e.getBoundingClientRect();
                        const under = bar && !bar.hidden && !bar.contains(e) ? bar.offsetHeight : 0;
                        return [box.top, box.bottom, box.height, under, window.scrollY];
                    };
                    const frame = () => new Promise(done => requestAnimationFrame(() => done()));
                    // Shown first (as Playwright's own tap waits for it), then still.
                    for (const end = Date.now() + shownWithin; !look() && Date.now() < end; ) await frame();
                    let seen = look(), still = 0;
                    for (const end = Date.now() + 2000; still < 3 && Date.now() < end; ) {
                        await frame();
                        const now = look();
                        still = seen && now && now.every((v, i) => v === seen[i]) ? still + 1 : 0;
                        seen = now;
                    }
                    if (!seen) return {in_view: false, shown: false};
                    const [top, bottom, height, under, scrollY] = seen;
                    return {in_view: top >= 0 && bottom <= window.innerHeight - under + 0.5,
                            top, bottom, height, under, scrollY, still, inner: window.innerHeight};
                }""",
                [selector, TIMEOUT_MS],
            )
        )

    def bar_in_view(self) -> bool:
        """Whether the pinned bar's box is inside the viewport."""
        return bool(
            self.page.evaluate(
                """() => {
                    const box = document.getElementById('deal-bar').getBoundingClientRect();
                    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
                        && box.left >= 0 && box.right <= window.innerWidth;
                }"""
            )
        )

    def pressed(self, group: str) -> str | None:
        """The value pressed in a row, read in one step: a render between two reads would replace the row."""
        value = self.page.evaluate(
            'g => document.querySelector(`[data-group="${g}"] button[aria-pressed="true"]`)?.dataset.value ?? null',
            group,
        )
        return None if value is None else str(value)

    def options(self, group: str) -> list[str]:
        """The values the form offers in a row of buttons, in its order."""
        buttons = self.page.locator(f'[data-group="{group}"] button')
        return [str(v) for v in buttons.evaluate_all("els => els.map(e => e.dataset.value)")]

    def offers(self, group: str, value: str) -> bool:
        return self.page.locator(f'[data-group="{group}"] button[data-value="{value}"]').count() > 0

    def choose(self, group: str, value: Any) -> None:
        if self.pressed(group) != str(value):
            if self.page.locator(f'[data-group="{group}"][data-folded="true"]').count():
                self.tap(f'[data-group="{group}"] button')  # a folded bid row: one tap shows every bid again
            self.tap(f'[data-group="{group}"] button[data-value="{value}"]')

    def visible(self, name: str) -> bool:
        return self.page.locator(f'.frow[data-field="{name}"]').is_visible()

    def enter(self, hand: dict[str, Any]) -> None:
        """Enter `hand`, Record not tapped, once the form is free: while the last deal is on its way the form
        still shows it (aria-busy), as a scorer sees "Recording deal N…"."""
        page = self.page
        expect(page.locator("#hand-form")).not_to_have_attribute("aria-busy", "true")
        for name in ORDER:
            if name == "bid":
                self.choose("bid", hand["bid"])
                continue
            if name == "tricks":
                if "tricks" in hand:
                    self.count(hand)
                continue
            if name == "conceded":
                if hand.get("conceded"):  # how the deal ended: the adversaries concede, or the bidder pays instead
                    self.choose("conceded", "bidder" if hand["conceded"] == "bidder" else "conceded")
                continue
            if name == "ace_turned":
                if hand.get("ace_turned"):
                    self.choose("ace_turned", "yes")
                continue
            if name not in hand:
                continue
            if (
                name == "trump"
                and hand.get("turned") == hand["trump"]
                and self.offers("trump", "petite:" + hand["trump"])
            ):
                self.choose("trump", "petite:" + hand["trump"])  # in petite: the trump and the turned card at once
                continue
            rare = name == "revoke" or (name == "turned" and not self.visible("turned"))
            if rare and not page.locator("#more-fields").get_attribute("open"):
                self.tap("#more-summary")
            self.choose(name, hand[name])

    def count(self, hand: dict[str, Any]) -> None:
        """The count pad: one tap per seat it asks, while the seat's count is still wanted."""
        page = self.page
        wanted = hand["tricks"]
        for _ in range(4):
            active = page.locator(".pad-seat.active")
            if not active.count():
                break
            seat = int(active.get_attribute("data-seat"))
            done = [int(s) for s in page.locator(".pad-seat.done").evaluate_all("els => els.map(e => e.dataset.seat)")]
            if self.optional_rest() and all(wanted[s] == 0 for s in range(4) if s not in done):
                break  # a misère: the bidder's count is enough, the others took none worth counting
            self.tap(f'#pad-keys button[data-count="{wanted[seat]}"]')
        got = [
            int(v)
            for v in page.locator("#pad-seats output").evaluate_all(
                "els => els.map(e => e.textContent === '·' ? 0 : Number(e.textContent))"
            )
        ]
        seats = page.locator("#pad-seats .pad-seat")
        order = [int(s) for s in seats.evaluate_all("els => els.map(e => e.dataset.seat)")]
        assert {s: got[i] for i, s in enumerate(order)} == dict(enumerate(wanted)), (got, order, wanted)

    def optional_rest(self) -> bool:
        """Whether Record is already enabled (a misère needs only the bidder's count)."""
        return self.page.locator("#record").is_enabled()

    def record(self) -> None:
        self.tap("#record")

    def entered(self) -> int:
        """How many deals this page has recorded or queued (by the Record button or by themselves)."""
        return int(self.page.locator("#scorer").get_attribute("data-entered") or 0)

    def wait_recorded(self, number: int) -> None:
        expect(self.page.locator("#confirmation")).to_contain_text(f"Deal {number} recorded:")
        expect(self.page.locator("#scorer")).to_have_attribute("data-hands", str(number))

    def preview_deltas(self, hand: dict[str, Any]) -> list[int]:
        """The deltas the preview shows, once it is the preview of `hand`."""
        self.wait_preview(hand)
        return [
            int(v) for v in self.page.locator("#preview .deltas .num").evaluate_all("els => els.map(e => e.dataset.n)")
        ]

    def wait_preview(self, hand: dict[str, Any]) -> None:
        self.page.wait_for_function(
            """exp => {
                const h = document.querySelector('#preview').dataset.hand;
                if (!h) return false;
                const got = JSON.parse(h);
                const keys = Object.keys(exp);
                return keys.length === Object.keys(got).length
                    && keys.every(k => JSON.stringify(got[k]) === JSON.stringify(exp[k]));
            }""",
            arg=hand,
        )

    def bar_deltas(self) -> list[int]:
        """The deltas the pinned bar shows."""
        numbers = self.page.locator("#bar-pays .deltas .num")
        return [int(v) for v in numbers.evaluate_all("els => els.map(e => e.dataset.n)")]

    def balances(self) -> list[int]:
        return [int(v) for v in self.page.locator("#balances .num").evaluate_all("els => els.map(e => e.dataset.n)")]

    def queue(self) -> list[dict[str, Any]]:
        return json.loads(self.page.evaluate("key => localStorage.getItem(key) || '[]'", self.queue_key))

    @property
    def queue_key(self) -> str:
        return "clubscore.queue." + self.page.url.rstrip("/").split("/")[-2]


def bidder_dropped(posted: list[dict[str, Any]] | None = None) -> Callable[[Any], None]:
    """A route that alters every deal posted on its way (its bidder dropped), so that the server refuses it
    with the form still right; `posted` collects what the page sent."""

    def route(route: Any) -> None:
        if route.request.method == "POST":
            body = json.loads(route.request.post_data)
            if posted is not None:
                posted.append(dict(body))
            body.pop("bidder")
            route.continue_(post_data=json.dumps(body))
        else:
            route.continue_()

    return route
