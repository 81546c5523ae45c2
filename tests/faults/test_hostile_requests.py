"""Malformed, oversized and hostile requests: a clear 4xx every time, never a 5xx, never a fragment.

tests/api/test_robustness.py throws random JSON values at the bodies (hypothesis). This file sends
what a random JSON value never is: bytes that are not JSON or not UTF-8, nesting past Python's
recursion limit, bodies past Django's upload limit, arrays of half a million items, integers of
thousands of digits, NUL and lone surrogates (escaped JSON), every wrong type in every field of
every write, hostile headers and query strings. Every answer must be a 4xx with the error body, and
no ledger table may change (the 4xx answers kept for an Idempotency-Key are expected: `api.md`).

Text that is hostile only to a careless program (SQL, script, RTL overrides, emoji, the longest
allowed names) is valid: it must be stored and read back exactly, and change nothing else.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model

from ledger.models import (
    Club,
    DeviceToken,
    Hand,
    HandRevision,
    IdempotencyRecord,
    Membership,
    Player,
    Seat,
    Session,
)
from tests.api.conftest import Api
from tests.ledger_fixtures import AMERICAN_HANDS, PASSWORD, fresh, record_all

pytestmark = pytest.mark.django_db

MODELS: list[type[Model]] = [Club, Membership, Player, Session, Seat, Hand, HandRevision, DeviceToken, get_user_model()]


class Target:
    """One write of the API: its method, path, headers and a valid body to spoil."""

    def __init__(self, name: str, method: str, path: str, body: dict[str, Any], **headers: str) -> None:
        self.name, self.method, self.path, self.body, self.headers = name, method, path, body, headers

    def __repr__(self) -> str:
        return self.name


@pytest.fixture
def world(api_for: Callable[..., Api], admin: Any, club: Any, players: list[Any], session: Any) -> dict[str, Any]:
    record_all(admin, session, AMERICAN_HANDS[:1])
    phone = api_for(admin)
    phone.raise_request_exception = False  # a server error is an answer to check, not a test crash
    ids = [p.pk for p in players]
    sheet = {
        "format": "clubscore-sheet/1",
        "variant": "american",
        "rules": {},
        "players": ["Ann", "Ben", "Cleo", "Dan"],
        "first_dealer": 0,
        "pools": [],
        "hands": AMERICAN_HANDS[:2],
    }
    version = fresh(session).version
    targets = [
        Target("create a club", "POST", "/api/v1/clubs/", {"name": "Club"}),
        Target("create a player", "POST", f"/api/v1/clubs/{club.pk}/players/", {"name": "Eve"}),
        Target(
            "open a session",
            "POST",
            "/api/v1/sessions/",
            {"club": club.pk, "variant": "american", "rules": {}, "players": ids, "first_dealer": 0},
        ),
        Target("import a session", "POST", "/api/v1/sessions/import/", {"club": club.pk, "sheet": sheet}),
        Target("record a hand", "POST", f"/api/v1/sessions/{session.pk}/hands/", dict(AMERICAN_HANDS[1], number=2)),
        Target(
            "amend a hand",
            "PUT",
            f"/api/v1/sessions/{session.pk}/hands/1/",
            AMERICAN_HANDS[1],
            **{"If-Match": f'"{version}"'},
        ),
        Target("close", "POST", f"/api/v1/sessions/{session.pk}/close/", {"pools": "divide"}, **{"If-Match": "*"}),
        Target("log in", "POST", "/api/v1/auth/token/", {"username": "admin", "password": PASSWORD, "device": "d"}),
        Target("settle", "POST", "/api/v1/settle/", sheet),
    ]
    return {"phone": phone, "targets": targets, "session": session, "club": club}


def send(phone: Api, target: Target, body: bytes, content_type: str = "application/json", **headers: str) -> Any:
    if target.name == "record a hand":
        headers = {"Idempotency-Key": str(uuid.uuid4()), **headers}
    return getattr(phone, target.method.lower())(
        target.path, body, content_type=content_type, headers={**target.headers, **headers}
    )


def snapshot() -> tuple[Any, ...]:
    """Every ledger table's row count, the sum of the session versions (a write bumps one), the closed
    sessions and the keys in flight: one query, so the hundreds of cases stay fast."""
    counts = [f'(SELECT COUNT(*) FROM "{m._meta.db_table}")' for m in MODELS]
    session, record = Session._meta.db_table, IdempotencyRecord._meta.db_table
    extra = [
        f'(SELECT COALESCE(SUM(version), 0) FROM "{session}")',
        f"(SELECT COUNT(*) FROM \"{session}\" WHERE status = 'closed')",
        f"(SELECT COUNT(*) FROM \"{record}\" WHERE state = 'in_flight')",
    ]
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(counts + extra))
        return tuple(cursor.fetchone())


def refusal_problem(response: Any) -> str | None:
    """Why this answer is not a clear refusal (None when it is one)."""
    if not 400 <= response.status_code < 500:
        return f"status {response.status_code}: {response.content[:200]!r}"
    try:
        error = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        return f"status {response.status_code} without the error body: {response.content[:200]!r}"
    if not (isinstance(error.get("code"), str) and error["code"] and isinstance(error.get("message"), str)):
        return f"an error body without code or message: {error}"
    return None


# A case: the write, what was spoiled, the body sent, the request's options (content type, headers).
Case = tuple[Target, str, bytes, dict[str, str]]


def check_refused(world: dict[str, Any], cases: list[Case]) -> None:
    """Send every case; collect each that is not refused with a 4xx, or that changed a table."""
    problems = []
    for target, what, body, options in cases:
        before = snapshot()
        response = send(world["phone"], target, body, **options)
        problem = refusal_problem(response)
        if problem is None and snapshot() != before:
            problem = f"refused with {response.status_code} but stored something"
        if problem:
            problems.append(f"{target.name}, {what}: {problem}")
    assert not problems, "\n".join(problems)


def nested(depth: int, leaf: str = "0") -> bytes:
    return ("[" * depth + leaf + "]" * depth).encode()


def with_field(target: Target, field: str, raw_value: bytes) -> bytes:
    """The target's valid body, with one field's value replaced by raw JSON text."""
    placeholder = "\u0001placeholder\u0001"
    text = json.dumps({**target.body, field: placeholder})
    return text.replace(json.dumps(placeholder), raw_value.decode("utf-8", "surrogatepass")).encode(
        "utf-8", "surrogatepass"
    )


# --- not JSON, not UTF-8, not an object ------------------------------------------------------------

NOT_JSON: dict[str, bytes] = {
    "empty object brace": b"{",
    "trailing garbage": b'{"name": "x"} x',
    "trailing comma": b'{"name": "x",}',
    "single quotes": b"{'name': 'x'}",
    "NaN": b'{"name": NaN}',
    "Infinity": b"[Infinity]",
    "a bare word": b"nul",
    "comment": b'{"name": "x" /* hi */}',
    "invalid UTF-8": b'{"name": "\xff\xfe\xc3"}',
    "overlong UTF-8 slash": b'{"name": "\xc0\xaf"}',
    "UTF-16 with its BOM": '{"name": "x"}'.encode("utf-16"),
    "UTF-8 BOM": b'\xef\xbb\xbf{"name": "x"}',
    "a 5,000-digit integer": b'{"name": 1' + b"0" * 5000 + b"}",
    "a bare NUL byte": b'{"name": "x"}\x00',
}


def test_bodies_that_are_not_json_are_refused(world: dict[str, Any]) -> None:
    cases: list[Case] = [(t, what, body, {}) for t in world["targets"] for what, body in NOT_JSON.items()]
    check_refused(world, cases)


def test_json_that_is_not_an_object_is_refused(world: dict[str, Any]) -> None:
    values = [b"null", b"true", b"0", b"-1", b'"x"', b"[]", b"[{}]", b"1e400", b'""']
    cases: list[Case] = [(t, f"top level {v.decode()}", v, {}) for t in world["targets"] for v in values]
    check_refused(world, cases)


def test_wrong_content_types_are_refused(world: dict[str, Any]) -> None:
    types = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml"]
    cases: list[Case] = [
        (t, f"as {ct}", json.dumps(t.body).encode(), {"content_type": ct})
        for t in world["targets"]
        if t.name != "settle"  # settle reads the body as JSON whatever its type (`api.md`: stateless)
        for ct in types
    ]
    check_refused(world, cases)


# --- nesting, size, numbers ------------------------------------------------------------------------


def test_deep_nesting_is_refused_at_every_depth(world: dict[str, Any]) -> None:
    cases: list[Case] = []
    for target in world["targets"]:
        for depth in (100, 990, 2_000, 100_000):  # Python's recursion limit is 1,000
            cases.append((target, f"a body nested {depth} deep", nested(depth), {}))
            cases.append((target, f"objects nested {depth} deep", b'{"a":' * depth + b"0" + b"}" * depth, {}))
        for depth in (990, 100_000):
            for field in target.body:
                cases.append((target, f"`{field}` nested {depth} deep", with_field(target, field, nested(depth)), {}))
    check_refused(world, cases)


def test_huge_arrays_and_bodies_are_refused(world: dict[str, Any]) -> None:
    items = b"[" + b",".join([b"0"] * 200_000) + b"]"
    cases: list[Case] = []
    for target in world["targets"]:
        cases.append((target, "200,000 items at the top", items, {}))
        cases.append((target, "3 MB (over Django's 2.5 MB upload limit)", b'{"x": "' + b"a" * 3_000_000 + b'"}', {}))
        cases.append((target, "3 MB of whitespace", b" " * 3_000_000 + b"{}", {}))
        # And in one field each, the first of its body.
        field = next(iter(target.body))
        cases.append((target, f"`{field}` 200,000 items", with_field(target, field, items), {}))
        cases.append(
            (target, f"`{field}` a 2 MB string", with_field(target, field, b'"' + b"a" * 2_000_000 + b'"'), {})
        )
    check_refused(world, cases)


# --- every wrong type in every field ---------------------------------------------------------------

# Optional fields where null means absent (`api.md`: `number`; the sheet's `rules` and `pools`).
NULL_IS_ABSENT = {"number", "rules", "pools"}
SAMPLES: list[Any] = [None, True, False, -1, 0, 2**64, 1.5, -0.0, "", "x", "7", [], [None], {}, {"a": {"b": []}}]


def wrong_values(field: str, valid: Any) -> list[Any]:
    """The samples whose JSON type differs from the valid value's (a boolean is not an integer)."""
    expected = type(valid)
    out = []
    for value in SAMPLES:
        if type(value) is expected or (value is None and field in NULL_IS_ABSENT):
            continue
        out.append(value)
    return out


