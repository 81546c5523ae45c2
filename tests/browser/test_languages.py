"""The scripts' figures and money in French and Russian, in a real browser: what `CS.money` and the counters'
formatter write over the server's text is the server's text (grouping, decimal comma, the currency's sign)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.utils import formats, translation
from playwright.sync_api import expect

from ledger.models import Club
from ledger.services.sessions import session_close
from tests.browser.conftest import BROWSER, login
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, open_session, record_all

pytestmark = BROWSER

SPAN = re.compile(r'<span class="(?:num|money)[^"]*" data-(?:n|cents)="(-?\d+)"[^>]*>([^<]*)</span>')


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_scripts_write_figures_and_money_as_the_server_does(
    new_page: Any, live_server: Any, admin: Any, treasurer: Any, club: Club, players: list[Any], language: str
) -> None:
    """The settlement page's counters and money: the server's text and the script's (which writes them
    again as <html lang> says) are the same, grouping, decimal comma and the currency's sign included."""
    session = open_session(admin, club, players, stake={"currency": "EUR", "per_counter": "12.5"})
    record_all(admin, session, AMERICAN_HANDS)
    session_close(actor=admin, session_id=session.pk, expected_version=fresh(session).version)
    page = new_page()
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    login(page, "treasurer", f"/sessions/{session.pk}/settlement/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    served = page.context.request.get(f"/sessions/{session.pk}/settlement/").text()
    server = [(n, html.unescape(text)) for n, text in SPAN.findall(served)]
    # The script writes each figure afresh (blanked first, so that what is read is the script's own text).
    page.evaluate("""() => {
        document.querySelectorAll('span.num[data-n], span.money[data-cents]').forEach(e => { e.textContent = ''; });
        CS.localise(document);
    }""")
    script = page.locator("span.num[data-n], span.money[data-cents]").evaluate_all(
        "els => els.map(e => [e.dataset.n || e.dataset.cents, e.textContent])"
    )
    assert server and [tuple(x) for x in script] == server
    # among them an amount of thousands of euros: grouped, a decimal comma, the sign after it
    with translation.override(language):
        grouped = str(formats.get_format("THOUSAND_SEPARATOR"))  # the no-break space of Django's formats
    assert grouped.isspace()
    thousands = [text for n, text in server if abs(int(n)) >= 100_000]
    assert any(grouped in text and "," in text and text.endswith("\u00a0€") for text in thousands), thousands


@pytest.mark.parametrize(
    ("language", "rating", "sign"), [("en", "\u22122.2", "."), ("fr", "\u22122,2", ","), ("ru", "\u22122,2", ",")]
)
def test_ratings_and_typed_amounts_as_the_language_writes_them(
    new_page: Any,
    live_server: Any,
    admin: Any,
    treasurer: Any,
    club: Club,
    players: list[Any],
    language: str,
    rating: str,
    sign: str,
) -> None:
    """A rating on the leaderboard (−2,2: the server's minus, not Intl's hyphen) and the amount the books
    put in the payment form from a transfer (1,15: the decimal sign the server reads back)."""
    session = open_session(admin, club, players, stake={"currency": "EUR", "per_counter": "0.05"})
    record_all(admin, session, AMERICAN_HANDS)
    session_close(actor=admin, session_id=session.pk, expected_version=fresh(session).version)
    page = new_page()
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    login(page, "treasurer", f"/clubs/{club.pk}/books/")
    assert page.evaluate("CS.decimal(-2.2, 1)") == rating
    page.locator(".use-transfer").first.click()
    amount = page.locator("#pay-amount").input_value()
    assert re.fullmatch(rf"\d+\{sign}\d\d", amount), amount
