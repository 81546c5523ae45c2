"""A night is paid once, through the API (docs/decisions.md, "Paid once"): a table's own payment after
the room's is 409 `settled_by_night` in the one error body (its message in the request's language,
`error.night` naming the night to pay from); a table paid on its own first is left out of the room's
settlement (`alone`). The schema says so."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from ledger.models import Club, Night, NightTable, Player, Session
from ledger.money import selectors as money_selectors
from tests.api.conftest import Api, assert_error
from tests.money.test_night_paid_once import own_transfers, played, seated
from tests.money.test_nights import night, nine

pytestmark = pytest.mark.django_db

__all__ = ["night", "nine"]  # fixtures of tests/money/test_nights, used here by name


def pay(api: Api, club: Club, payer: Any, payee: Any, cents: int, language: str = "", **tied: int) -> Any:
    body = {"from": payer, "to": payee, "currency": "USD", "cents": cents, "status": "paid", **tied}
    headers = {"Idempotency-Key": str(uuid.uuid4()), **({"Accept-Language": language} if language else {})}
    return api.json("POST", f"/api/v1/clubs/{club.pk}/payments/", body, **headers)


@pytest.fixture
def tables(treasurer: Any, night: Night, nine: list[Player]) -> list[Session]:
    return played(treasurer, night, nine)


def test_a_tables_own_payment_after_the_rooms_is_409_settled_by_night(
    api: Api, club: Club, night: Night, tables: list[Session]
) -> None:
    t = money_selectors.night_settlement(night_id=night.pk).transfers[0]
    assert pay(api, club, t.payer, t.payee, t.cents, night=night.pk).status_code == 201
    payer, payee, cents = own_transfers(tables[1])[0]
    err = assert_error(pay(api, club, payer, payee, cents, session=tables[1].pk), 409, "settled_by_night", "session")
    assert set(err) == {"code", "message", "fields", "night"} and err["night"] == night.pk
    assert err["message"] == (
        f"table 2 is paid with the room of the night of {night.date}: a payment is recorded there, and it counts "
        "this table already, so paying the table's own transfers would pay twice; record the payments on the "
        "night's settlement"
    )
    assert err["fields"]["session"] == [err["message"]]


@pytest.mark.parametrize(("language", "words"), [("fr", "payer deux fois"), ("ru", "дважды")], ids=["fr", "ru"])
def test_the_refusal_is_said_in_the_players_language(
    api: Api, club: Club, night: Night, tables: list[Session], language: str, words: str
) -> None:
    t = money_selectors.night_settlement(night_id=night.pk).transfers[0]
    pay(api, club, t.payer, t.payee, t.cents, night=night.pk)
    payer, payee, cents = own_transfers(tables[0])[0]
    refused = pay(api, club, payer, payee, cents, language, session=tables[0].pk)
    err = assert_error(refused, 409, "settled_by_night", "session")
    assert words in err["message"] and str(night.date) in err["message"] and "would pay twice" not in err["message"]


def test_a_table_paid_on_its_own_first_is_left_out_of_the_rooms_settlement(
    api: Api, club: Club, night: Night, tables: list[Session]
) -> None:
    first = tables[0]
    payer, payee, cents = own_transfers(first)[0]
    assert pay(api, club, payer, payee, cents, session=first.pk).status_code == 201
    room = api.json("GET", f"/api/v1/nights/{night.pk}/settlement/").json()
    assert room["ready"] is True and room["alone"] == [first.pk]
    at_first = seated(first)
    assert room["transfers"] and all({t["payer"], t["payee"]}.isdisjoint(at_first) for t in room["transfers"])
    t = room["transfers"][0]
    assert pay(api, club, t["payer"], t["payee"], t["cents"], night=night.pk).status_code == 201
    payer, payee, cents = own_transfers(first)[1]  # the first table still takes its own
    assert pay(api, club, payer, payee, cents, session=first.pk).status_code == 201
    assert NightTable.objects.filter(night=night).count() == 2


def test_the_schema_documents_the_refusal(api: Api) -> None:
    schema = api.get("/api/schema/").json()
    payments = schema["paths"]["/api/v1/clubs/{club_id}/payments/"]["post"]
    assert "settled_by_night" in payments["description"]
    settlement = schema["paths"]["/api/v1/nights/{night_id}/settlement/"]["get"]
    assert "settled_by_night" in settlement["description"]
    error = schema["components"]["schemas"]["Error"]["properties"]["error"]["properties"]
    assert "settled_by_night" in error["night"]["description"]
