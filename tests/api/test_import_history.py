"""POST /api/v1/sessions/import/ with `closed_at` (api.md, "Additions: History"): a club's past evenings
count as closed when they were played, in statistics, periods, date filters and the order of ratings."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from ledger.followup import followup_run
from ledger.models import Session
from tests.api.conftest import assert_error

SHEET: dict[str, Any] = {
    "format": "clubscore-sheet/1",
    "variant": "american",
    "players": ["Ann", "Ben", "Cleo", "Dan"],
    "first_dealer": 0,
    "stake": {"currency": "EUR", "per_counter": "0.10"},
    "hands": [
        {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [3, 6, 2, 2]},
        {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 2, 7, 2]},
    ],
    "close": {"pools": "divide"},
}


def post(client: Any, club: Any, **extra: Any) -> Any:
    return client.json("POST", "/api/v1/sessions/import/", {"club": club.pk, "sheet": SHEET, **extra})


def settled_in_background(response: Any) -> Any:
    """With REDIS_URL the import's follow-up goes to a broker no worker reads in these tests
    (tests/integration has the worker): run that same follow-up here, as the worker would."""
    if response.status_code == 201 and not settings.CELERY_TASK_ALWAYS_EAGER:
        followup_run(session_id=response.json()["id"])
    return response


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-03-14T21:30:00+01:00", dt.datetime(2024, 3, 14, 20, 30, tzinfo=dt.UTC)),
        ("2024-03-14T20:30Z", dt.datetime(2024, 3, 14, 20, 30, tzinfo=dt.UTC)),
        ("2024-03-14", None),  # the start of that day in the server's time zone
    ],
)
def test_closed_at_dates_the_session(
    api_for: Any,
    treasurer: Any,
    club: Any,
    value: str,
    expected: dt.datetime | None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    client = api_for(treasurer)
    with django_capture_on_commit_callbacks(execute=True):
        response = settled_in_background(post(client, club, closed_at=value))
    assert response.status_code == 201, response.content
    expected = expected or timezone.make_aware(dt.datetime(2024, 3, 14))
    session = Session.objects.get(pk=response.json()["id"])
    assert session.closed_at == expected
    assert session.opened_at == expected  # the evening was played then: the date filters find it there
    assert response.json()["closed_at"] == expected.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
    found = client.json("GET", f"/api/v1/sessions/?club={club.pk}&date_from=2024-03-14&date_to=2024-03-14").json()
    assert [s["id"] for s in found["results"]] == [session.pk]
    assert client.json("GET", f"/api/v1/sessions/?club={club.pk}&date_from=2024-03-15").json()["results"] == []
    # statistics and ratings follow that date
    player = session.seats.get(seat=1).player_id
    march = client.json("GET", f"/api/v1/players/{player}/stats/?date_from=2024-03-01&date_to=2024-03-31").json()
    assert march["sessions"] == 1
    assert client.json("GET", f"/api/v1/players/{player}/stats/?date_from=2024-04-01").json()["sessions"] == 0
    ratings = client.json("GET", f"/api/v1/players/{player}/ratings/").json()["results"]
    assert [r["closed_at"][:10] for r in ratings] == [expected.astimezone(dt.UTC).date().isoformat()]
    # and its money in the club's ledger is of that day too
    statement = client.json("GET", f"/api/v1/players/{player}/statement/").json()["results"]
    assert [(e["kind"], e["at"]) for e in statement] == [("close", response.json()["closed_at"])]


def test_ratings_follow_the_evenings_order_not_the_imports(
    api_for: Any, treasurer: Any, club: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = api_for(treasurer)
    ids = []
    for day in ("2024-05-02", "2024-01-10", "2024-03-07"):  # imported out of order
        with django_capture_on_commit_callbacks(execute=True):
            ids.append(settled_in_background(post(client, club, closed_at=day)).json()["id"])
    player = Session.objects.get(pk=ids[0]).seats.get(seat=1).player_id
    ratings = client.json("GET", f"/api/v1/players/{player}/ratings/").json()["results"]
    assert [r["session"] for r in ratings] == [ids[1], ids[2], ids[0]]
    assert [r["closed_at"][:7] for r in ratings] == ["2024-01", "2024-03", "2024-05"]


def test_without_closed_at_the_session_closes_now(api_for: Any, treasurer: Any, club: Any) -> None:
    before = timezone.now()
    response = post(api_for(treasurer), club)
    assert response.status_code == 201
    assert Session.objects.get(pk=response.json()["id"]).closed_at >= before


@pytest.mark.parametrize(
    "value",
    [
        "2024-13-01",
        "14/03/2024",
        "2024-03-14T21:30:00",  # no offset
        "2024-03-14 21:30+01:00",
        "yesterday",
        "",
        20240314,
        ["2024-03-14"],
    ],
)
def test_malformed_closed_at_is_refused(api_for: Any, treasurer: Any, club: Any, value: Any) -> None:
    assert_error(post(api_for(treasurer), club, closed_at=value), 400, "invalid_request", "closed_at")
    assert not Session.objects.exists()


def test_future_closed_at_is_refused(api_for: Any, treasurer: Any, club: Any) -> None:
    tomorrow = (timezone.localdate() + dt.timedelta(days=1)).isoformat()
    soon = (timezone.now() + dt.timedelta(minutes=5)).isoformat(timespec="seconds")
    for value in (tomorrow, soon):
        assert_error(post(api_for(treasurer), club, closed_at=value), 400, "invalid_request", "closed_at")
    assert not Session.objects.exists()


def test_closed_at_without_close_is_refused(api_for: Any, scorer: Any, club: Any) -> None:
    sheet = {k: v for k, v in SHEET.items() if k != "close"}
    response = api_for(scorer).json(
        "POST", "/api/v1/sessions/import/", {"club": club.pk, "sheet": sheet, "closed_at": "2024-03-14"}
    )
    assert_error(response, 400, "invalid_request", "closed_at")
    assert not Session.objects.exists()
