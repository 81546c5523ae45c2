"""Every operation of `/api/schema/` answers, on a real request, a body its schema documents.

schemathesis (test_schemathesis.py) checks the answers to the requests it generates, mostly refusals;
here each operation gets one request that succeeds, and its body is validated against the schema's
response for that status and media type, strictly: an object the schema describes field by field
may carry no field it does not name, so an answer and its documentation cannot drift apart.
"""

from __future__ import annotations

import copy
import json
import uuid
from typing import Any

import jsonschema
import pytest

from ledger.engine.variants import variant_names
from ledger.models import NightTable, Player, Role
from tests.ledger_fixtures import AMERICAN_HANDS, example_sheet, member, record_all

pytestmark = pytest.mark.django_db
METHODS = {"get", "post", "put", "patch", "delete"}


def strict(node: Any) -> Any:
    """OpenAPI 3.0's schema as JSON Schema: `nullable` as a null alternative, and no undocumented field
    in an object whose fields are listed."""
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: strict(value) for key, value in node.items() if key != "properties"}
    if "properties" in node:  # field names, not keywords (a field may be called `nullable`)
        out["properties"] = {name: strict(value) for name, value in node["properties"].items()}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if out.pop("nullable", False):
        return {"anyOf": [out, {"type": "null"}]}
    return out


class Answers:
    """Requests by the schema's path templates; every 2xx body validated against its operation's schema."""

    def __init__(self, client: Any, schema: dict[str, Any]) -> None:
        self.client = client
        self.schema = schema
        self.components = {"schemas": {name: strict(s) for name, s in schema["components"]["schemas"].items()}}
        self.seen: set[tuple[str, str]] = set()

    def __call__(self, method: str, template: str, body: Any = None, status: int = 200, **kwargs: Any) -> Any:
        headers = kwargs.pop("headers", {})
        accept = headers.get("Accept", "application/json")
        response = getattr(self.client, method.lower())(
            template.format(**kwargs), body, format="json", headers=headers or None
        )
        assert response.status_code == status, (method, template, response.status_code, response.content[:300])
        template = template.split("?")[0]
        operation = self.schema["paths"][template][method.lower()]
        documented = operation["responses"][str(status)]
        if status == 204:
            assert "content" not in documented and not response.content
        else:
            media = response["Content-Type"].split(";")[0]
            assert media == accept, (template, media)
            schema = documented["content"][media]["schema"]
            data = response.json() if media == "application/json" else response.content.decode()
            validator = jsonschema.Draft7Validator({**strict(schema), "components": self.components})
            errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
            assert not errors, (method, template, [(list(e.absolute_path), e.message) for e in errors[:5]])
        self.seen.add((method.lower(), template))
        return response


