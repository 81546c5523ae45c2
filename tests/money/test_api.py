"""The money endpoints (api/money.py): roles, shapes, idempotent payments, statements in JSON and CSV,
and the session's `background` field."""

from __future__ import annotations

import csv
import io
import uuid
from typing import Any

import pytest

from ledger.models import MoneyTransaction, Player, Role, Session
from ledger.services.sessions import session_reopen
from tests.api.conftest import assert_error
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, member, open_session, record_all
from tests.money.helpers import assert_ledger_balanced, close, run_followup

pytestmark = pytest.mark.django_db


@pytest.fixture
def settled(admin: Any, club: Any, players: list[Player], session: Session) -> Session:
    """A closed USD session whose money is posted: Ann -30, Ben -115, Cleo 90, Dan 55."""
    record_all(admin, session, AMERICAN_HANDS)
    closed = close(admin, session)
    run_followup(closed)
    return closed


def payment(api: Any, club: Any, body: Any, key: str | None = None) -> Any:
    return api.json("POST", f"/api/v1/clubs/{club.pk}/payments/", body, **{"Idempotency-Key": key or str(uuid.uuid4())})


def test_settle_up_is_for_treasurers(
    api_for: Any, treasurer: Any, player_user: Any, other_admin: Any, club: Any, players: list[Player], settled: Any
) -> None:
    ann, ben, cleo, dan = (p.pk for p in players)
    response = api_for(treasurer).get(f"/api/v1/clubs/{club.pk}/settle-up/")
    assert response.status_code == 200
    body = response.json()
    assert body["club"] == club.pk
    (usd,) = body["currencies"]
    assert usd["currency"] == "USD"
    assert {b["party"]: b["balance"] for b in usd["balances"]} == {ann: -30, ben: -115, cleo: 90, dan: 55}
    assert {b["name"] for b in usd["balances"]} == {"Ann", "Ben", "Cleo", "Dan"}
    assert len(usd["transfers"]) == 3
    assert all(set(t) == {"from", "from_name", "to", "to_name", "cents"} for t in usd["transfers"])
    assert sum(t["cents"] for t in usd["transfers"]) == 145
    assert_error(api_for(player_user).get(f"/api/v1/clubs/{club.pk}/settle-up/"), 403, "permission_denied")
    assert_error(api_for(other_admin).get(f"/api/v1/clubs/{club.pk}/settle-up/"), 404, "not_found")
    assert_error(api_for().get(f"/api/v1/clubs/{club.pk}/settle-up/"), 401, "not_authenticated")


