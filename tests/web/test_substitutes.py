"""The substitute's page (issue 37): reached from the scorer's page by scorers and above, a member or a
guest seated from the next deal, refusals beside their field, a second tap of the same form seating
nobody twice; the settlement page shows each player-stint's own deals and money."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Club, Player, SeatChange, Session
from ledger.services.clubs import player_create
from ledger.services.substitutions import seat_substitute
from tests.ledger_fixtures import AMERICAN_HANDS, record_all
from tests.money.helpers import close

pytestmark = pytest.mark.django_db


def form_key(page: str) -> str:
    found = re.search(r'name="key" value="([0-9a-f-]+)"', page)
    assert found is not None
    return found.group(1)


def test_a_scorer_seats_a_member_from_the_scorer_page_once(
    client_for: Callable[[Any], Client], scorer: Any, admin: Any, session: Session, club: Club
) -> None:
    eve = player_create(actor=admin, club_id=club.pk, name="Eve")
    record_all(admin, session, AMERICAN_HANDS[:2])
    web = client_for(scorer)
    assert 'id="substitute-link"' in web.get(reverse("web:score", args=[session.pk])).content.decode()
    url = reverse("web:substitute", args=[session.pk])
    page = web.get(url).content.decode()
    assert "Seat 2: Ben leaves" in page and ">Eve</option>" in page and "deal 3" in page
    body = {"key": form_key(page), "number": "3", "seat": "1", "player": str(eve.pk), "guest": ""}
    answer = web.post(url, body)
    assert answer.status_code == 302 and answer["Location"] == reverse("web:score", args=[session.pk])
    assert web.post(url, body).status_code == 302  # the same form tapped twice: one substitution
    assert list(SeatChange.objects.values_list("seat", "player__name", "from_hand")) == [(1, "Eve", 3)]
    page = web.get(url).content.decode()
    assert "Eve at seat 2 from deal 3" in page and "Seat 2: Eve leaves" in page


def test_refusals_are_said_beside_their_field_and_a_player_cannot_reach_the_page(
    client_for: Callable[[Any], Client], player_user: Any, admin: Any, session: Session
) -> None:
    web = client_for(admin)
    url = reverse("web:substitute", args=[session.pk])
    first = web.post(url, {"seat": "1", "guest": "Quinn"})  # before the first deal
    assert first.status_code == 400 and "opening the table again" in first.content.decode()
    record_all(admin, session, AMERICAN_HANDS[:1])
    ann = Player.objects.get(name="Ann")
    seated = web.post(url, {"seat": "1", "player": str(ann.pk)})
    assert seated.status_code == 400 and "Ann is already seated at this table" in seated.content.decode()
    assert client_for(player_user).get(url).status_code == 403


def test_the_settlement_page_shows_each_stint(
    client_for: Callable[[Any], Client], admin: Any, session: Session
) -> None:
    record_all(admin, session, AMERICAN_HANDS[:2])
    seat_substitute(actor=admin, session_id=session.pk, seat=1, name="Quinn")
    record_all(admin, session, AMERICAN_HANDS[2:])
    closed = close(admin, session)
    page = client_for(admin).get(reverse("web:settlement", args=[session.pk])).content.decode()
    assert "Ben, deals 1–2" in page and "Quinn, from deal 3" in page
    sheet = client_for(admin).get(reverse("web:sheet", args=[session.pk])).content.decode()
    assert "Quinn at seat 2 from deal 3" in sheet
    follow = client_for(admin).get(reverse("web:follow", args=[session.pk])).content.decode()
    assert "Quinn" in follow  # the followers see who sits now
    quinn = Player.objects.get(name="Quinn")
    own = client_for(admin).get(reverse("web:player", args=[quinn.pk])).content.decode()
    assert f"/sessions/{session.pk}/" in own  # the substitute's page lists the table he sat at
    assert page.count('data-seat="') >= 5
    assert len(closed.closing["stints"]) == 5