def test_every_operation_answers_what_its_schema_documents(
    api_for: Any,
    admin: Any,
    club: Any,
    players: list[Any],
    django_capture_on_commit_callbacks: Any,
    background_work_in_process: None,  # the settle-up needs the close's and imports' money postings
) -> None:
    anon = api_for()
    schema = anon.get("/api/schema/").json()
    call = Answers(api_for(admin), schema)
    public = Answers(anon, schema)
    ids = [p.pk for p in players]
    member(club, admin, "treasurer", Role.TREASURER)

    public("POST", "/api/v1/auth/token/", {"username": "admin", "password": "bars-pass-1234", "device": "d"}, 201)
    call("GET", "/api/v1/auth/tokens/")
    call("GET", "/api/v1/clubs/")
    call("POST", "/api/v1/clubs/", {"name": "Second Club"}, 201)
    call("GET", "/api/v1/clubs/{club_id}/players/", club_id=club.pk)
    call("POST", "/api/v1/clubs/{club_id}/players/", {"name": "Eve"}, 201, club_id=club.pk)
    public("GET", "/api/v1/variants/")
    for name in variant_names():
        public("GET", "/api/v1/variants/{name}/", name=name)

    # A session of every variant, a few deals recorded: `next_legal` under each one's rules.
    sheets = {
        name: example_sheet(name)
        for name in (
            "american-adjustments",
            "french-partie-house-rules",
            "russian-partie-defaults",
            "fontainebleau-evening-house-rules",
            "american-last-trick-hand",
        )
    }
    opened = {}
    for name, sheet in sheets.items():
        body = {"club": club.pk, "variant": sheet["variant"], "rules": sheet.get("rules", {}), "players": ids}
        body.update(first_dealer=sheet["first_dealer"], stake={"currency": "USD", "per_counter": "0.01"})
        sid = call("POST", "/api/v1/sessions/", body, 201).json()["id"]
        for hand in sheet["hands"][:3]:
            key = {"Idempotency-Key": str(uuid.uuid4())}
            call("POST", "/api/v1/sessions/{session_id}/hands/", hand, 201, headers=key, session_id=sid)
        call("GET", "/api/v1/sessions/{session_id}/", session_id=sid)
        opened[name] = sid
    sid = opened["american-adjustments"]
    version = call("GET", "/api/v1/sessions/{session_id}/", session_id=sid).json()["version"]
    amended = copy.deepcopy(sheets["american-adjustments"]["hands"][1])
    at = {"If-Match": f'"{version}"', "X-Reason": "typo"}
    call("PUT", "/api/v1/sessions/{session_id}/hands/{number}/", amended, headers=at, session_id=sid, number=2)
    call("GET", "/api/v1/sessions/{session_id}/hands/", session_id=sid)
    call("GET", "/api/v1/sessions/{session_id}/hands/{number}/", session_id=sid, number=2)
    call("GET", "/api/v1/sessions/{session_id}/hands/{number}/history/", session_id=sid, number=2)
    at = {"If-Match": f'"{version + 1}"'}
    call("DELETE", "/api/v1/sessions/{session_id}/hands/{number}/", headers=at, session_id=sid, number=3)
    call("GET", "/api/v1/sessions/{session_id}/settlement/", session_id=sid)
    call("GET", "/api/v1/sessions/{session_id}/sheet/", session_id=sid)
    call("GET", "/api/v1/sessions/", status=200)
    with django_capture_on_commit_callbacks(execute=True):  # the close's follow-up: money and statistics
        at = {"If-Match": f'"{version + 2}"'}
        call("POST", "/api/v1/sessions/{session_id}/close/", {"pools": "carry"}, headers=at, session_id=sid)
        for name in ("american-evening-defaults", "fontainebleau-stake-yen"):
            call("POST", "/api/v1/sessions/import/", {"club": club.pk, "sheet": example_sheet(name)}, 201)
    call("GET", "/api/v1/clubs/{club_id}/carried-pools/", club_id=club.pk)
    call("PUT", "/api/v1/clubs/{club_id}/time-zone/", {"time_zone": "Europe/Paris"}, club_id=club.pk)
    call("PUT", "/api/v1/clubs/{club_id}/payment/", {"iban": "FR7630006000011234567890189"}, club_id=club.pk)
    plan = call("GET", "/api/v1/clubs/{club_id}/settle-up/", club_id=club.pk).json()
    currency, transfer = next(
        (plan["currency"], t) for plan in plan["currencies"] for t in plan["transfers"] if t["from"] != "pool"
    )
    payment = {"from": transfer["from"], "to": transfer["to"], "currency": currency, "cents": 1, "status": "paid"}
    key = {"Idempotency-Key": str(uuid.uuid4())}
    call("POST", "/api/v1/clubs/{club_id}/payments/", payment, 201, headers=key, club_id=club.pk)
    call("GET", "/api/v1/clubs/{club_id}/payments/", club_id=club.pk)
    payer = transfer["from"]
    csv = {"Accept": "text/csv"}
    for template in ("/api/v1/players/{player_id}/statement/", "/api/v1/players/{player_id}/stats/"):
        call("GET", template, player_id=payer)
        call("GET", template, headers=csv, player_id=payer)
    call("GET", "/api/v1/players/{player_id}/ratings/", player_id=payer)
    for by in ("rating", "success"):
        call("GET", "/api/v1/clubs/{club_id}/leaderboard/?by=" + by, club_id=club.pk)
    version = call("GET", "/api/v1/sessions/{session_id}/", session_id=sid).json()["version"]
    call("POST", "/api/v1/sessions/{session_id}/reopen/", headers={"If-Match": f'"{version}"'}, session_id=sid)
    public("POST", "/api/v1/settle/", json.loads(json.dumps(example_sheet("french-slams"))))

    # The whole table (issue 25): the admin sits at a table of his own and speaks for his seat.
    zed = call("POST", "/api/v1/clubs/{club_id}/players/", {"name": "Zed"}, 201, club_id=club.pk).json()["id"]
    Player.objects.filter(pk=zed).update(user=admin)
    body = {"club": club.pk, "variant": "american", "players": [zed, *ids[:3]], "first_dealer": 0}
    tid = call("POST", "/api/v1/sessions/", body, 201).json()["id"]
    for hand in sheets["american-adjustments"]["hands"][:2]:
        key = {"Idempotency-Key": str(uuid.uuid4())}
        call("POST", "/api/v1/sessions/{session_id}/hands/", hand, 201, headers=key, session_id=tid)
    call("POST", "/api/v1/sessions/{session_id}/hands/{number}/confirm/", {}, session_id=tid, number=1)
    call("POST", "/api/v1/sessions/{session_id}/hands/{number}/dispute/", {"reason": "no"}, session_id=tid, number=2)
    call("GET", "/api/v1/sessions/{session_id}/checks/", session_id=tid)
    settle_path = "/api/v1/sessions/{session_id}/hands/{number}/disputes/{seat}/settle/"
    call("POST", settle_path, {"outcome": "resolved"}, session_id=tid, number=2, seat=0)
    link = call("POST", "/api/v1/sessions/{session_id}/seat-links/", {"seat": 1}, 201, session_id=tid).json()
    public("GET", "/api/v1/seat/{key}/", key=link["key"])
    public("POST", "/api/v1/seat/{key}/hands/{number}/confirm/", {}, key=link["key"], number=1)
    public("POST", "/api/v1/seat/{key}/hands/{number}/dispute/", {"reason": "no"}, key=link["key"], number=2)
    revoke = "/api/v1/sessions/{session_id}/seat-links/{link_id}/"
    call("DELETE", revoke, status=204, session_id=tid, link_id=link["id"])
    # A substitute mid-game (issue 37): a guest takes seat 3 from the next deal.
    key = {"Idempotency-Key": str(uuid.uuid4())}
    subs = "/api/v1/sessions/{session_id}/substitutions/"
    call("POST", subs, {"seat": 3, "guest": "Una", "number": 3}, 201, headers=key, session_id=tid)
    call("GET", subs, session_id=tid)
    # The club night (issue 37): opened, four checked in and a guest, the tables drawn, the room's settlement.
    night = call("POST", "/api/v1/clubs/{club_id}/nights/", {}, 201, club_id=club.pk).json()["id"]
    call("GET", "/api/v1/clubs/{club_id}/nights/", club_id=club.pk)
    for pid in ids:
        call("POST", "/api/v1/nights/{night_id}/check-ins/", {"player": pid}, 201, night_id=night)
    call("POST", "/api/v1/nights/{night_id}/check-ins/", {"guest": "Ivo"}, 201, night_id=night)
    drawn = {"variant": "american", "stake": {"currency": "USD", "per_counter": "0.01"}, "seed": 7}
    call("POST", "/api/v1/nights/{night_id}/draw/", drawn, 201, night_id=night)
    call("GET", "/api/v1/nights/{night_id}/", night_id=night)
    call("GET", "/api/v1/nights/{night_id}/settlement/", night_id=night)
    # A game of twelve deals at table 1, then Ivo cuts in (game 2).
    table = NightTable.objects.get(night_id=night, number=1).session
    record_all(admin, table, (AMERICAN_HANDS * 3)[:11] + AMERICAN_HANDS[:1])
    cut = "/api/v1/nights/{night_id}/tables/{number}/cut-in/"
    call("GET", cut, night_id=night, number=1)
    call("POST", cut, {"game": 1}, 201, night_id=night, number=1)
    board = call("POST", "/api/v1/clubs/{club_id}/board-links/", {"name": "room"}, 201, club_id=club.pk).json()
    call("DELETE", "/api/v1/clubs/{club_id}/board-links/{link_id}/", status=204, club_id=club.pk, link_id=board["id"])

    # presets (issue 42): kept by treasurers and admins, a table opened from one
    house = {"name": "House", "variant": "russian", "rules": {"basket": 20}, "stake": None}
    pid = call("POST", "/api/v1/clubs/{club_id}/presets/", house, 201, club_id=club.pk).json()["id"]
    call("GET", "/api/v1/clubs/{club_id}/presets/", club_id=club.pk)
    call("GET", "/api/v1/clubs/{club_id}/presets/{preset_id}/", club_id=club.pk, preset_id=pid)
    edit = {**house, "stake": {"currency": "RUB", "per_counter": "1"}}
    at = {"If-Match": '"1"'}
    call("PUT", "/api/v1/clubs/{club_id}/presets/{preset_id}/", edit, headers=at, club_id=club.pk, preset_id=pid)
    call("GET", "/api/v1/clubs/{club_id}/presets/{preset_id}/versions/", club_id=club.pk, preset_id=pid)
    body = {"club": club.pk, "preset": pid, "players": ids, "first_dealer": 0}
    assert call("POST", "/api/v1/sessions/", body, 201).json()["preset_version"] == 2
    call("DELETE", "/api/v1/clubs/{club_id}/presets/{preset_id}/", status=204, club_id=club.pk, preset_id=pid)

    # seasons (issue 41): defined by treasurers and admins, their standings in JSON and CSV, stored on demand
    winter = {"name": "Winter", "starts_on": "2024-01-01", "ends_on": "2030-12-31", "variants": ["american"]}
    sid = call("POST", "/api/v1/clubs/{club_id}/seasons/", winter, 201, club_id=club.pk).json()["id"]
    call("GET", "/api/v1/clubs/{club_id}/seasons/", club_id=club.pk)
    call("GET", "/api/v1/clubs/{club_id}/seasons/{season_id}/", club_id=club.pk, season_id=sid)
    season_edit = {**winter, "min_evenings": 1, "best_of": 3}
    path = "/api/v1/clubs/{club_id}/seasons/{season_id}/"
    call("PUT", path, season_edit, headers={"If-Match": '"1"'}, club_id=club.pk, season_id=sid)
    standings = "/api/v1/clubs/{club_id}/seasons/{season_id}/standings/"
    call("GET", standings, club_id=club.pk, season_id=sid)
    call("GET", standings, headers={"Accept": "text/csv"}, club_id=club.pk, season_id=sid)
    call("POST", standings, club_id=club.pk, season_id=sid)
    other = api_for(admin, device="second")
    token = other.get("/api/v1/auth/tokens/").json()["results"][0]["id"]
    Answers(other, schema)("DELETE", "/api/v1/auth/tokens/{token_id}/", status=204, token_id=token)
    call("DELETE", "/api/v1/auth/token/", status=204)

    seen = call.seen | public.seen | {("delete", "/api/v1/auth/tokens/{token_id}/")}
    documented = {(m, path) for path, ops in schema["paths"].items() for m in ops if m in METHODS}
    documented -= {(m, p) for m, p in documented if not p.startswith("/api/v1/")}
    assert documented - seen == set()


def test_an_undocumented_field_is_caught() -> None:
    """The check above can fail: a field the schema does not name, or a null it does not allow."""
    schema = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string", "nullable": True}}}
    validator = jsonschema.Draft7Validator(strict(schema))
    assert validator.is_valid({"id": 1, "name": None})
    assert not validator.is_valid({"id": 1, "name": None, "extra": 2})
    assert not validator.is_valid({"id": None})
