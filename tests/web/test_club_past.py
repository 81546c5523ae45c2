"""The club page's past sessions (issue 26): every closed session, imported evenings included, twenty a
page, with filters by dates, variant and player; a filter that does not read is said beside its field."""

from __future__ import annotations

import copy
import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client

from ledger.models import Club, Player, Session
from ledger.services.clubs import player_create
from ledger.services.sessions import session_import
from tests.api.test_import_history import SHEET
from tests.ledger_fixtures import example_sheet

pytestmark = pytest.mark.django_db

AMERICAN = SHEET  # a two-deal American evening, closed (the import tests' sheet)


def imported(admin: Any, club: Club, day: str, sheet: dict[str, Any] | None = None, **names: str) -> Session:
    sheet = copy.deepcopy(sheet or AMERICAN)
    if names:
        sheet["players"] = [names.get(f"seat{i}", n) for i, n in enumerate(sheet["players"])]
    return session_import(actor=admin, club_id=club.pk, sheet=sheet, closed_at=day)


def evenings(admin: Any, club: Club) -> list[Session]:
    """23 American evenings, one a week of 2024 from 7 Jan; then a Russian one of 9 May 2025, with Zoe."""
    first = dt.date(2024, 1, 7)
    sessions = [imported(admin, club, (first + dt.timedelta(weeks=i)).isoformat()) for i in range(23)]
    russian = example_sheet("russian-partie-defaults")
    sessions.append(imported(admin, club, "2025-05-09", russian, seat0="Zoe"))
    return sessions


def listed(html: str) -> list[int]:
    """The sessions of the list, in its order ([] when it says none matches)."""
    if 'id="past-list"' not in html:
        assert "No closed session" in html
        return []
    part = html.split('id="past-list"')[1].split("</ul>")[0]
    return [int(n) for n in re.findall(r'href="/sessions/(\d+)/settlement/"', part)]


def page_of(client: Client, club: Club, **query: Any) -> Any:
    return client.get(f"/clubs/{club.pk}/", query)


def test_every_closed_session_is_listed_twenty_a_page_newest_first(client_for: Any, admin: Any, club: Club) -> None:
    sessions = evenings(admin, club)
    client = client_for(admin)
    first = page_of(client, club)
    newest_first = [s.pk for s in sorted(sessions, key=lambda s: (s.opened_at, s.pk), reverse=True)]
    assert listed(first.content.decode()) == newest_first[:20]
    assert "24 closed sessions" in first.content.decode()
    assert "Page 1 of 2" in first.content.decode()
    second = page_of(client, club, page=2).content.decode()
    assert listed(second) == newest_first[20:]
    assert 'rel="prev" href="?page=1#past"' in second


def test_filters_find_an_imported_evening(client_for: Any, admin: Any, club: Club) -> None:
    sessions = evenings(admin, club)
    russian = sessions[-1]
    client = client_for(admin)
    zoe = Player.objects.get(club=club, name="Zoe")
    by_day = page_of(client, club, **{"from": "2025-05-09", "to": "2025-05-09"})
    assert by_day.status_code == 200
    assert listed(by_day.content.decode()) == [russian.pk]
    assert listed(page_of(client, club, variant="russian").content.decode()) == [russian.pk]
    assert listed(page_of(client, club, player=zoe.pk).content.decode()) == [russian.pk]
    march = page_of(client, club, **{"from": "2024-03-01", "to": "2024-03-31", "variant": "american"})
    assert [s.opened_at.date().month for s in Session.objects.filter(pk__in=listed(march.content.decode()))] == [3] * 5
    none = page_of(client, club, variant="russian", **{"to": "2024-12-31"}).content.decode()
    assert listed(none) == []
    assert "No closed session matches these filters." in none


def test_the_filters_go_along_from_page_to_page(client_for: Any, admin: Any, club: Club) -> None:
    sessions = evenings(admin, club)
    client = client_for(admin)
    html = page_of(client, club, variant="american").content.decode()
    assert "23 closed sessions" in html
    assert 'href="?variant=american&amp;page=2#past"' in html
    second = page_of(client, club, variant="american", page=2).content.decode()
    assert len(listed(second)) == 3
    assert set(listed(second)) <= {s.pk for s in sessions if s.variant == "american"}


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ({"from": "9 May 2025"}, "from", "Enter a day as the date picker writes it, such as 2025-05-09."),
        ({"from": "2025-05-09", "to": "2025-05-08"}, "to", "The last day comes before the first day."),
        ({"variant": "whist"}, "variant", "Choose one of the club's variants."),
        ({"player": "99999"}, "player", "Choose one of the club's players."),
    ],
)
def test_a_filter_that_does_not_read_is_said_beside_its_field(
    client_for: Any, admin: Any, club: Club, query: dict[str, str], field: str, words: str
) -> None:
    imported(admin, club, "2025-05-09")
    response = page_of(client_for(admin), club, **query)
    assert response.status_code == 400
    html = response.content.decode()
    errors = html.split(f'id="past-{field}-errors"')[1].split("</div>")[0]
    assert words.replace("'", "&#x27;") in errors
    assert f'aria-describedby="past-{field}-errors"' in html
    assert len(listed(html)) == 1  # the list stays, without the filter that did not read


def test_another_club_s_player_is_no_filter(
    client_for: Any, admin: Any, club: Club, other_admin: Any, other_club: Club
) -> None:
    stranger = player_create(actor=other_admin, club_id=other_club.pk, name="Olga")
    imported(admin, club, "2025-05-09")
    response = page_of(client_for(admin), club, player=stranger.pk)
    assert response.status_code == 400
