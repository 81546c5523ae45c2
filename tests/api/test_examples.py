"""Every example sheet with a settlement, recorded hand by hand through the API, settles exactly as
`ledger.engine.settle` settles the same sheet."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.engine import settle
from ledger.services.sessions import session_import
from tests.conftest import example_names
from tests.ledger_fixtures import example_sheet

pytestmark = pytest.mark.django_db


def _carried_in(admin: Any, club: Any, sheet: dict[str, Any]) -> int:
    """A closed session of the club that carries the sheet's `pools`: imported with no deals, carried."""
    source = session_import(
        actor=admin,
        club_id=club.pk,
        sheet=dict(sheet, players=[f"{p} (earlier)" for p in sheet["players"]], hands=[], close={"pools": "carry"}),
    )
    return source.pk


@pytest.mark.parametrize("name", example_names())
def test_example_recorded_through_the_api_settles_as_the_engine(api: Any, admin: Any, club: Any, name: str) -> None:
    sheet = example_sheet(name)
    ids = [api.json("POST", f"/api/v1/clubs/{club.pk}/players/", {"name": p}).json()["id"] for p in sheet["players"]]
    opening = {
        "club": club.pk,
        "variant": sheet["variant"],
        "rules": sheet.get("rules") or {},
        "players": ids,
        "first_dealer": sheet["first_dealer"],
    }
    if sheet.get("stake"):
        opening["stake"] = sheet["stake"]
    if sheet.get("pools"):
        opening["carry_pools_from"] = _carried_in(admin, club, sheet)
    response = api.json("POST", "/api/v1/sessions/", opening)
    assert response.status_code == 201, response.json()
    session = response.json()
    assert session["pools"] == settle(dict(sheet, hands=[]))["pools"]
    expected = settle(sheet)
    for number, hand in enumerate(sheet["hands"], 1):
        assert session["next"]["number"] == number
        recorded = api.record(session["id"], dict(hand, number=number))
        assert recorded.status_code == 201, recorded.json()
        body = recorded.json()
        assert {k: body[k] for k in expected["hands"][number - 1]} == expected["hands"][number - 1]
        session = api.json("GET", f"/api/v1/sessions/{session['id']}/").json()
    assert (session["balances"], session["pools"]) == (expected["balances"], expected["pools"])
    if "close" in sheet:
        closed = api.json(
            "POST",
            f"/api/v1/sessions/{session['id']}/close/",
            sheet["close"],
            **{"If-Match": f'"{session["version"]}"'},
        )
        assert closed.status_code == 200, closed.json()
        assert closed.json() == expected
    assert api.json("GET", f"/api/v1/sessions/{session['id']}/settlement/").json() == expected
    exported = api.json("GET", f"/api/v1/sessions/{session['id']}/sheet/").json()
    assert settle(exported) == expected
