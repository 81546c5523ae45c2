"""A substitute mid-game through the API (issue 37): `POST /sessions/{id}/substitutions/` with its
Idempotency-Key, roles (scorers, treasurers, admins of the session's club only), refusals in words (400),
races (409) and the close; the close's money per player-stint, posted to the ledger per player, and the
night's room adding the leaver and his substitute up apart."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from ledger import selectors
from ledger.engine import settle
from ledger.models import Club, NightTable, Player, SeatChange, Session
from ledger.money.selectors import night_settlement
from ledger.services.clubs import player_create
from ledger.services.hands import hand_undo
from ledger.stats.models import PlayerSession
from tests.api.conftest import Api, assert_error
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, record_all
from tests.money.helpers import assert_ledger_balanced, close, run_followup

pytestmark = pytest.mark.django_db

USD = {"currency": "USD", "per_counter": "0.01"}


def substitute(api: Api, session: Session, body: dict[str, Any], key: str | None = None) -> Any:
    return api.json(
        "POST",
        f"/api/v1/sessions/{session.pk}/substitutions/",
        body,
        **{"Idempotency-Key": key or str(uuid.uuid4())},
    )


def test_a_guest_takes_a_seat_from_the_next_deal_and_the_close_settles_each_stint(
    api: Api, admin: Any, session: Session, players: list[Player]
) -> None:
    record_all(admin, session, AMERICAN_HANDS[:2])
    seated = substitute(api, session, {"seat": 1, "guest": "Quinn", "number": 3})
    assert seated.status_code == 201, seated.content
    body = seated.json()
    assert (body["seat"], body["from"], body["player_name"]) == (1, 3, "Quinn")
    record_all(admin, session, AMERICAN_HANDS[2:])
    sheet = api.json("GET", f"/api/v1/sessions/{session.pk}/sheet/").json()
    assert sheet["substitutions"] == [{"seat": 1, "player": "Quinn", "from": 3}]
    assert sheet["players"] == ["Ann", "Ben", "Cleo", "Dan"]  # the opening four stay the sheet's players
    closed = close(admin, session)
    stints = closed.closing["stints"]
    assert [(s["player"], s["from"], s["to"]) for s in stints] == [
        ("Ann", 1, None),
        ("Ben", 1, 2),
        ("Cleo", 1, None),
        ("Dan", 1, None),
        ("Quinn", 3, None),
    ]
    hands = [h.settled for h in closed.hands.order_by("number")]
    # Ben's counters are exactly his two deals' (the pools divided went to the seat's holder by the
    # American custom: the pools standing at the close were formed at a deal Quinn played, or Ben's).
    ben_share = stints[1]["final"] - sum(h["deltas"][1] for h in hands[:2])
    quinn_share = stints[4]["final"] - sum(h["deltas"][1] for h in hands[2:])
    assert sorted([ben_share, quinn_share]) == [0, closed.closing["division"][1]]
    assert closed.closing == settle(selectors.session_sheet(session=closed))["close"]
    # The ledger: each player's own money, Quinn included; the books balance.
    run_followup(closed)
    assert_ledger_balanced(closed.club_id)
    quinn = Player.objects.get(club_id=closed.club_id, name="Quinn")
    rows = {r.player_id: r for r in PlayerSession.objects.filter(session=closed)}
    assert rows[quinn.pk].deals == 2 and rows[players[1].pk].deals == 2 and rows[players[0].pk].deals == 4
    assert rows[quinn.pk].money == stints[4]["money"] and rows[players[1].pk].money == stints[1]["money"]


def test_the_key_makes_a_retry_answer_the_same_substitution(
    api: Api, admin: Any, session: Session, players: list[Player]
) -> None:
    record_all(admin, session, AMERICAN_HANDS[:1])
    key = str(uuid.uuid4())
    first = substitute(api, session, {"seat": 2, "guest": "Quinn"}, key)
    again = substitute(api, session, {"seat": 2, "guest": "Quinn"}, key)
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert SeatChange.objects.filter(session=session).count() == 1
    assert_error(substitute(api, session, {"seat": 3, "guest": "Quinn"}, key), 422, "idempotency_key_reused")
    missing = api.json("POST", f"/api/v1/sessions/{session.pk}/substitutions/", {"seat": 2, "guest": "Rex"})
    assert missing.status_code == 400 and "Idempotency-Key" in missing.json()["error"]["message"]


def test_refusals_name_the_field_and_races_are_409(
    api: Api, admin: Any, session: Session, players: list[Player], club: Club
) -> None:
    assert_error(substitute(api, session, {"seat": 1, "guest": "Quinn"}), 400, "invalid_request", "seat")  # no deal yet
    record_all(admin, session, AMERICAN_HANDS[:2])
    assert_error(substitute(api, session, {"seat": 4, "guest": "Quinn"}), 400, "invalid_request", "seat")
    assert_error(substitute(api, session, {"seat": 1}), 400, "invalid_request", "player")
    assert_error(substitute(api, session, {"seat": 1, "player": players[2].pk}), 400, "invalid_request", "player")
    assert_error(substitute(api, session, {"seat": 1, "guest": "Аnn"}), 400, "invalid_request", "name")  # look-alike
    assert_error(substitute(api, session, {"seat": 1, "player": 999999}), 400, "invalid_request", "player")
    assert_error(substitute(api, session, {"seat": 1, "guest": "Q", "number": 2}), 409, "stale_number")
    assert_error(substitute(api, session, {"seat": 1, "guest": "Q", "number": 9}), 400, "invalid_request", "number")
    assert substitute(api, session, {"seat": 1, "guest": "Quinn"}).status_code == 201
    assert_error(substitute(api, session, {"seat": 1, "guest": "Rex"}), 409, "seat_changed")
    quinn = Player.objects.get(club=club, name="Quinn")
    assert_error(substitute(api, session, {"seat": 0, "player": quinn.pk}), 400, "invalid_request", "player")
    assert_error(substitute(api, session, {"seat": 0, "guest": "Quinn"}), 400, "invalid_request", "name")
    close(admin, session)
    assert_error(substitute(api, session, {"seat": 2, "guest": "Rex"}), 409, "session_closed")


def test_only_scorers_and_above_of_the_club_seat_a_substitute(
    api_for: Callable[..., Api],
    admin: Any,
    session: Session,
    scorer: Any,
    treasurer: Any,
    player_user: Any,
    other_admin: Any,
) -> None:
    record_all(admin, session, AMERICAN_HANDS[:1])
    assert_error(substitute(api_for(other_admin), session, {"seat": 0, "guest": "Zed"}), 404, "not_found")
    assert_error(substitute(api_for(player_user), session, {"seat": 0, "guest": "Zed"}), 403, "permission_denied")
    assert substitute(api_for(scorer), session, {"seat": 0, "guest": "Zed"}).status_code == 201
    assert substitute(api_for(treasurer), session, {"seat": 1, "guest": "Yan"}).status_code == 201
    listed = api_for(player_user).json("GET", f"/api/v1/sessions/{session.pk}/substitutions/")
    assert [(s["seat"], s["player_name"]) for s in listed.json()] == [(0, "Zed"), (1, "Yan")]
    assert api_for(other_admin).json("GET", f"/api/v1/sessions/{session.pk}/substitutions/").status_code == 404


def test_undoing_the_last_deal_keeps_the_substitute_for_the_next(
    api: Api, admin: Any, session: Session, players: list[Player]
) -> None:
    record_all(admin, session, AMERICAN_HANDS[:2])
    assert substitute(api, session, {"seat": 1, "guest": "Quinn"}).status_code == 201
    current = fresh(session)
    hand_undo(actor=admin, session_id=session.pk, number=2, expected_version=current.version)
    assert list(SeatChange.objects.values_list("seat", "from_hand")) == [(1, 2)]
    record_all(admin, session, AMERICAN_HANDS[1:])
    assert [s["player"] for s in close(admin, session).closing["stints"]][4] == "Quinn"


def test_the_rooms_settlement_nets_a_leaver_and_his_substitute_apart(
    api: Api, admin: Any, club: Club, players: list[Player]
) -> None:
    extra = [player_create(actor=admin, club_id=club.pk, name=n) for n in ("Eve", "Fay", "Gus", "Hal")]
    night = api.json("POST", f"/api/v1/clubs/{club.pk}/nights/", {"date": "2026-03-14"}).json()
    for p in [*players, *extra]:
        api.json("POST", f"/api/v1/nights/{night['id']}/check-ins/", {"player": p.pk})
    api.json("POST", f"/api/v1/nights/{night['id']}/draw/", {"variant": "american", "stake": USD, "seed": 5})
    tables = [t.session for t in NightTable.objects.filter(night_id=night["id"]).order_by("number")]
    record_all(admin, tables[0], AMERICAN_HANDS[:2])
    assert substitute(api, tables[0], {"seat": 2, "guest": "Quinn"}).status_code == 201
    record_all(admin, tables[0], AMERICAN_HANDS[2:])
    record_all(admin, tables[1], AMERICAN_HANDS)
    closes = [close(admin, t) for t in tables]
    for t in closes:
        run_followup(t)
    room = night_settlement(night_id=night["id"])
    assert room.ready
    expected: dict[Any, int] = {}
    for t in closes:
        for p, cents in zip(selectors.closing_players(session=t), t.closing["money"], strict=True):
            expected[p.pk] = expected.get(p.pk, 0) + cents
        if t.closing.get("pool_money"):
            expected["pool"] = expected.get("pool", 0) + t.closing["pool_money"]
    assert {p: a for p, _, a in room.totals} == {p: a for p, a in expected.items() if a or p != "pool"}
    quinn = Player.objects.get(club=club, name="Quinn").pk
    assert quinn in {p for p, _, _ in room.totals}
    balance = {p: a for p, _, a in room.totals}
    for tr in room.transfers:
        balance[tr.payer] += tr.cents
        balance[tr.payee] -= tr.cents
    assert set(balance.values()) <= {0}


def test_a_sheet_with_its_seat_history_is_imported_as_it_was_played(
    api: Api, admin: Any, session: Session, club: Club
) -> None:
    record_all(admin, session, AMERICAN_HANDS[:2])
    assert substitute(api, session, {"seat": 0, "guest": "Quinn"}).status_code == 201
    record_all(admin, session, AMERICAN_HANDS[2:])
    closed = close(admin, session)
    sheet = api.json("GET", f"/api/v1/sessions/{session.pk}/sheet/").json()
    imported = api.json("POST", "/api/v1/sessions/import/", {"club": club.pk, "sheet": sheet})
    assert imported.status_code == 201, imported.content
    copy = Session.objects.get(pk=imported.json()["id"])
    assert copy.closing == closed.closing
    assert list(SeatChange.objects.filter(session=copy).values_list("seat", "player__name", "from_hand")) == [
        (0, "Quinn", 3)
    ]
    assert api.json("GET", f"/api/v1/sessions/{copy.pk}/sheet/").json() == sheet


def test_at_a_night_the_waiting_player_who_takes_a_seat_plays_and_the_leaver_no_longer_waits(
    api: Api, admin: Any, club: Club, players: list[Player]
) -> None:
    extra = [player_create(actor=admin, club_id=club.pk, name=n) for n in ("Eve", "Fay", "Gus", "Hal", "Ida")]
    night = api.json("POST", f"/api/v1/clubs/{club.pk}/nights/", {"date": "2026-03-14"}).json()
    for p in [*players, *extra]:
        api.json("POST", f"/api/v1/nights/{night['id']}/check-ins/", {"player": p.pk})
    api.json("POST", f"/api/v1/nights/{night['id']}/draw/", {"variant": "american", "stake": USD, "seed": 5})
    room = api.json("GET", f"/api/v1/nights/{night['id']}/").json()
    assert [w["name"] for w in room["waiting"]] == ["Ida"]
    table = NightTable.objects.filter(night_id=night["id"]).order_by("number").first()
    assert table is not None
    record_all(admin, table.session, AMERICAN_HANDS[:2])
    leaver = room["tables"][0]["seats"][2]
    ida = Player.objects.get(club=club, name="Ida")
    assert substitute(api, table.session, {"seat": 2, "player": ida.pk}).status_code == 201
    room = api.json("GET", f"/api/v1/nights/{night['id']}/").json()
    assert room["tables"][0]["seats"][2]["name"] == "Ida"
    assert room["waiting"] == []  # Ida plays; the leaver went home, he does not wait to cut in
    assert leaver["player"] not in {s["player"] for t in room["tables"] for s in t["seats"]}
