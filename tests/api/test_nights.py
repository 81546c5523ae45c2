"""The club night's API (issue 37): a night opened once, check-ins (a guest by name), the draw with its
seat links (once: a second draw is 409), the room's settlement, and its transfers paid with `night`."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from ledger.models import Club, NightTable, Player
from ledger.services.clubs import player_create
from ledger.services.presets import preset_create
from tests.api.conftest import Api, assert_error
from tests.ledger_fixtures import AMERICAN_HANDS, record_all
from tests.money.helpers import close, run_followup

pytestmark = pytest.mark.django_db

USD = {"currency": "USD", "per_counter": "0.01"}


@pytest.fixture
def nine(admin: Any, club: Club) -> list[Player]:
    return [
        player_create(actor=admin, club_id=club.pk, name=n)
        for n in ("Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida")
    ]


def open_night(api: Api, club: Club) -> dict[str, Any]:
    answer = api.json("POST", f"/api/v1/clubs/{club.pk}/nights/", {"date": "2026-03-14"})
    assert answer.status_code in (200, 201), answer.content
    return dict(answer.json())


def test_a_night_is_opened_once_and_listed(api: Api, club: Club) -> None:
    first = api.json("POST", f"/api/v1/clubs/{club.pk}/nights/", {"date": "2026-03-14"})
    again = api.json("POST", f"/api/v1/clubs/{club.pk}/nights/", {"date": "2026-03-14"})
    assert (first.status_code, again.status_code) == (201, 200) and first.json() == again.json()
    assert first.json()["date"] == "2026-03-14" and first.json()["draw_seed"] is None
    listed = api.json("GET", f"/api/v1/clubs/{club.pk}/nights/").json()
    assert [n["id"] for n in listed["results"]] == [first.json()["id"]]
    assert_error(
        api.json("POST", f"/api/v1/clubs/{club.pk}/nights/", {"date": "14/03"}), 400, "invalid_request", "date"
    )


def test_check_ins_keep_the_arrival_and_a_guest_obeys_the_name_rules(api: Api, club: Club, nine: list[Player]) -> None:
    night = open_night(api, club)
    url = f"/api/v1/nights/{night['id']}/check-ins/"
    first = api.json("POST", url, {"player": nine[0].pk})
    assert first.status_code == 201 and first.json()["arrival"] == 1
    assert api.json("POST", url, {"player": nine[0].pk}).status_code == 200  # twice is once
    guest = api.json("POST", url, {"guest": "Quinn"})
    assert guest.status_code == 201 and guest.json()["name"] == "Quinn" and guest.json()["arrival"] == 2
    assert_error(api.json("POST", url, {"guest": "Аnn"}), 400, "invalid_request", "name")
    assert_error(api.json("POST", url, {}), 400, "invalid_request", "player")
    assert_error(api.json("POST", url, {"player": nine[1].pk, "guest": "X"}), 400, "invalid_request", "player")


def test_the_draw_answers_the_tables_their_seat_links_and_who_waits_once(
    api: Api, club: Club, nine: list[Player]
) -> None:
    night = open_night(api, club)
    for p in nine:
        api.json("POST", f"/api/v1/nights/{night['id']}/check-ins/", {"player": p.pk})
    url = f"/api/v1/nights/{night['id']}/draw/"
    drawn = api.json("POST", url, {"variant": "american", "stake": USD, "seed": 158})
    assert drawn.status_code == 201, drawn.content
    body = drawn.json()
    assert body["night"]["draw_seed"] == 158 and body["night"]["draw_method"] == "lot"
    assert [w["name"] for w in body["waiting"]] == ["Ida"]
    assert len(body["tables"]) == 2 and all(len(t["seat_links"]) == 4 for t in body["tables"])
    key = body["tables"][0]["seat_links"][0]["key"]
    assert api_seat(key).status_code == 200  # the link reads its table
    assert_error(api.json("POST", url, {"variant": "american", "seed": 158}), 409, "night_drawn")
    room = api.json("GET", f"/api/v1/nights/{night['id']}/").json()
    assert [t["session"] for t in room["tables"]] == [t["session"] for t in body["tables"]]
    assert "seat_links" not in room["tables"][0]


def api_seat(key: str) -> Any:
    return Api().get(f"/api/v1/seat/{key}/")


def test_a_draw_of_too_few_or_a_bad_stake_is_refused_naming_the_field(api: Api, club: Club, nine: list[Player]) -> None:
    night = open_night(api, club)
    url = f"/api/v1/nights/{night['id']}/draw/"
    assert_error(api.json("POST", url, {"variant": "american"}), 400, "invalid_request", "players")
    assert_error(api.json("POST", url, {"variant": "american", "method": "age"}), 400, "invalid_request", "method")
    for p in nine[:4]:
        api.json("POST", f"/api/v1/nights/{night['id']}/check-ins/", {"player": p.pk})
    bad = api.json("POST", url, {"variant": "american", "stake": {"currency": "usd", "per_counter": "1"}})
    assert bad.status_code == 400 and not NightTable.objects.exists()


def test_the_rooms_settlement_and_a_payment_tied_to_the_night(
    api: Api, admin: Any, club: Club, nine: list[Player]
) -> None:
    night = open_night(api, club)
    for p in nine[:8]:
        api.json("POST", f"/api/v1/nights/{night['id']}/check-ins/", {"player": p.pk})
    api.json("POST", f"/api/v1/nights/{night['id']}/draw/", {"variant": "american", "stake": USD, "seed": 3})
    url = f"/api/v1/nights/{night['id']}/settlement/"
    waiting = api.json("GET", url).json()
    assert waiting["ready"] is False and waiting["refusal"] and waiting["transfers"] == []
    for table in NightTable.objects.filter(night_id=night["id"]):
        record_all(admin, table.session, AMERICAN_HANDS)
        run_followup(close(admin, table.session))
    room = api.json("GET", url).json()
    assert room["ready"] is True and room["currency"] == "USD"
    assert sum(t["cents"] for t in room["totals"]) == 0 and room["transfers"]
    t = room["transfers"][0]
    body = {"from": t["payer"], "to": t["payee"], "currency": "USD", "cents": t["cents"], "status": "paid"}
    paid = api.json(
        "POST",
        f"/api/v1/clubs/{club.pk}/payments/",
        {**body, "night": night["id"]},
        **{"Idempotency-Key": str(uuid.uuid4())},
    )
    assert paid.status_code == 201, paid.content
    assert paid.json()["for_night"] == night["id"] and paid.json()["for_session"] is None
    assert api.json("GET", url).json()["transfers"][0]["paid"] == t["cents"]
    over = api.json(
        "POST",
        f"/api/v1/clubs/{club.pk}/payments/",
        {**body, "night": night["id"]},
        **{"Idempotency-Key": str(uuid.uuid4())},
    )
    assert_error(over, 400, "invalid_request", "cents")


def test_another_clubs_night_is_not_found(
    api_for: Callable[..., Api], api: Api, club: Club, other_admin: Any, treasurer: Any, player_user: Any
) -> None:
    night = open_night(api, club)
    stranger = api_for(other_admin)
    for method, url in (
        ("GET", f"/api/v1/nights/{night['id']}/"),
        ("GET", f"/api/v1/nights/{night['id']}/settlement/"),
        ("POST", f"/api/v1/nights/{night['id']}/check-ins/"),
        ("POST", f"/api/v1/nights/{night['id']}/draw/"),
    ):
        assert_error(stranger.json(method, url, {"guest": "Zed"} if method == "POST" else None), 404, "not_found")
    assert_error(api_for(player_user).json("GET", f"/api/v1/nights/{night['id']}/"), 403, "permission_denied")
    assert api_for(treasurer).json("GET", f"/api/v1/nights/{night['id']}/").status_code == 200


def test_the_draw_from_a_preset_takes_no_variant_of_its_own(
    api: Api, admin: Any, club: Club, nine: list[Player]
) -> None:
    preset = preset_create(actor=admin, club_id=club.pk, name="Friday", variant="french", rules={}, stake=USD)
    night = open_night(api, club)
    for p in nine[:4]:
        api.json("POST", f"/api/v1/nights/{night['id']}/check-ins/", {"player": p.pk})
    url = f"/api/v1/nights/{night['id']}/draw/"
    assert_error(api.json("POST", url, {"preset": preset.pk, "variant": "american"}), 400, "invalid_request", "variant")
    assert_error(api.json("POST", url, {}), 400, "invalid_request", "variant")
    drawn = api.json("POST", url, {"preset": preset.pk})
    assert drawn.status_code == 201, drawn.content
    session = NightTable.objects.get(night_id=night["id"]).session
    assert session.variant == "french" and session.preset_version.preset_id == preset.pk
