"""The evening's mail from the settlement page (issue 41): the treasurer closes the evening in the browser;
the real SMTP server of the test (tests/mail/smtp.py) receives one mail for each of the four players in
his language, and the page shows the debtors' payment codes with their exact amounts; the PDF link answers."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from ledger.models import Club, Player
from ledger.services.clubs import club_payment_set, player_mail_set
from tests.browser.conftest import BROWSER, login
from tests.ledger_fixtures import AMERICAN_HANDS, open_session, record_all
from tests.mail.smtp import Inbox, smtp_server

pytestmark = BROWSER

LANGUAGES = {"Ann": "en", "Ben": "fr", "Cleo": "ru", "Dan": "en"}


@pytest.fixture
def mail_inbox(settings: Any) -> Iterator[Inbox]:
    yield from smtp_server(settings)


def test_the_treasurer_closes_and_each_player_gets_his_mail(
    new_page: Any, live_server: Any, mail_inbox: Inbox, treasurer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    club_payment_set(actor=admin, club_id=club.pk, details={"iban": "FR7630006000011234567890189"})
    for p in players:
        player_mail_set(actor=admin, player_id=p.pk, email=f"{p.name.lower()}@example.org", language=LANGUAGES[p.name])
    session = open_session(admin, club, players, stake={"currency": "EUR", "per_counter": "0.10"})
    record_all(admin, session, AMERICAN_HANDS)
    page = new_page()
    login(page, "treasurer", f"/sessions/{session.pk}/settlement/")
    page.locator(".confirm-close input[name=confirm]").check()
    # The close draws each language's sheet and sends four mails in the request (eager Celery, as bin/serve):
    # seconds on a loaded machine, so the click does not wait for the answer and the check waits longer.
    page.locator(".close-form button.primary").click(no_wait_after=True)
    codes = page.locator("#pay-codes figure")
    expect(codes).to_have_count(2, timeout=180_000)  # Ann pays €3.00, Ben €11.50 (worked by hand in tests/mail)
    expect(page.locator('#pay-codes figure[data-amount="300"]')).to_contain_text("Ann")
    expect(page.locator('#pay-codes figure[data-amount="1150"]')).to_contain_text("Ben")
    assert sorted(m["To"] for m in mail_inbox.messages) == sorted(f"{p.name.lower()}@example.org" for p in players)
    assert {m["To"]: m["Content-Language"] for m in mail_inbox.messages} == {
        f"{name.lower()}@example.org": language for name, language in LANGUAGES.items()
    }
    ben = mail_inbox.to("ben@example.org")[0]
    image = next(p for p in ben.walk() if p.get_content_type() == "image/png")
    payload = zxingcpp.read_barcodes(Image.open(io.BytesIO(image.get_content())))[0].text
    assert "\nEUR11.5\n" in payload and payload.endswith(f"Boston #{session.pk} {payload.split()[-2]} Ben")
    pdf = page.request.get(f"/sessions/{session.pk}/settlement.pdf")
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