def test_every_wrong_type_in_every_field_is_refused(world: dict[str, Any]) -> None:
    cases: list[Case] = []
    for target in world["targets"]:
        if target.name in ("settle", "import a session"):
            continue  # a sheet's wrong types are the engine's (tests/engine, test_robustness)
        for field, valid in target.body.items():
            for value in wrong_values(field, valid):
                body = json.dumps({**target.body, field: value}).encode()
                cases.append((target, f"`{field}` = {value!r}", body, {}))
    check_refused(world, cases)


def test_every_wrong_type_in_a_sheet_is_refused(world: dict[str, Any]) -> None:
    cases: list[Case] = []
    for target in world["targets"]:
        if target.name not in ("settle", "import a session"):
            continue
        sheet = target.body.get("sheet", target.body)
        for field, valid in sheet.items():
            for value in wrong_values(field, valid):
                spoiled = {**sheet, field: value}
                body = {**target.body, "sheet": spoiled} if "sheet" in target.body else spoiled
                cases.append((target, f"sheet `{field}` = {value!r}", json.dumps(body).encode(), {}))
    check_refused(world, cases)


# --- text the database and the encoder cannot take ------------------------------------------------

UNSTORABLE = {
    "NUL": "\\u0000",
    "a lone high surrogate": "\\ud800",
    "a lone low surrogate": "\\udfff",
    "a reversed pair": "\\udc00\\ud800",
    "a high surrogate at the end": "abc\\udbff",
}