def test_a_treasurer_records_payments_once_per_idempotency_key(
    api_for: Any, treasurer: Any, admin: Any, club: Any, players: list[Player], settled: Any, other_admin: Any
) -> None:
    ann, ben, cleo, _ = players
    client = api_for(treasurer)
    key = str(uuid.uuid4())
    body = {"from": ann.pk, "to": cleo.pk, "currency": "USD", "cents": 20, "status": "partly_paid", "note": "cash"}
    first = payment(client, club, body, key)
    assert first.status_code == 201, first.json()
    tx = first.json()
    assert {k: tx[k] for k in ("kind", "currency", "from", "to", "cents", "note", "recorded_by", "session")} == {
        "kind": "partly_paid",
        "currency": "USD",
        "from": ann.pk,
        "to": cleo.pk,
        "cents": 20,
        "note": "cash",
        "recorded_by": "treasurer",
        "session": None,
    }
    assert sorted((e["name"], e["amount"]) for e in tx["entries"]) == [("Ann", 20), ("Cleo", -20)]
    again = payment(client, club, body, key)
    assert (again.status_code, again.json()) == (201, tx)
    assert_error(payment(client, club, dict(body, cents=5), key), 422, "idempotency_key_reused")
    assert MoneyTransaction.objects.filter(kind="partly_paid").count() == 1
    missing = client.json("POST", f"/api/v1/clubs/{club.pk}/payments/", body)
    assert_error(missing, 400, "idempotency_key_required")

    listed = client.get(f"/api/v1/clubs/{club.pk}/payments/").json()
    assert listed["count"] == 1 and listed["results"][0] == tx

    for bad, field in (
        (dict(body, cents=11), "cents"),  # Ann owes only 10 more
        (dict(body, cents="5"), None),
        (dict(body, status="lost"), "status"),
        (dict(body, currency="usd"), "currency"),
        (dict(body, to="bank"), "to"),
        (dict(body, to=True), "to"),
        (dict(body, extra=1), "extra"),
        ({"from": ann.pk}, "to"),
        ([1, 2], None),
    ):
        response = payment(client, club, bad)
        assert response.status_code == 400, (bad, response.json())
        if field is not None:
            assert field in response.json()["error"]["fields"], (bad, response.json())
    scorer = member(club, admin, "scorer-2", Role.SCORER)
    assert_error(payment(api_for(scorer), club, body), 403, "permission_denied")
    assert_error(payment(api_for(other_admin), club, body), 404, "not_found")
    assert_error(api_for(scorer).get(f"/api/v1/clubs/{club.pk}/payments/"), 403, "permission_denied")
    paid_in_full = payment(client, club, dict(body, cents=10, status="paid"))
    assert paid_in_full.status_code == 201
    written_off = payment(
        client, club, {"from": ben.pk, "to": cleo.pk, "currency": "USD", "cents": 60, "status": "written_off"}
    )
    assert written_off.status_code == 201
    assert_ledger_balanced()


def test_a_payment_tied_to_an_evening_and_an_overpayment_confirmed(
    api_for: Any, treasurer: Any, club: Any, players: list[Player], settled: Session
) -> None:
    ann, ben, cleo, dan = players
    client = api_for(treasurer)
    body = {"from": ann.pk, "to": cleo.pk, "currency": "USD", "cents": 50, "status": "paid", "session": settled.pk}
    refused = payment(client, club, body)  # the evening's transfer Ann -> Cleo is 30
    assert_error(refused, 400, "invalid_request")
    (message,) = refused.json()["error"]["fields"]["cents"]
    assert "0.30 USD" in message and "overpay" in message and "minor units" not in message
    recorded = payment(client, club, dict(body, overpay=True))
    assert recorded.status_code == 201, recorded.json()
    assert recorded.json()["for_session"] == settled.pk and recorded.json()["cents"] == 50
    wrong_way = payment(client, club, dict(body, **{"from": dan.pk, "to": ann.pk}))
    assert "session" in wrong_way.json()["error"]["fields"]
    # Cleo holds 0.20 of Ann's beyond the transfer: owed back, a refund tied to the evening (issue 38)
    refund = payment(client, club, dict(body, **{"from": cleo.pk, "to": ann.pk, "cents": 20}))
    assert refund.status_code == 201 and refund.json()["for_session"] == settled.pk
    free = payment(client, club, {"from": ben.pk, "to": dan.pk, "currency": "USD", "cents": 5, "status": "paid"})
    assert free.status_code == 201 and free.json()["for_session"] is None
    assert_ledger_balanced()


