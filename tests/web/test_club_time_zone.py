"""Issue 26, a club's time zone: asked when the club is made (page and API), changed by its admin, and
every time on its pages and in its CSVs is in it; the API stays in UTC. The club here is in Los Angeles:
an evening closed at 23:30 there on 30 November is 07:30 UTC on 1 December."""

from __future__ import annotations

import csv
import io
import re
from html import unescape
from typing import Any

import pytest
from rest_framework.test import APIClient

from ledger import followup, zones
from ledger.models import Club, Player, Role, Session
from ledger.services.clubs import club_create, membership_set, player_create
from ledger.services.sessions import session_import
from ledger.services.table import board_link_issue, seat_link_issue
from tests.ledger_fixtures import example_sheet, fresh, make_user, member, open_session

pytestmark = pytest.mark.django_db

LA = "America/Los_Angeles"


@pytest.fixture
def la_club(admin: Any) -> Club:
    return club_create(actor=admin, name="Venice Beach Club", time_zone=LA)


@pytest.fixture
def late(admin: Any, la_club: Club) -> Session:
    """An evening closed at 23:30 in Los Angeles on 30 November 2025 (07:30 UTC on 1 December)."""
    sheet = example_sheet("american-evening-defaults")
    session = session_import(actor=admin, club_id=la_club.pk, sheet=sheet, closed_at="2025-11-30T23:30:00-08:00")
    followup.followup_run(session_id=session.pk)
    return fresh(session)


def text(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return unescape(re.sub(r"\s+", " ", response.content.decode()))


def test_the_pages_show_the_clubs_local_date_and_time(
    client_for: Any, admin: Any, la_club: Club, late: Session
) -> None:
    client = client_for(admin)
    settlement = text(client.get(f"/sessions/{late.pk}/settlement/"))
    assert "closed 30 Nov 2025 23:30" in settlement and "1 Dec 2025" not in settlement
    assert re.search(r"Closed [^<]* by admin, dated 30 Nov 2025", settlement)
    club_page = text(client.get(f"/clubs/{la_club.pk}/"))
    assert "30 Nov 2025" in club_page and "1 Dec 2025" not in club_page
    assert f'The club\'s times are shown in <span lang="zxx" translate="no">{LA}</span>.' in club_page
    benjamin = Player.objects.get(club=la_club, name="Benjamin")
    statement = text(client.get(f"/players/{benjamin.pk}/statement/"))
    assert "30 Nov 25" in statement and "1 Dec 25" not in statement
    assert "30 Nov 25" in text(client.get(f"/players/{benjamin.pk}/"))
    assert '<meta name="time-zone" content="America/Los_Angeles">' in settlement  # for the scripts' days


def test_a_club_filtered_by_its_local_day_finds_the_late_evening(
    client_for: Any, admin: Any, la_club: Club, late: Session
) -> None:
    page = text(client_for(admin).get(f"/clubs/{la_club.pk}/?from=2025-11-30&to=2025-11-30"))
    assert "1 closed session" in page and f"/sessions/{late.pk}/settlement/" in page


def test_reopening_offers_the_local_date_and_closing_keeps_it(
    client_for: Any, treasurer: Any, admin: Any, la_club: Club, late: Session
) -> None:
    membership_set(actor=admin, club_id=la_club.pk, user=treasurer, role=Role.TREASURER)
    client = client_for(treasurer)
    url = f"/sessions/{late.pk}/settlement/"

    def act(action: str, **fields: str) -> None:
        client.post(url, {"version": fresh(late).version, "action": action, "confirm": "yes", **fields})

    act("reopen")
    assert 'name="played_on" id="played-on" value="2025-11-30"' in client.get(url).content.decode()
    act("close", pools="divide", played_on="2025-11-30")
    assert fresh(late).closed_at == late.closed_at  # the same local day: kept to the second
    act("reopen")
    act("close", pools="divide", played_on="2025-11-29")
    assert "closed 29 Nov 2025 00:00" in text(client.get(url))  # a typed day starts at the club's midnight


def test_the_statement_csv_writes_the_clubs_time(client_for: Any, admin: Any, la_club: Club, late: Session) -> None:
    benjamin = Player.objects.get(club=la_club, name="Benjamin")
    body = client_for(admin).get(f"/players/{benjamin.pk}/statement.csv").content.decode()
    rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))
    assert [r[1] for r in rows[1:]] == ["2025-11-30 23:30"]