def test_nul_and_lone_surrogates_are_refused_in_values_and_keys(world: dict[str, Any]) -> None:
    cases: list[Case] = []
    for target in world["targets"]:
        for what, escaped in UNSTORABLE.items():
            for field in target.body:
                cases.append((target, f"{what} in `{field}`", with_field(target, field, f'"x{escaped}"'.encode()), {}))
            spoiled = json.dumps(target.body)[:-1] + f', "{escaped}": 1}}'
            cases.append((target, f"{what} as a key", spoiled.encode(), {}))
            nested_key = json.dumps({**target.body, "rules": {escaped: 1}}).replace("\\\\", "\\")
            cases.append((target, f"{what} in a nested key", nested_key.encode(), {}))
    check_refused(world, cases)


def test_a_lone_surrogate_in_a_hand_note_stores_nothing(world: dict[str, Any]) -> None:
    """Found by this file: on SQLite the hand was stored, then its answer failed to encode (500), and
    every retry of the key replayed that failure; on PostgreSQL the insert failed (500)."""
    session = world["session"]
    hand = dict(AMERICAN_HANDS[1], adjustments=[{"from": 0, "to": 1, "counters": 1, "note": "PLACEHOLDER"}])
    body = json.dumps(hand).replace("PLACEHOLDER", "\\ud800").encode()
    key = str(uuid.uuid4())
    before = snapshot()
    for _ in range(2):  # the retry gets the same refusal
        response = world["phone"].post(
            f"/api/v1/sessions/{session.pk}/hands/",
            body,
            content_type="application/json",
            headers={"Idempotency-Key": key},
        )
        assert response.status_code == 400, response.content[:300]
        assert response.json()["error"]["code"] == "invalid_request"
    assert snapshot() == before