def test_a_player_reads_their_own_statement_and_a_treasurer_anyones(
    api_for: Any, admin: Any, treasurer: Any, club: Any, players: list[Player], settled: Session, other_admin: Any
) -> None:
    ann, _, cleo, _ = players
    ann_user = member(club, admin, "ann", Role.PLAYER)
    Player.objects.filter(pk=ann.pk).update(user=ann_user)
    paid = payment(
        api_for(treasurer), club, {"from": ann.pk, "to": cleo.pk, "currency": "USD", "cents": 30, "status": "paid"}
    )
    assert paid.status_code == 201
    session_reopen(actor=treasurer, session_id=settled.pk, expected_version=fresh(settled).version)
    run_followup(settled)

    own = api_for(ann_user).get(f"/api/v1/players/{ann.pk}/statement/")
    assert own.status_code == 200
    body = own.json()
    assert body["player"] == {"id": ann.pk, "name": "Ann", "club": club.pk}
    assert body["balances"] == [{"currency": "USD", "balance": 30}]  # her loss is undone, her payment stands
    assert body["count"] == 3
    lines = [(r["kind"], r["amount"], r["balance"], r["session"]) for r in body["results"]]
    assert lines == [("close", -30, -30, settled.pk), ("paid", 30, 0, None), ("reversal", 30, 30, settled.pk)]
    assert body["results"][2]["reverses"] == body["results"][0]["transaction"]
    assert body["results"][1]["counterparties"] == ["Cleo"]
    assert body["results"][1]["description"] == "paid to Cleo"
    page = api_for(ann_user).get(f"/api/v1/players/{ann.pk}/statement/?page=2&page_size=2").json()
    assert [r["balance"] for r in page["results"]] == [30]  # the running balance counts the earlier pages

    assert api_for(treasurer).get(f"/api/v1/players/{cleo.pk}/statement/").status_code == 200
    denied = api_for(ann_user).get(f"/api/v1/players/{cleo.pk}/statement/")
    assert_error(denied, 403, "permission_denied")
    assert_error(api_for(other_admin).get(f"/api/v1/players/{ann.pk}/statement/"), 404, "not_found")
    assert_error(api_for(ann_user).get("/api/v1/players/999999/statement/"), 404, "not_found")
    assert_error(api_for(ann_user).get(f"/api/v1/players/{ann.pk}/statement/?format=xml"), 400, "invalid_request")
    assert_error(api_for(ann_user).get(f"/api/v1/players/{ann.pk}/statement/?colour=red"), 400, "invalid_request")


def test_the_statement_as_csv(
    api_for: Any, admin: Any, treasurer: Any, club: Any, players: list[Player], settled: Session
) -> None:
    ben = players[1]
    Player.objects.filter(pk=ben.pk).update(name="=Ben")  # a name a spreadsheet would run as a formula
    client = api_for(treasurer)
    for response in (
        client.get(f"/api/v1/players/{ben.pk}/statement/?format=csv"),
        client.get(f"/api/v1/players/{ben.pk}/statement/", headers={"Accept": "text/csv"}),
    ):
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/csv")
        assert f'filename="statement-player-{ben.pk}.csv"' in response["Content-Disposition"]
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert len(rows) == 1
        row = rows[0]
        assert (row["kind"], row["currency"], row["amount_minor"], row["amount"], row["balance"]) == (
            "close",
            "USD",
            "-115",
            "-1.15",
            "-1.15",
        )
        assert row["session"] == str(settled.pk) and row["date"].endswith("Z")
    denied = api_for(member(club, admin, "nosy", Role.PLAYER)).get(
        f"/api/v1/players/{ben.pk}/statement/", headers={"Accept": "text/csv"}
    )
    assert_error(denied, 403, "permission_denied")  # refusals are JSON whatever was asked
    assert denied["Content-Type"].startswith("application/json")
    # A payment's counterparty named like a formula is quoted in the CSV's description.
    payment(client, club, {"from": ben.pk, "to": players[2].pk, "currency": "USD", "cents": 5, "status": "paid"})
    cleo_rows = list(
        csv.DictReader(
            io.StringIO(client.get(f"/api/v1/players/{players[2].pk}/statement/?format=csv").content.decode())
        )
    )
    assert cleo_rows[-1]["description"] == "paid by =Ben"