def test_the_api_stays_in_utc_with_an_offset(admin: Any, la_club: Club, late: Session) -> None:
    api = APIClient()
    api.force_authenticate(admin)
    body = api.get(f"/api/v1/sessions/{late.pk}/").json()
    assert body["closed_at"] in ("2025-12-01T07:30:00Z", "2025-12-01T07:30:00+00:00")
    benjamin = Player.objects.get(club=la_club, name="Benjamin")
    statement = api.get(f"/api/v1/players/{benjamin.pk}/statement/?format=csv").content.decode()
    assert "2025-12-01T07:30" in statement and "2025-11-30" not in statement


def test_a_club_is_asked_its_time_zone_on_the_page_and_in_the_api(client_for: Any, admin: Any) -> None:
    client = client_for(admin)
    form = client.get("/clubs/new/").content.decode()
    assert 'name="time_zone"' in form and '<option value="Pacific/Auckland">Auckland (New Zealand)</option>' in form
    refused = client.post("/clubs/new/", {"name": "Kiwi Club", "time_zone": "Mars/Olympus"})
    assert refused.status_code == 400
    page = unescape(refused.content.decode())
    assert "the time zone must be an IANA name such as Europe/Paris" in page and 'value="Kiwi Club"' in page
    made = client.post("/clubs/new/", {"name": "Kiwi Club", "time_zone": "Pacific/Auckland"})
    club = Club.objects.get(name="Kiwi Club")
    assert made.status_code == 302 and club.time_zone == "Pacific/Auckland"
    api = APIClient()
    api.force_authenticate(admin)
    answer = api.post("/api/v1/clubs/", {"name": "Tokyo Club", "time_zone": "Asia/Tokyo"}, format="json")
    assert answer.status_code == 201 and answer.json()["time_zone"] == "Asia/Tokyo"
    assert api.post("/api/v1/clubs/", {"name": "Plain Club"}, format="json").json()["time_zone"] == "UTC"
    french = api.post(
        "/api/v1/clubs/", {"name": "X", "time_zone": "Paris"}, format="json", HTTP_ACCEPT_LANGUAGE="fr"
    ).json()
    assert french["error"]["fields"]["time_zone"] == [
        "le fuseau horaire doit être un nom IANA, par exemple Europe/Paris"
    ]


def test_only_the_clubs_admin_changes_its_time_zone(client_for: Any, admin: Any, la_club: Club) -> None:
    treasurer = member(la_club, admin, "cashier", Role.TREASURER)
    assert client_for(treasurer).post(f"/clubs/{la_club.pk}/time-zone/", {"time_zone": "UTC"}).status_code == 403
    assert (
        f'action="/clubs/{la_club.pk}/time-zone/"'
        not in client_for(treasurer).get(f"/clubs/{la_club.pk}/").content.decode()
    )
    stranger = make_user("stranger")
    assert client_for(stranger).post(f"/clubs/{la_club.pk}/time-zone/", {"time_zone": "UTC"}).status_code == 404
    client = client_for(admin)
    client.post(f"/clubs/{la_club.pk}/time-zone/", {"time_zone": "Europe/Paris"})
    assert fresh_club(la_club).time_zone == "Europe/Paris"
    client.post(f"/clubs/{la_club.pk}/time-zone/", {"time_zone": "Nowhere"})
    assert fresh_club(la_club).time_zone == "Europe/Paris"


def fresh_club(club: Club) -> Club:
    return Club.objects.get(pk=club.pk)


KIRITIMATI = "Pacific/Kiritimati"  # UTC+14: the far side of the date line from UTC


