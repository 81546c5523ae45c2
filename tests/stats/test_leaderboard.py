"""`GET /api/v1/clubs/{club}/leaderboard/`: by money, rating and success; periods; ties and minimums."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from ledger.models import Session
from ledger.services.clubs import player_create
from ledger.stats.models import Rating
from ledger.stats.services import stats_session_refresh
from tests.stats.conftest import assert_error
from tests.stats.helpers import import_closed, sheet

pytestmark = pytest.mark.django_db

FOUR = ["Ann", "Ben", "Cleo", "Dan"]
USD = {"currency": "USD", "per_counter": "0.01"}
NO_ANTE = {"ante": 0}
# Misère partout with no ante: the seat with 4 tricks pays 10 to each other: finals [-30, 10, 10, 10].
SEAT_0_LOSES = {"bid": "pass", "tricks": [4, 3, 3, 3]}


def made(seat: int) -> dict[str, Any]:
    tricks = [2, 2, 2, 2]
    tricks[seat] = 7
    return {"bid": "seven", "bidder": seat, "trump": "clubs", "tricks": tricks}


def failed(seat: int) -> dict[str, Any]:
    tricks = [3, 3, 3, 3]
    tricks[seat] = 4
    return {"bid": "seven", "bidder": seat, "trump": "clubs", "tricks": tricks}


def board(api: Any, club: Any, **params: Any) -> Any:
    return api.get(f"/api/v1/clubs/{club.pk}/leaderboard/", params)


def rows(api: Any, club: Any, **params: Any) -> list[tuple[int, str, Any, int]]:
    response = board(api, club, **params)
    assert response.status_code == 200, response.content
    return [(r["rank"], r["player"]["name"], r["value"], r["sessions"]) for r in response.json()["rows"]]


def closed_on(session: Session, when: dt.datetime) -> None:
    """Place a closed session at another closing time, then let the handler see it (test set-up only)."""
    Session.objects.filter(pk=session.pk).update(closed_at=when)
    stats_session_refresh(session_id=session.pk)


def test_money_ties_share_a_rank_ordered_by_name(api: Any, admin: Any, club: Any) -> None:
    import_closed(
        admin, club, sheet("american", ["Dan", "Cleo", "Ben", "Ann"], [SEAT_0_LOSES], rules=NO_ANTE, stake=USD)
    )
    assert rows(api, club, by="money") == [(1, "Ann", 10, 1), (1, "Ben", 10, 1), (1, "Cleo", 10, 1), (4, "Dan", -30, 1)]
    body = board(api, club, by="money").json()
    assert (body["period"], body["by"], body["currency"]) == ("all", "money", "USD")
    # A second session: Ann loses 30, Eve wins 10; players without a session in the period are absent.
    import_closed(
        admin, club, sheet("american", ["Ann", "Eve", "Ben", "Cleo"], [SEAT_0_LOSES], rules=NO_ANTE, stake=USD)
    )
    assert rows(api, club, by="money") == [
        (1, "Ben", 20, 2),
        (1, "Cleo", 20, 2),
        (3, "Eve", 10, 1),
        (4, "Ann", -20, 2),
        (5, "Dan", -30, 1),
    ]
    # No stake: no money, so nobody new on the money board.
    import_closed(admin, club, sheet("american", ["Finn", "Gus", "Hal", "Ivy"], [SEAT_0_LOSES], rules=NO_ANTE))
    assert [r[1] for r in rows(api, club, by="money")] == ["Ben", "Cleo", "Eve", "Ann", "Dan"]


def test_money_in_several_currencies_needs_the_currency(api: Any, admin: Any, club: Any) -> None:
    import_closed(admin, club, sheet("american", FOUR, [SEAT_0_LOSES], rules=NO_ANTE, stake=USD))
    eur = {"currency": "EUR", "per_counter": "0.5"}
    import_closed(admin, club, sheet("american", FOUR, [SEAT_0_LOSES], rules=NO_ANTE, stake=eur))
    assert_error(board(api, club, by="money"), 400, "invalid_request", "currency")
    assert rows(api, club, by="money", currency="EUR") == [
        (1, "Ben", 500, 1),
        (1, "Cleo", 500, 1),
        (1, "Dan", 500, 1),
        (4, "Ann", -1500, 1),
    ]
    assert rows(api, club, by="money", currency="JPY") == []
    assert_error(board(api, club, by="money", currency="usd"), 400, "invalid_request", "currency")


def test_periods(api: Any, admin: Any, club: Any) -> None:
    may = import_closed(admin, club, sheet("american", FOUR, [SEAT_0_LOSES], rules=NO_ANTE, stake=USD))
    june = import_closed(
        admin, club, sheet("american", ["Ben", "Cleo", "Dan", "Ann"], [SEAT_0_LOSES], rules=NO_ANTE, stake=USD)
    )
    now = import_closed(
        admin, club, sheet("american", ["Cleo", "Dan", "Ann", "Ben"], [SEAT_0_LOSES], rules=NO_ANTE, stake=USD)
    )
    closed_on(may, dt.datetime(2023, 5, 31, 23, 59, tzinfo=dt.UTC))
    closed_on(june, dt.datetime(2023, 6, 1, 0, 0, tzinfo=dt.UTC))
    may_rows = [(1, "Ben", 10, 1), (1, "Cleo", 10, 1), (1, "Dan", 10, 1), (4, "Ann", -30, 1)]
    assert rows(api, club, by="money", period="month", month="2023-05") == may_rows
    assert rows(api, club, by="money", month="2023-05") == may_rows  # `month` alone means period=month
    assert rows(api, club, by="money", period="month", month="2023-06")[-1] == (4, "Ben", -30, 1)
    year = rows(api, club, by="money", period="year", year="2023")
    assert [(r[1], r[2]) for r in year] == [("Cleo", 20), ("Dan", 20), ("Ann", -20), ("Ben", -20)]
    assert [r[0] for r in year] == [1, 1, 3, 3]
    this_month = board(api, club, by="money", period="month").json()
    assert this_month["month"] == timezone.localdate().strftime("%Y-%m")
    assert [(r["player"]["name"], r["value"]) for r in this_month["rows"]][-1] == ("Cleo", -30)
    assert board(api, club, by="money", period="year").json()["year"] == str(timezone.localdate().year)
    everything = rows(api, club, by="money")
    assert sum(r[3] for r in everything) == 12
    # The filters of stats.md apply too.
    assert rows(api, club, by="money", date_from="2023-06-01", date_to="2023-06-01") == rows(
        api, club, by="money", month="2023-06"
    )
    assert rows(api, club, by="money", variant="french") == []
    assert now.closed_at.year == timezone.localdate().year


def test_rating_only_ranked_players_ties_share_a_rank(api: Any, admin: Any, club: Any, settings: Any) -> None:
    settings.RATING_MIN_SESSIONS = 2
    import_closed(admin, club, sheet("american", FOUR, [SEAT_0_LOSES], rules=NO_ANTE))
    assert rows(api, club) == []  # one session each: nobody is ranked yet
    import_closed(admin, club, sheet("american", FOUR, [SEAT_0_LOSES], rules=NO_ANTE))
    import_closed(admin, club, sheet("american", ["Eve", "Ben", "Cleo", "Dan"], [SEAT_0_LOSES], rules=NO_ANTE))
    board_rows = rows(api, club)
    assert [r[1] for r in board_rows] == ["Ben", "Cleo", "Dan", "Ann"]  # Eve has one session: not ranked
    assert [r[0] for r in board_rows] == [1, 1, 1, 4]  # Ben, Cleo and Dan have the very same history
    assert [r[3] for r in board_rows] == [3, 3, 3, 2]
    ratings = {r.player.name: r for r in Rating.objects.select_related("player")}
    assert [r[2] for r in board_rows] == [ratings[n].ordinal for n in ("Ben", "Cleo", "Dan", "Ann")]
    assert all(r.ordinal == pytest.approx(r.mu - 3 * r.sigma) for r in ratings.values())
    assert rows(api, club, by="rating") == board_rows  # `by` defaults to rating, `period` to all
    assert rows(api, club, period="month", month="2001-01") == []  # nobody played then


def test_success_needs_20_contracts_as_bidder(api: Any, admin: Any, club: Any) -> None:
    # Ann bids 20 times (15 made), Ben 19 times (all made), Cleo 20 times (15 made): a tie at 0.75.
    def bids(seat: int, n: int, misses: int) -> list[dict[str, Any]]:
        return [failed(seat) if i < misses else made(seat) for i in range(n)]

    import_closed(admin, club, sheet("american", FOUR, bids(0, 12, 3), rules=NO_ANTE))
    import_closed(admin, club, sheet("american", FOUR, bids(0, 8, 2), rules=NO_ANTE))
    import_closed(admin, club, sheet("american", FOUR, bids(1, 12, 0), rules=NO_ANTE))
    import_closed(admin, club, sheet("american", FOUR, bids(1, 7, 0), rules=NO_ANTE))
    import_closed(admin, club, sheet("american", FOUR, bids(2, 10, 5) + bids(3, 2, 0), rules=NO_ANTE))
    assert rows(api, club, by="success") == [(1, "Ann", 0.75, 5)]  # Ben has 19, Cleo 10
    import_closed(admin, club, sheet("american", FOUR, bids(2, 10, 0), rules=NO_ANTE))
    body = board(api, club, by="success").json()
    got = [(r["rank"], r["player"]["name"], r["value"], r["sessions"]) for r in body["rows"]]
    assert got == [(1, "Ann", 0.75, 6), (1, "Cleo", 0.75, 6)]
    assert body["rows"][0]["played"] == 20 and body["rows"][0]["made"] == 15
    stats = api.get(f"/api/v1/players/{body['rows'][1]['player']['id']}/stats/").json()
    assert stats["variants"]["american"]["contracts"] == [
        {"bid": "seven", "role": "bidder", "played": 20, "made": 15, "rate": 0.75, "overtricks": 0, "shortfall": 15}
    ]


def test_bad_leaderboard_parameters(api: Any, club: Any) -> None:
    for params, field in [
        ({"period": "week"}, "period"),
        ({"by": "elo"}, "by"),
        ({"month": "2024-13"}, "month"),
        ({"month": "2024-5"}, "month"),
        ({"year": "24"}, "year"),
        ({"year": "0000"}, "year"),
        ({"year": "9999"}, "year"),
        ({"month": "9999-12"}, "month"),
        ({"date_to": "9999-12-31"}, "date_to"),
        ({"date_from": "0001-01-01"}, "date_from"),
        ({"period": "year", "month": "2024-05"}, "month"),
        ({"period": "month", "year": "2024"}, "year"),
        ({"variant": "whist"}, "variant"),
        ({"date_from": "yesterday"}, "date_from"),
        ({"date_from": "2024-02-02", "date_to": "2024-02-01"}, "date_to"),
        ({"colour": "red"}, "colour"),
        ({"format": "xml"}, "format"),
    ]:
        assert_error(board(api, club, **params), 400, "invalid_request", field)


def test_another_clubs_leaderboard_is_not_found(api_for: Any, other_admin: Any, club: Any, player_user: Any) -> None:
    assert_error(api_for(other_admin).get(f"/api/v1/clubs/{club.pk}/leaderboard/"), 404, "not_found")
    assert_error(api_for(other_admin).get("/api/v1/clubs/999999/leaderboard/"), 404, "not_found")
    assert api_for(player_user).get(f"/api/v1/clubs/{club.pk}/leaderboard/").status_code == 200
    assert_error(api_for().get(f"/api/v1/clubs/{club.pk}/leaderboard/"), 401, "not_authenticated")


def test_a_renamed_or_new_player_without_sessions_is_absent(api: Any, admin: Any, club: Any) -> None:
    player_create(actor=admin, club_id=club.pk, name="Zed")
    import_closed(admin, club, sheet("american", FOUR, [SEAT_0_LOSES], rules=NO_ANTE, stake=USD))
    assert "Zed" not in [r[1] for r in rows(api, club, by="money")]
