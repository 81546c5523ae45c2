"""A night is paid once, on the pages (docs/decisions.md, "Paid once"): once the room has a payment, a
table's settlement and the books' form for its transfer offer no "record" but a sentence naming the
night with a link to its settlement; a table paid on its own first is marked on the night's settlement,
whose transfers leave it out."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.formats import date_format

from ledger.models import Club, Night, Player, Session
from ledger.money import selectors as money_selectors
from tests.money.test_night_paid_once import own_transfers, pay, played
from tests.money.test_nights import night, nine

pytestmark = pytest.mark.django_db

__all__ = ["night", "nine"]  # fixtures of tests/money/test_nights, used here by name


def test_a_table_of_a_paid_night_says_where_to_pay_instead_of_a_record_link(
    client_for: Callable[[Any], Client], treasurer: Any, club: Club, night: Night, nine: list[Player]
) -> None:
    tables = played(treasurer, night, nine)
    browser = client_for(treasurer)
    table_page = reverse("web:settlement", args=[tables[1].pk])
    assert 'class="no-print record-link"' in browser.get(table_page).content.decode()  # before: its own links
    t = money_selectors.night_settlement(night_id=night.pk).transfers[0]
    pay(treasurer, club, t.payer, t.payee, t.cents, night_id=night.pk)

    night_url = reverse("web:night-settlement", args=[club.pk, night.pk])
    date = date_format(night.date, "DATE_FORMAT")
    page = browser.get(table_page).content.decode()
    assert "record-link" not in page
    said = re.search(r'<p class="notice" id="paid-by-night"[^>]*>(.*?)</p>', page, re.S)
    assert said is not None, page
    assert f"Table 2 is paid with the room of the night of {date}" in said.group(1)
    assert f'href="{night_url}"' in said.group(1)

    payer, payee, cents = own_transfers(tables[1])[0]
    link = f"?from={payer}&to={payee}&cents={cents}&currency=USD&session={tables[1].pk}"
    books = browser.get(reverse("web:books", args=[club.pk]) + link).content.decode()
    assert 'id="payment-form"' not in books and 'id="paid-by-night"' in books
    assert f'href="{night_url}"' in books and f"the night of {date}" in books


def test_a_form_sent_before_the_room_was_paid_is_refused_and_says_where_to_pay(
    client_for: Callable[[Any], Client], treasurer: Any, club: Club, night: Night, nine: list[Player]
) -> None:
    tables = played(treasurer, night, nine)
    t = money_selectors.night_settlement(night_id=night.pk).transfers[0]
    pay(treasurer, club, t.payer, t.payee, t.cents, night_id=night.pk)  # from another phone, meanwhile
    payer, payee, cents = own_transfers(tables[0])[0]
    posted = client_for(treasurer).post(
        reverse("web:books", args=[club.pk]),
        {
            "action": "pay",
            "from": payer,
            "to": payee,
            "currency": "USD",
            "amount": f"{cents / 100:.2f}",
            "status": "paid",
            "session": tables[0].pk,
        },
    )
    page = posted.content.decode()
    assert posted.status_code == 400 and 'id="payment-form"' not in page and 'id="paid-by-night"' in page
    assert not Session.objects.get(pk=tables[0].pk).payments_for.exists()


def test_the_nights_settlement_says_which_table_is_paid_on_its_own(
    client_for: Callable[[Any], Client], treasurer: Any, club: Club, night: Night, nine: list[Player]
) -> None:
    first, _second = played(treasurer, night, nine)
    payer, payee, cents = own_transfers(first)[0]
    pay(treasurer, club, payer, payee, cents, session_id=first.pk)
    page = client_for(treasurer).get(reverse("web:night-settlement", args=[club.pk, night.pk])).content.decode()
    said = re.search(r'<p class="notice" id="room-alone">(.*?)</p>', page, re.S)
    assert said is not None and "Table 1 · game 1 has a payment recorded on its own settlement" in said.group(1)
    assert page.count('class="paid-alone"') == 1
    room = money_selectors.night_settlement(night_id=night.pk)
    assert page.count('class="no-print record-link"') == len(room.transfers) > 0
