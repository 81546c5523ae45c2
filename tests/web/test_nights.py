"""The club night's pages (issue 37): tonight opened from the club page, members checked in there and on
the night's page (a guest by name), the tables drawn with their seat links shown once, who waits, and
the room's settlement with "record" links tied to the night, through the books' payment form."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger import nights
from ledger.models import CheckIn, Club, MoneyTransaction, Night, NightTable, Player
from ledger.money import selectors as money_selectors
from ledger.services.clubs import player_create
from ledger.services.presets import preset_create
from tests.ledger_fixtures import AMERICAN_HANDS, record_all
from tests.money.helpers import close, run_followup

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture
def eight(admin: Any, club: Club) -> list[Player]:
    return [player_create(actor=admin, club_id=club.pk, name=n) for n in NAMES]


def test_the_treasurer_opens_tonight_from_the_club_page_and_a_member_checks_himself_in(
    client_for: Callable[[Any], Client], treasurer: Any, player_user: Any, admin: Any, club: Club
) -> None:
    page = client_for(treasurer).get(reverse("web:club", args=[club.pk])).content.decode()
    assert 'id="night-open"' in page
    answer = client_for(treasurer).post(reverse("web:night-open", args=[club.pk]))
    night = Night.objects.get(club=club)
    assert answer.status_code == 302 and answer["Location"] == reverse("web:night", args=[club.pk, night.pk])
    own = player_create(actor=admin, club_id=club.pk, name="Pat", user=player_user)
    member = client_for(player_user)
    page = member.get(reverse("web:club", args=[club.pk])).content.decode()
    assert 'id="night-open"' not in page and 'id="check-me-in"' in page
    member.post(reverse("web:night-check-in", args=[club.pk, night.pk]), {"player": own.pk})
    assert CheckIn.objects.get(night=night).player == own
    page = member.get(reverse("web:club", args=[club.pk])).content.decode()
    assert 'id="checked-in"' in page and 'id="check-me-in"' not in page
    night_page = member.get(reverse("web:night", args=[club.pk, night.pk])).content.decode()
    assert 'id="here-list"' not in night_page  # who is here is the treasurer's


def test_a_guest_is_checked_in_by_name_and_a_look_alike_is_refused_beside_the_field(
    client_for: Callable[[Any], Client], treasurer: Any, club: Club, eight: list[Player]
) -> None:
    night = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    browser = client_for(treasurer)
    address = reverse("web:night-check-in", args=[club.pk, night.pk])
    assert browser.post(address, {"guest": "Quinn"}).status_code == 302
    refused = browser.post(address, {"guest": "Аnn"})  # a Cyrillic А
    assert refused.status_code == 400
    assert 'aria-invalid="true"' in refused.content.decode()
    assert [c.player.name for c in CheckIn.objects.filter(night=night)] == ["Quinn"]


def test_tables_are_drawn_with_their_seat_links_and_the_last_arrival_waits(
    client_for: Callable[[Any], Client], treasurer: Any, club: Club, eight: list[Player], admin: Any
) -> None:
    night = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    browser = client_for(treasurer)
    for p in eight:
        browser.post(reverse("web:night-check-in", args=[club.pk, night.pk]), {"player": p.pk})
    browser.post(reverse("web:night-check-in", args=[club.pk, night.pk]), {"guest": "Ida"})
    before = browser.get(reverse("web:night", args=[club.pk, night.pk])).content.decode()
    assert 'id="draw-form"' in before and before.index("Ann") < before.index("Hal") < before.index("Ida")
    drawn = browser.post(
        reverse("web:night-draw", args=[club.pk, night.pk]),
        {"method": "lot", "variant": "american", "stake_currency": "EUR", "stake_per_counter": "0.05"},
    )
    page = drawn.content.decode()
    assert drawn.status_code == 200 and drawn["Cache-Control"] == "no-store"
    assert page.count('class="night-table"') == 2
    assert page.count('href="http://testserver/s/') == 8  # a link for each seat
    assert 'id="waiting-list"' in page and "Ida" in page.split('id="waiting-list"')[1]
    assert Night.objects.get(pk=night.pk).draw_seed is not None
    again = browser.get(reverse("web:night", args=[club.pk, night.pk])).content.decode()
    assert "/s/" not in again  # the links are shown once
    assert 'id="draw-seed"' in again


def test_a_refused_draw_says_why_beside_its_field(
    client_for: Callable[[Any], Client], treasurer: Any, club: Club, eight: list[Player]
) -> None:
    night = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    browser = client_for(treasurer)
    address = reverse("web:night-draw", args=[club.pk, night.pk])
    few = browser.post(address, {"method": "lot", "variant": "american"})
    assert few.status_code == 400 and "a table needs four players checked in" in few.content.decode()
    half = browser.post(address, {"method": "lot", "variant": "american", "stake_currency": "EUR"})
    assert half.status_code == 400 and "or neither" in half.content.decode()
    assert not NightTable.objects.exists()


def test_a_scorer_may_not_draw_and_a_stranger_sees_no_night(
    client_for: Callable[[Any], Client], scorer: Any, treasurer: Any, club: Club, other_admin: Any
) -> None:
    night = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    draw = reverse("web:night-draw", args=[club.pk, night.pk])
    assert client_for(scorer).post(draw, {"variant": "american"}).status_code == 403
    assert client_for(other_admin).get(reverse("web:night", args=[club.pk, night.pk])).status_code == 404
    assert client_for(treasurer).get(reverse("web:night", args=[club.pk + 1, night.pk])).status_code == 404


def test_the_rooms_settlement_records_each_payment_tied_to_the_night(
    client_for: Callable[[Any], Client], treasurer: Any, club: Club, eight: list[Player]
) -> None:
    night = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    for p in eight:
        nights.check_in(actor=treasurer, night_id=night.pk, player_id=p.pk)
    nights.night_draw(
        actor=treasurer, night_id=night.pk, variant="american", stake={"currency": "USD", "per_counter": "0.01"}, seed=4
    )
    browser = client_for(treasurer)
    settlement = reverse("web:night-settlement", args=[club.pk, night.pk])
    assert "every table is closed" in browser.get(settlement).content.decode()
    for table in NightTable.objects.filter(night=night):
        record_all(treasurer, table.session, AMERICAN_HANDS)
        run_followup(close(treasurer, table.session))
    page = browser.get(settlement).content.decode()
    room = money_selectors.night_settlement(night_id=night.pk)
    assert page.count('class="no-print record-link"') == len(room.transfers) > 0
    for t in room.transfers:
        link = f"?from={t.payer}&amp;to={t.payee}&amp;cents={t.left}&amp;currency=USD&amp;night={night.pk}"
        assert link in page
        form = browser.get(reverse("web:books", args=[club.pk]) + link.replace("&amp;", "&")).content.decode()
        assert 'id="pay-night"' in form and f'name="night" value="{night.pk}"' in form
        posted = browser.post(
            reverse("web:books", args=[club.pk]),
            {
                "action": "pay",
                "from": t.payer,
                "to": t.payee,
                "currency": "USD",
                "amount": f"{t.cents / 100:.2f}",
                "status": "paid",
                "night": night.pk,
            },
        )
        assert posted.status_code == 302
    assert MoneyTransaction.objects.filter(for_night=night).count() == len(room.transfers)
    done = browser.get(settlement).content.decode()
    assert 'class="no-print record-link"' not in done and done.count('class="paid"') == len(room.transfers)


def test_the_draw_form_offers_the_clubs_presets_and_opens_the_tables_from_one(
    client_for: Callable[[Any], Client], treasurer: Any, club: Club, eight: list[Player]
) -> None:
    preset = preset_create(actor=treasurer, club_id=club.pk, name="Friday", variant="russian", rules={})
    night = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    for p in eight[:4]:
        nights.check_in(actor=treasurer, night_id=night.pk, player_id=p.pk)
    browser = client_for(treasurer)
    page = browser.get(reverse("web:night", args=[club.pk, night.pk])).content.decode()
    assert 'id="draw-preset"' in page and "Friday" in page
    drawn = browser.post(reverse("web:night-draw", args=[club.pk, night.pk]), {"preset": preset.pk, "method": "lot"})
    assert drawn.status_code == 200
    assert NightTable.objects.get(night=night).session.variant == "russian"
