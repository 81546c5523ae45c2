"""The seasons' pages and the calendar of club nights (issue 41): the standings page shows which evenings
count and which are dropped (links to the sessions), the rules in words, a note after an import; the
calendar link is shown once, its feed parses back as iCalendar with the club's next nights, and a
revoked link or a member who left gets nothing."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from icalendar import Calendar

from ledger import nights
from ledger.i18n.account import language_remember
from ledger.models import Club, Membership, Player, Role, Session
from ledger.stats import seasons
from tests.ledger_fixtures import PASSWORD, member
from tests.stats.seasons_data import EVENINGS, import_all, import_evening

pytestmark = pytest.mark.django_db

WINTER = {
    "name": "Winter 2026",
    "starts_on": "2026-01-01",
    "ends_on": "2026-03-31",
    "variants": ["american"],
    "min_evenings": 3,
    "best_of": 5,
}


def client_of(user: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert client.login(username=user.username, password=PASSWORD)
    return client


@pytest.fixture
def evenings(admin: Any, club: Club) -> dict[str, Session]:
    return import_all(admin, club, EVENINGS)


def line_html(page: str, player_id: int) -> str:
    found = re.search(rf'<tr id="line-{player_id}".*?</tr>', page, re.S)
    assert found, player_id
    return found.group(0)


def test_the_standings_page_shows_which_evenings_count(
    admin: Any, club: Club, player_user: Any, evenings: dict[str, Session]
) -> None:
    season = seasons.season_create(actor=admin, club_id=club.pk, **WINTER)
    page = client_of(player_user).get(f"/clubs/{club.pk}/seasons/{season.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    eve_id = Player.objects.get(name="Eve").pk
    line = line_html(html, eve_id)
    # Eve: place 2, six evenings, five counted, 562 (by hand in tests/stats/test_seasons.py).
    assert re.search(r"<td>2</td>", line) and 'data-n="562"' in line
    assert '<td class="n">6</td><td class="n">5</td>' in line
    counting = re.search(r'<ul class="small counting">(.*?)</ul>', line, re.S).group(1)
    dropped = re.search(r'<ul class="small dropped">(.*?)</ul>', line, re.S).group(1)
    assert counting.count("<li>") == 5 and dropped.count("<li>") == 1
    assert f'href="/sessions/{evenings["2026-02-16"].pk}/"' in dropped and 'data-n="-139"' in dropped
    assert f'href="/sessions/{evenings["2026-03-09"].pk}/"' in counting and 'data-n="465"' in counting
    gleb = line_html(html, Player.objects.get(name="Gleb").pk)
    assert "not-qualified" in gleb
    assert "His best 5 evenings count; the others are dropped." in html
    assert "A player needs at least 3 evenings to take a place" in html
    # In French and Russian, the rules in their words.
    french = client_of(player_user, "fr").get(f"/clubs/{club.pk}/seasons/{season.pk}/").content.decode()
    assert "Ses 5 meilleures soirées comptent" in french
    russian = client_of(player_user, "ru").get(f"/clubs/{club.pk}/seasons/{season.pk}/").content.decode()
    assert "Засчитываются его 5 лучших вечеров" in russian


def test_a_note_after_an_import_into_a_stored_season(admin: Any, club: Club, evenings: dict[str, Session]) -> None:
    season = seasons.season_create(actor=admin, club_id=club.pk, **WINTER)
    client = client_of(admin)
    client.get(f"/clubs/{club.pk}/seasons/{season.pk}/")  # ended: stored at this first read
    late = import_evening(admin, club, "2026-03-30", "american-several-pools", ["Gleb", "Ann", "Eve", "Fyodor"])
    html = client.get(f"/clubs/{club.pk}/seasons/{season.pk}/").content.decode()
    notes = re.search(r'<section aria-labelledby="notes-h".*?</section>', html, re.S)
    assert notes, html
    text = notes.group(0)
    assert f'href="/sessions/{late.pk}/"' in text
    assert "Eve:" in text and "562 → 670" in text


def test_define_a_season_by_form_and_refusals(admin: Any, club: Club, player_user: Any) -> None:
    form = {**WINTER, "best_of": "5", "min_evenings": "3", "handicap_percent": "0", "measure": "counters"}
    created = client_of(admin).post(f"/clubs/{club.pk}/seasons/", form)
    assert created.status_code == 302
    bad = client_of(admin).post(f"/clubs/{club.pk}/seasons/", {**form, "name": "Spring", "ends_on": "2025-01-01"})
    assert bad.status_code == 400
    assert "a season ends on or after the day it starts" in bad.content.decode()
    assert client_of(player_user).post(f"/clubs/{club.pk}/seasons/", {**form, "name": "X"}).status_code == 403
    assert 'id="season-form"' not in client_of(player_user).get(f"/clubs/{club.pk}/seasons/").content.decode()
    # Any POST of a player is refused for his role, before his fields or his action are read (issue 41).
    season = created["Location"]
    assert client_of(player_user).post(f"/clubs/{club.pk}/seasons/", {}).status_code == 403
    for action in ({}, {"action": "edit"}, {"action": "store"}):
        assert client_of(player_user).post(season, action).status_code == 403
    assert client_of(player_user).put(season).status_code == 405


def test_the_calendar_feed(admin: Any, club: Club, other_club: Club) -> None:
    treasurer = member(club, admin, "cal-treasurer", Role.TREASURER)
    today = nights.club_today(club)
    for day in (today - dt.timedelta(days=7), today, today + dt.timedelta(days=7)):
        nights.night_open(actor=treasurer, club_id=club.pk, date=day)
    nights.night_open(actor=other_club_admin(other_club), club_id=other_club.pk, date=today)
    client = client_of(treasurer)
    assert 'id="calendar-new"' in client.get(f"/clubs/{club.pk}/").content.decode()
    made = client.post(f"/clubs/{club.pk}/calendar/")
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    url = re.search(r'id="calendar-url" readonly value="([^"]+)"', made.content.decode()).group(1)
    path = url.split("testserver", 1)[1]
    feed = Client().get(path)  # no login
    assert feed.status_code == 200 and feed["Content-Type"].startswith("text/calendar")
    parsed = Calendar.from_ical(feed.content)
    events = [c for c in parsed.walk("VEVENT")]
    assert [e.decoded("dtstart") for e in events] == [today, today + dt.timedelta(days=7)]
    assert all(str(e.get("summary")) == "Club night · Bars Club" for e in events)
    assert str(events[0].get("url")).endswith(
        f"/clubs/{club.pk}/nights/{nights.night_of_today(user=treasurer, club=club).pk}/"
    )
    # A new link revokes the old; revoking leaves none; a member who left gets nothing.
    again = client.post(f"/clubs/{club.pk}/calendar/")
    new_url = re.search(r'id="calendar-url" readonly value="([^"]+)"', again.content.decode()).group(1)
    new_path = new_url.split("testserver", 1)[1]
    assert Client().get(path).status_code == 404
    assert Client().get(new_path).status_code == 200
    client.post(f"/clubs/{club.pk}/calendar/", {"action": "revoke"})
    assert Client().get(new_path).status_code == 404
    third = client.post(f"/clubs/{club.pk}/calendar/")
    third_path = (
        re.search(r'value="(http://testserver[^"]+)"', third.content.decode()).group(1).split("testserver", 1)[1]
    )
    Membership.objects.filter(club=club, user=treasurer).delete()  # he leaves (no service removes a member yet)
    assert Client().get(third_path).status_code == 404


def test_the_feed_speaks_the_members_language(admin: Any, club: Club) -> None:
    nights.night_open(actor=admin, club_id=club.pk)
    client = client_of(admin, "fr")
    language_remember(user=admin, language="fr")
    made = client.post(f"/clubs/{club.pk}/calendar/")
    path = re.search(r'value="http://testserver([^"]+)"', made.content.decode()).group(1)
    event = next(iter(Calendar.from_ical(Client().get(path).content).walk("VEVENT")))
    assert str(event.get("summary")) == "Soirée du club · Bars Club"


def other_club_admin(other_club: Club) -> Any:
    return Membership.objects.get(club=other_club, role=Role.ADMIN).user


def test_store_and_edit_from_the_page(admin: Any, club: Club, treasurer: Any, evenings: dict[str, Session]) -> None:
    season = seasons.season_create(
        actor=admin, club_id=club.pk, **{**WINTER, "ends_on": str(seasons.club_today(club.pk) + dt.timedelta(days=1))}
    )
    client = client_of(treasurer)
    url = f"/clubs/{club.pk}/seasons/{season.pk}/"
    assert "it is stored when the season ends" in client.get(url).content.decode()
    assert client.post(url, {"action": "store"}).status_code == 302
    assert "The table as stored on" in client.get(url).content.decode()
    form = {**WINTER, "ends_on": season.ends_on.isoformat(), "best_of": "4", "min_evenings": "3", "action": "edit"}
    stale = client.post(url, {**form, "version": "9"})
    assert stale.status_code == 400 and "the season is at version 1, not 9" in stale.content.decode()
    assert client.post(url, {**form, "version": "1"}).status_code == 302
    html = client.get(url).content.decode()
    assert "His best 4 evenings count" in html
    assert "the season&#x27;s rules were edited" in html or "the season's rules were edited" in html
    assert client_of(admin).get(url).status_code == 200


def test_a_season_by_money_shows_amounts(admin: Any, club: Club) -> None:
    for day, example in [("2025-06-02", "american-stake-half-cent"), ("2025-06-16", "american-adjustments")]:
        import_evening(admin, club, day, example, ["Ann", "Boris", "Claire", "Denis"])
    season = seasons.season_create(
        actor=admin,
        club_id=club.pk,
        name="June",
        starts_on="2025-06-01",
        ends_on="2025-06-30",
        variants=["american"],
        measure="money",
        currency="USD",
    )
    html = client_of(admin).get(f"/clubs/{club.pk}/seasons/{season.pk}/").content.decode()
    claire = line_html(html, Player.objects.get(name="Claire").pk)
    # Claire: 44 + 181 cents = $2.25, her two evenings $0.44 and $1.81.
    assert 'data-cents="225" data-currency="USD"' in claire
    assert 'data-cents="44"' in claire and 'data-cents="181"' in claire
    assert "money at the close, in USD" in html