def test_carried_pools_are_listed_for_the_clubs_members(
    api_for: Any, admin: Any, player_user: Any, club: Any, players: list[Player], other_admin: Any
) -> None:
    carried = open_session(admin, club, players)
    record_all(admin, carried, AMERICAN_HANDS[:3])
    carried = close(admin, carried, "carry")  # carries [5]
    emptied = open_session(admin, club, players)
    record_all(admin, emptied, AMERICAN_HANDS[:2])
    close(admin, emptied, "divide")  # carries []
    open_session(admin, club, players)  # still open
    response = api_for(player_user).get(f"/api/v1/clubs/{club.pk}/carried-pools/")
    assert response.status_code == 200
    assert response.json()["count"] == 1
    (row,) = response.json()["results"]
    assert row == {
        "session": carried.pk,
        "variant": "american",
        "multi_pool": True,
        "carried": [5],
        "counters": 5,
        "stake": None,
        "closed_at": row["closed_at"],
    }
    opened = api_for(admin).json(
        "POST",
        "/api/v1/sessions/",
        {
            "club": club.pk,
            "variant": "american",
            "rules": {},
            "players": [p.pk for p in players],
            "first_dealer": 0,
            "carry_pools_from": carried.pk,
        },
    )
    assert opened.status_code == 201 and opened.json()["pools"] == [5]
    assert api_for(player_user).get(f"/api/v1/clubs/{club.pk}/carried-pools/").json()["count"] == 0
    assert_error(api_for(other_admin).get(f"/api/v1/clubs/{club.pk}/carried-pools/"), 404, "not_found")


def test_the_session_says_whether_its_background_work_is_pending(
    api: Any, admin: Any, session: Session, django_capture_on_commit_callbacks: Any
) -> None:
    assert api.get(f"/api/v1/sessions/{session.pk}/").json()["background"] == "done"  # nothing ever due
    record_all(admin, session, AMERICAN_HANDS)
    version = fresh(session).version
    response = api.json("POST", f"/api/v1/sessions/{session.pk}/close/", {}, **{"If-Match": f'"{version}"'})
    assert response.status_code == 200
    assert api.get(f"/api/v1/sessions/{session.pk}/").json()["background"] == "pending"
    run_followup(session)
    assert api.get(f"/api/v1/sessions/{session.pk}/").json()["background"] == "done"
    with django_capture_on_commit_callbacks(execute=True):
        reopened = api.json("POST", f"/api/v1/sessions/{session.pk}/reopen/", None, **{"If-Match": f'"{version + 1}"'})
    assert reopened.status_code == 200 and reopened.json()["status"] == "open"
    listed = api.get("/api/v1/sessions/").json()["results"][0]
    assert listed["background"] in ("pending", "done")
    run_followup(session)  # (eagerly it already ran: then this finds nothing to do)
    assert api.get(f"/api/v1/sessions/{session.pk}/").json()["background"] == "done"
    assert MoneyTransaction.objects.filter(session=session, kind="reversal").count() == 1


def test_the_payment_list_says_which_payments_are_reversed(
    api_for: Any, treasurer: Any, club: Any, players: list[Player], settled: Session
) -> None:
    """Issue 38, item 15: a reversed payment was listed as if it stood; it now names its reversal."""
    from ledger.money import services as money_services

    client = api_for(treasurer)
    ids = []
    for cents, overpay in ((30, False), (10, True)):  # Ann -> Cleo, the evening's 0.30, then 0.10 beyond it
        body = {"currency": "USD", "cents": cents, "status": "paid", "session": settled.pk, "overpay": overpay}
        answer = payment(client, club, {"from": players[0].pk, "to": players[2].pk, **body}).json()
        assert (answer["reversed_by"], answer["reversed_at"]) == (None, None)
        ids.append(answer["id"])
    first, second = ({"id": n} for n in ids)
    reversal = money_services.payment_reverse(actor=treasurer, club_id=club.pk, transaction_id=second["id"])
    listed = {p["id"]: p for p in client.get(f"/api/v1/clubs/{club.pk}/payments/").json()["results"]}
    assert listed[second["id"]]["reversed_by"] == reversal.pk
    assert listed[second["id"]]["reversed_at"].endswith("Z")
    assert listed[first["id"]]["reversed_by"] is None