# --- hostile headers and query strings ------------------------------------------------------------


def test_hostile_headers_are_refused(world: dict[str, Any], session: Any) -> None:
    phone: Api = world["phone"]
    path = f"/api/v1/sessions/{session.pk}/hands/"
    body = json.dumps(dict(AMERICAN_HANDS[1], number=2))
    before = snapshot()
    answers = {
        "a 10 kB Idempotency-Key": phone.post(
            path, body, content_type="application/json", headers={"Idempotency-Key": "a" * 10_000}
        ),
        "a SQL Idempotency-Key": phone.post(
            path, body, content_type="application/json", headers={"Idempotency-Key": "'; DROP TABLE ledger_hand; --"}
        ),
        "a 100 kB token": Api().post(
            path, body, content_type="application/json", headers={"Authorization": "Token " + "a" * 100_000}
        ),
        "a token with spaces": Api().post(
            path, body, content_type="application/json", headers={"Authorization": "Token a b c"}
        ),
        "a non-ASCII token": Api().post(
            path, body, content_type="application/json", headers={"Authorization": "Token \xe9\xff"}
        ),
        "10,000 If-Match tags": phone.put(
            f"{path}1/",
            json.dumps(AMERICAN_HANDS[1]),
            content_type="application/json",
            headers={"If-Match": ", ".join(f'"{i}"' for i in range(100, 10_100))},
        ),
        "an If-Match of SQL": phone.put(
            f"{path}1/",
            json.dumps(AMERICAN_HANDS[1]),
            content_type="application/json",
            headers={"If-Match": "1 OR 1=1"},
        ),
    }
    problems = [f"{what}: {refusal_problem(r)}" for what, r in answers.items() if refusal_problem(r)]
    assert not problems, "\n".join(problems)
    assert snapshot() == before


def test_hostile_query_strings_and_paths_are_refused(world: dict[str, Any], session: Any) -> None:
    phone: Api = world["phone"]
    urls = [
        "/api/v1/sessions/?club=1%27%20OR%201=1--",
        "/api/v1/sessions/?club=" + "9" * 10_000,
        "/api/v1/sessions/?player=1e5",
        "/api/v1/sessions/?date_from=9999-99-99",
        "/api/v1/sessions/?date_to=%00",
        "/api/v1/sessions/?status=%ED%A0%80",
        "/api/v1/sessions/?club=%ED%A0%80",
        "/api/v1/clubs/?page=" + "9" * 5_000,
        "/api/v1/clubs/?page_size=-1",
        "/api/v1/clubs/?page_size=1e9",
        "/api/v1/clubs/?page=%C2%B2",  # "²": a digit to str.isdigit(), not to int()
        "/api/v1/clubs/?page_size=" + "9" * 5_000,
        f"/api/v1/sessions/{'9' * 19}/",
        "/api/v1/sessions/-1/",
        "/api/v1/sessions/%ED%A0%80/",
        "/api/v1/sessions/1%00/",
        f"/api/v1/sessions/{session.pk}/hands/{'9' * 30}/",
        "/api/v1/" + "a/" * 2_000,
    ]
    problems = [f"{url[:80]}: {refusal_problem(r)}" for url in urls if refusal_problem(r := phone.get(url))]
    assert not problems, "\n".join(problems)


