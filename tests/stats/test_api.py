"""The statistics endpoints' contract: scoping, bad filters, pagination, CSV export, the schema."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from ledger.models import Player
from ledger.services.clubs import player_create
from tests.ledger_fixtures import example_sheet
from tests.stats.conftest import assert_error
from tests.stats.helpers import import_closed, sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def abigail(admin: Any, club: Any) -> Player:
    for name in ("american-evening-defaults", "american-adjustments", "american-several-pools"):
        import_closed(admin, club, example_sheet(name))
    return Player.objects.get(club=club, name="Abigail")


def parse_csv(response: Any) -> list[list[str]]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith("attachment; filename=")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


def test_another_clubs_player_is_not_found(
    api: Any, api_for: Any, abigail: Player, other_admin: Any, other_club: Any
) -> None:
    stranger = api_for(other_admin)  # a superuser, but not a member of Abigail's club
    for path in ("stats", "ratings"):
        assert_error(stranger.get(f"/api/v1/players/{abigail.pk}/{path}/"), 404, "not_found")
        assert_error(api.get(f"/api/v1/players/999999/{path}/"), 404, "not_found")
        assert_error(api_for().get(f"/api/v1/players/{abigail.pk}/{path}/"), 401, "not_authenticated")
        assert_error(api.get(f"/api/v1/players/{abigail.pk}/{path}"), 404, "not_found")  # no trailing slash
    theirs = player_create(actor=other_admin, club_id=other_club.pk, name="Zoe")
    assert_error(api.get(f"/api/v1/players/{theirs.pk}/stats/"), 404, "not_found")
    assert stranger.get(f"/api/v1/players/{theirs.pk}/stats/").status_code == 200


def test_a_plain_member_reads_the_statistics(api_for: Any, abigail: Player, player_user: Any) -> None:
    response = api_for(player_user).get(f"/api/v1/players/{abigail.pk}/stats/")
    assert response.status_code == 200
    assert response.json()["sessions"] == 3


def test_a_player_without_a_closed_session(api: Any, admin: Any, club: Any) -> None:
    nobody = player_create(actor=admin, club_id=club.pk, name="Nobody")
    body = api.get(f"/api/v1/players/{nobody.pk}/stats/").json()
    assert body == {
        "player": {"id": nobody.pk, "name": "Nobody", "club": club.pk},
        "sessions": 0,
        "deals": 0,
        "money": {},
        "variants": {},
        "streak": {"kind": None, "length": 0},
        "rating": None,
    }
    assert api.get(f"/api/v1/players/{nobody.pk}/ratings/").json() == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"variant": "whist"}, "variant"),
        ({"date_from": "2024-02-30"}, "date_from"),
        ({"date_to": "soon"}, "date_to"),
        ({"date_from": "2024-03-01", "date_to": "2024-02-01"}, "date_to"),
        ({"date_to": "9999-12-31"}, "date_to"),
        ({"sort": "name"}, "sort"),
        ({"format": "xml"}, "format"),
    ],
)
def test_bad_filters(api: Any, abigail: Player, params: dict[str, str], field: str) -> None:
    for path in ("stats", "ratings"):
        assert_error(api.get(f"/api/v1/players/{abigail.pk}/{path}/", params), 400, "invalid_request", field)


def test_ratings_are_paginated_in_closing_order(api: Any, abigail: Player) -> None:
    body = api.get(f"/api/v1/players/{abigail.pk}/ratings/", {"page_size": 2}).json()
    assert body["count"] == 3
    assert len(body["results"]) == 2 and body["next"] is not None
    assert set(body["results"][0]) == {"session", "closed_at", "mu", "sigma", "ordinal"}
    everything = api.get(f"/api/v1/players/{abigail.pk}/ratings/").json()["results"]
    assert [r["closed_at"] for r in everything] == sorted(r["closed_at"] for r in everything)
    assert everything[0]["closed_at"].endswith("Z")
    assert_error(api.get(f"/api/v1/players/{abigail.pk}/ratings/", {"page_size": 0}), 400, "invalid_request")
    only = api.get(f"/api/v1/players/{abigail.pk}/ratings/", {"variant": "french"}).json()
    assert only["count"] == 0


def test_csv_by_format_or_accept(api: Any, abigail: Player, club: Any) -> None:
    by_format = parse_csv(api.get(f"/api/v1/players/{abigail.pk}/stats/", {"format": "csv"}))
    by_accept = parse_csv(api.get(f"/api/v1/players/{abigail.pk}/stats/", HTTP_ACCEPT="text/csv"))
    assert by_format == by_accept
    assert by_format[0] == ["figure", "variant", "currency", "bid", "role", "value"]
    body = api.get(f"/api/v1/players/{abigail.pk}/stats/").json()
    lines = {tuple(row[:5]): row[5] for row in by_format[1:]}
    assert lines[("sessions", "", "", "", "")] == str(body["sessions"])
    assert lines[("money", "", "USD", "", "")] == str(body["money"]["USD"])
    assert lines[("counters", "american", "", "", "")] == str(body["variants"]["american"]["counters"])
    for c in body["variants"]["american"]["contracts"]:
        assert lines[("contract.played", "american", "", c["bid"], c["role"])] == str(c["played"])
        assert lines[("contract.rate", "american", "", c["bid"], c["role"])] == str(c["rate"])
    ratings = parse_csv(api.get(f"/api/v1/players/{abigail.pk}/ratings/", {"format": "csv", "page_size": 1}))
    assert ratings[0] == ["session", "closed_at", "mu", "sigma", "ordinal"]
    assert len(ratings) == 1 + 3  # an export is the whole history
    board = parse_csv(api.get(f"/api/v1/clubs/{club.pk}/leaderboard/", {"by": "money", "format": "csv"}))
    assert board[0] == ["rank", "player_id", "player", "value", "sessions"]
    json_rows = api.get(f"/api/v1/clubs/{club.pk}/leaderboard/", {"by": "money"}).json()["rows"]
    assert [row[2] for row in board[1:]] == [r["player"]["name"] for r in json_rows]
    assert api.get(f"/api/v1/players/{abigail.pk}/stats/", {"format": "json"}).json() == body


def test_errors_stay_json_when_csv_is_asked(api: Any, abigail: Player, api_for: Any, other_admin: Any) -> None:
    response = api.get(f"/api/v1/players/{abigail.pk}/stats/", {"format": "csv", "variant": "whist"})
    assert response["Content-Type"].startswith("application/json")
    assert_error(response, 400, "invalid_request", "variant")
    response = api_for(other_admin).get(f"/api/v1/players/{abigail.pk}/stats/", HTTP_ACCEPT="text/csv")
    assert response["Content-Type"].startswith("application/json")
    assert_error(response, 404, "not_found")


def test_csv_cells_cannot_run_as_formulas(api: Any, admin: Any, club: Any) -> None:
    usd = {"currency": "USD", "per_counter": "0.01"}
    names = ["=HYPERLINK(1)", "+Bob", "@Cat", "Dee"]
    import_closed(admin, club, sheet("american", names, [{"bid": "pass", "tricks": [4, 3, 3, 3]}], stake=usd))
    board = parse_csv(api.get(f"/api/v1/clubs/{club.pk}/leaderboard/", {"by": "money", "format": "csv"}))
    assert sorted(row[2] for row in board[1:]) == ["'+Bob", "'=HYPERLINK(1)", "'@Cat", "Dee"]


def test_the_schema_documents_the_endpoints(api: Any) -> None:
    response = api.get("/api/schema/")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/v1/players/{player_id}/stats/",
        "/api/v1/players/{player_id}/ratings/",
        "/api/v1/clubs/{club_id}/leaderboard/",
    ):
        operation = paths[path]["get"]
        assert set(operation["responses"]["200"]["content"]) == {"application/json", "text/csv"}, path
        names = {p["name"] for p in operation["parameters"]}
        assert {"variant", "date_from", "date_to", "format"} <= names, path
    board = paths["/api/v1/clubs/{club_id}/leaderboard/"]["get"]
    assert {"period", "by", "month", "year", "currency"} <= {p["name"] for p in board["parameters"]}


# --- issue 38, item 16: a CSV asked in a language is the pages' CSV in that language ------------------


def people_csv(response: Any, delimiter: str = ";") -> tuple[str, list[list[str]]]:
    assert response.status_code == 200, response.content
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")  # the byte-order mark: a spreadsheet reads it as UTF-8
    return text, list(csv.reader(io.StringIO(text[1:]), delimiter=delimiter))


def test_the_csvs_follow_the_language_asked(api: Any, abigail: Player, club: Any) -> None:
    get = api.get
    _, stats = people_csv(get(f"/api/v1/players/{abigail.pk}/stats/?format=csv", HTTP_ACCEPT_LANGUAGE="fr"))
    assert stats[0] == ["Chiffre", "Variante", "Monnaie", "Annonce", "Rôle", "Valeur"]
    money = next(r for r in stats if r[0] == "money")
    assert "," in money[5] and "." not in money[5]  # an amount in money, a decimal comma
    _, ratings = people_csv(get(f"/api/v1/players/{abigail.pk}/ratings/?format=csv", HTTP_ACCEPT_LANGUAGE="fr"))
    assert ratings[0][0] == "Séance" and len(ratings) > 1
    for row in ratings[1:]:
        assert all(len(cell.partition(",")[2]) <= 2 for cell in row[2:5]), row  # never 17 digits
    _, board = people_csv(
        get(f"/api/v1/clubs/{club.pk}/leaderboard/?format=csv&by=money", HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9")
    )
    assert board[0] == ["Место", "Номер игрока", "Игрок", "Значение", "Партии"]
    _, english = people_csv(get(f"/api/v1/players/{abigail.pk}/ratings/?format=csv", HTTP_ACCEPT_LANGUAGE="en"), ",")
    assert english[0] == ["Session", "Closed", "Skill (μ)", "Uncertainty (σ)", "Rating"]
    # A script that names no language gets the data CSV of docs/stats.md, unchanged
    data = api.get(f"/api/v1/players/{abigail.pk}/ratings/?format=csv")
    assert data.content.decode("utf-8").startswith("session,closed_at,mu,sigma,ordinal\r\n")