def test_the_leaderboard_api_counts_the_clubs_months_and_years(admin: Any) -> None:
    """Two evenings closed in Kiritimati: 02:00 on 1 January 2025 there (12:00 UTC on 31 December 2024)
    and 23:30 on 31 January 2024 (09:30 UTC that day). A year and a month are the club's own."""
    club = club_create(actor=admin, name="Line Islands Club", time_zone=KIRITIMATI)
    sheet = example_sheet("american-evening-defaults")  # money [-103, 192, -103, 12] at a cent a counter
    for closed_at in ("2025-01-01T02:00:00+14:00", "2024-01-31T23:30:00+14:00"):
        session = session_import(actor=admin, club_id=club.pk, sheet=sheet, closed_at=closed_at)
        followup.followup_run(session_id=session.pk)
    api = APIClient()
    api.force_authenticate(admin)

    def board(query: str) -> tuple[str, dict[str, int]]:
        body = api.get(f"/api/v1/clubs/{club.pk}/leaderboard/?by=money&{query}").json()
        return body["time_zone"], {r["player"]["name"]: r["value"] for r in body["rows"]}

    one = {"Abigail": -103, "Benjamin": 192, "Charlotte": -103, "Daniel": 12}
    assert board("period=year&year=2025") == (KIRITIMATI, one)  # 31 December 2024 in UTC
    assert board("period=year&year=2024") == (KIRITIMATI, one)  # the other evening only
    assert board("period=month&month=2025-01") == (KIRITIMATI, one)
    assert board("period=month&month=2024-12") == (KIRITIMATI, {})
    assert board("period=month&month=2024-01") == (KIRITIMATI, one)
    assert board("period=all&date_from=2025-01-01&date_to=2025-01-01") == (KIRITIMATI, one)  # the club's day
    assert board("period=all&date_from=2024-12-31&date_to=2024-12-31") == (KIRITIMATI, {})
    assert board("period=all")[1] == {name: 2 * value for name, value in one.items()}


def test_a_players_stats_and_ratings_api_count_the_clubs_days(admin: Any) -> None:
    """The player's own figures filter by the same calendar days as the leaderboard: an evening closed at
    02:00 on 1 January 2025 in Kiritimati (31 December 2024 in UTC) is a 1 January evening."""
    club = club_create(actor=admin, name="Line Islands Club", time_zone=KIRITIMATI)
    sheet = example_sheet("american-evening-defaults")
    session = session_import(actor=admin, club_id=club.pk, sheet=sheet, closed_at="2025-01-01T02:00:00+14:00")
    followup.followup_run(session_id=session.pk)
    benjamin = Player.objects.get(club=club, name="Benjamin")
    api = APIClient()
    api.force_authenticate(admin)

    def figures(day: str) -> tuple[int, int]:
        stats = api.get(f"/api/v1/players/{benjamin.pk}/stats/?date_from={day}&date_to={day}").json()
        ratings = api.get(f"/api/v1/players/{benjamin.pk}/ratings/?date_from={day}&date_to={day}").json()
        return stats["sessions"], ratings["count"]

    assert figures("2025-01-01") == (1, 1)
    assert figures("2024-12-31") == (0, 0)


def test_the_link_pages_run_in_the_clubs_zone(admin: Any, players: list[Player]) -> None:
    """A seat link's page and a board link's page (no login) name the club's zone for their scripts, as the
    pages of members do: they ran in UTC."""
    club = club_create(actor=admin, name="Line Islands Club", time_zone=KIRITIMATI)
    seated = [player_create(actor=admin, club_id=club.pk, name=p.name) for p in players]
    session = open_session(admin, club, seated)
    seat_key, _ = seat_link_issue(actor=admin, session_id=session.pk, seat=0)
    board_key, _ = board_link_issue(actor=admin, club_id=club.pk)
    meta = f'<meta name="time-zone" content="{KIRITIMATI}">'
    anyone = APIClient()
    for url in (f"/s/{seat_key}/", f"/b/{board_key}/"):
        page = anyone.get(url)
        assert page.status_code == 200 and meta in page.content.decode(), url
    assert '<meta name="time-zone" content="UTC">' in anyone.get("/login/").content.decode()  # and no further


def test_the_api_filters_sessions_by_the_clubs_day_as_the_pages_do(
    client_for: Any, admin: Any, la_club: Club, late: Session
) -> None:
    """Issue 38, item 17: the API took 30 November as the UTC day and missed the evening the club page
    finds on that day (opened late on the 30th in Los Angeles, the 1st in UTC)."""
    assert late.opened_at.astimezone(zones.club_zone(LA)).date().isoformat() == "2025-11-30"
    api = client_for(admin)

    def found(**days: str) -> list[int]:
        answer = api.get("/api/v1/sessions/", {"club": la_club.pk, **days})
        assert answer.status_code == 200, answer.content
        return [s["id"] for s in answer.json()["results"]]

    assert found(date_from="2025-11-30", date_to="2025-11-30") == [late.pk]
    assert found(date_from="2025-12-01") == [] and found(date_to="2025-11-29") == []
    assert found(date_from="0001-01-01", date_to="9999-12-31") == [late.pk]  # the far days: no 500