# --- hostile text that is valid: stored and read back exactly -------------------------------------

VALID_NAMES = [
    "Robert'); DROP TABLE ledger_club;--",
    "' OR '1'='1",
    '"; DELETE FROM ledger_hand; --',
    "<script>alert(document.cookie)</script>",
    "<img src=x onerror=alert(1)>",
    "{{ 7*7 }} {% debug %} ${jndi:ldap://127.0.0.1/a}",
    "שלום עולם",  # Hebrew
    "مرحبا",  # Arabic
    "👩‍👩‍👧‍👦🇫🇷",  # ZWJ family and a flag: the joiner between two pictures is how emoji are written
    "🏳️‍🌈",  # the emoji selector and a joiner
    "\u00e9\u0301\u0301",  # combining accents, in NFC (issue 29: a name is stored NFC-normalised)
    "😀" * 100,  # the longest name: 100 characters of 4 bytes each
    "x" * 100,
]


# Issue 29, point 7: what a reader cannot see, or that reorders the text around it, is refused, naming the field.
HIDDEN_NAMES = [
    "\u202eevil\u202c",  # RTL override
    "\ufeff\u200b\u2060x",  # BOM, zero-width space, word joiner
    "\uffff\U0010ffff",  # noncharacters (valid UTF-8, but nothing a person reads)
    "An\u200dn",  # a joiner between two letters
]


def test_names_with_hidden_characters_are_refused_naming_the_field(world: dict[str, Any], club: Any) -> None:
    phone: Api = world["phone"]
    for name in HIDDEN_NAMES:
        for url in ("/api/v1/clubs/", f"/api/v1/clubs/{club.pk}/players/"):
            refused = phone.post(url, {"name": name}, format="json")
            assert refused.status_code == 400, (name, refused.content[:300])
            assert "invisible or direction characters" in refused.json()["error"]["fields"]["name"][0]
    combining = phone.post("/api/v1/clubs/", {"name": "e\u0301\u0301\u0301"}, format="json")
    assert combining.json()["name"] == "\u00e9\u0301\u0301"  # stored as its NFC form


def test_hostile_but_valid_names_are_stored_and_read_back_exactly(world: dict[str, Any], club: Any) -> None:
    phone: Api = world["phone"]
    for name in VALID_NAMES:
        created = phone.post("/api/v1/clubs/", {"name": name}, format="json")
        assert created.status_code == 201, (name, created.content[:300])
        assert created.json()["name"] == name
        assert Club.objects.get(pk=created.json()["id"]).name == name
        player = phone.post(f"/api/v1/clubs/{club.pk}/players/", {"name": name}, format="json")
        assert player.status_code == 201, (name, player.content[:300])
    listed = {c["name"] for c in phone.get("/api/v1/clubs/?page_size=200").json()["results"]}
    assert set(VALID_NAMES) <= listed
    players = {p["name"] for p in phone.get(f"/api/v1/clubs/{club.pk}/players/?page_size=200").json()["results"]}
    assert set(VALID_NAMES) <= players
    # The tables the SQL named are all there, whole.
    assert Club.objects.count() == len(VALID_NAMES) + 1
    assert Hand.objects.count() == 1


def test_names_one_character_too_long_are_refused(world: dict[str, Any], club: Any) -> None:
    phone: Api = world["phone"]
    before = snapshot()
    for name in ("😀" * 101, "x" * 101, "x" * 1_000_000):
        for path in ("/api/v1/clubs/", f"/api/v1/clubs/{club.pk}/players/"):
            response = phone.post(path, {"name": name}, format="json")
            assert response.status_code == 400, response.content[:200]
            assert "name" in response.json()["error"]["fields"]
        login = phone.post(
            "/api/v1/auth/token/", {"username": "admin", "password": PASSWORD, "device": name}, format="json"
        )
        assert login.status_code == 400, login.content[:200]
    assert snapshot() == before
