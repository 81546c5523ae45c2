"""Browser tests: Playwright driving Debian's chromium against pytest-django's live server.

`bin/setup` installs Debian's chromium headless shell (package chromium-headless-shell, the same Blink
and V8 as /usr/bin/chromium, built from the same source without the browser's windowing shell); when it
is still absent the browser tests fail, saying so, rather than skip. No browser is ever downloaded.
`CHROMIUM=/usr/bin/chromium` runs them in the full browser instead. Screenshots go to
test-artifacts/screenshots/.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.network import PhoneNetwork
from tests.ledger_fixtures import *  # noqa: F403
from tests.ledger_fixtures import PASSWORD

# Playwright's sync API keeps an event loop in this thread; the test's own ORM calls are synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# The headless shell, not the full browser: what Playwright itself runs headless, and on this 2-core
# machine a fifth of the full browser's CPU for a page opened and logged in (2.1 s against 11.6 s for
# ten), 0.57 of it over tests/browser/test_scorer.py; the browser tests' chromium was the largest CPU
# user of CI, 533 s of about 1,290 (docs/decisions.md, "The browser tests run Debian's headless shell").
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(settings.BASE_DIR) / "test-artifacts" / "screenshots"
PHONE = {"width": 360, "height": 740}
TIMEOUT_MS = 15_000
# Playwright's `expect` waits up to 5 s by default, its actions up to TIMEOUT_MS (each context's default
# below): CI runs these tests beside passes that keep both cores busy (.ci/run), where a page can take
# more than 5 s to show what a test waits for. A wait ends as soon as its condition holds, so a longer
# limit weakens nothing; a test that times its own waits (the table's WITHIN) still gives its own limit.
expect.set_options(timeout=TIMEOUT_MS)


# Every module here starts with: pytestmark = BROWSER
BROWSER = [pytest.mark.browser]


@pytest.fixture(autouse=True)
def _pages_do_background_work_in_process(background_work_in_process: None) -> None:
    """The books pages show money that a close's follow-up posts: done in process here."""


@pytest.fixture(autouse=True)
def _short_heartbeats(settings: Any) -> None:
    """A live stream (the scorer, follow and board pages hold one) notices a closed page only at its next
    heartbeat, and `settle_requests` waits for its thread before the database is flushed: at the
    production 15 s that wait hit its 10 s limit after every test that opened a stream (step 1 of CI
    went from 581 s to over 17 min). Short here; nothing in a test waits for a heartbeat."""
    settings.LIVE_HEARTBEAT_SECONDS = 0.5


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail(
            f"Debian's chromium is not installed at {CHROMIUM}: run bin/setup (apt-get install chromium-headless-shell)"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any, live_server: Any) -> Iterator[Callable[..., Any]]:
    """A fresh browser context (its own cookies and localStorage) per call: a phone, by default."""
    contexts = []

    def make(
        viewport: dict[str, int] | None = None,
        touch: bool = False,
        proxy: dict[str, str] | None = None,
        service_workers: str = "allow",
    ) -> Any:
        """`service_workers="block"`: the page's reads go to the network itself, where `page.route` sees
        them (the scorer's service worker answers its reads otherwise, past the page's routes)."""
        context = browser.new_context(
            service_workers=service_workers,
            viewport=viewport or PHONE,
            base_url=live_server.url,
            locale="en-US",
            has_touch=touch,
            is_mobile=touch,
            proxy=proxy,
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    settle_requests()


def settle_requests(timeout: float = 10.0) -> None:
    """Wait until the live server has answered the requests a closed page left in flight (a preview, a
    poll): the database is flushed next, under a request that would otherwise read half of it or hold
    the flush up. (In Django's shared-cache memory database it failed the flush and every test after it
    on "database table is locked"; the test database is a file now, clubscore/settings_for_tests.py.)"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any("process_request_thread" in t.name for t in threading.enumerate()):
            return
        time.sleep(0.02)


@pytest.fixture
def phone_network(live_server: Any) -> Iterator[Callable[[], PhoneNetwork]]:
    """Make a phone's own network to the live server, which a test can cut (one per browser context)."""
    networks: list[PhoneNetwork] = []

    def make() -> PhoneNetwork:
        networks.append(PhoneNetwork(live_server.url))
        return networks[-1]

    yield make
    for network in networks:
        network.close()


def login(page: Any, username: str, to: str = "/") -> None:
    page.goto(f"/login/?next={to}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{to}")


def api_get(page: Any, path: str) -> Any:
    """What the API answers this page's user: asked as the page asks, through the live server with the
    page's own login, not with Django's test client logging in a second time from the test's thread
    while the page's requests run (CI once failed there; test_live_server_database.py says why)."""
    response = page.request.get(path)
    assert response.ok, (response.status, response.text())
    return response.json()


def screenshot(page: Any, name: str, full_page: bool = True) -> Path:
    """The whole page, or (`full_page=False`) the screen as the scorer sees it."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    print(f"screenshot: {path}")
    return path
