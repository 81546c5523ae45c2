"""Issue 18's defects found from outside (1, 3, 5, 6, 8), and api.md's Devices, Limits and Client addresses.

Defects 2 and 4 need a real worker and PostgreSQL: tests/integration/test_hardening.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from ledger.models import DeviceToken, Hand, Session
from tests.api.conftest import Api, assert_error
from tests.ledger_fixtures import AMERICAN_HANDS, PASSWORD, make_user, record_all

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def sheet(hands: list[Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "format": "clubscore-sheet/1",
        "variant": "american",
        "players": ["Ann", "Ben", "Cleo", "Dan"],
        "first_dealer": 0,
        "hands": AMERICAN_HANDS[:2] if hands is None else hands,
        **extra,
    }


# --- 1. password guessing, client addresses --------------------------------------------------------


def _login(client: Api, username: str, password: str, **meta: Any) -> Any:
    body = json.dumps({"username": username, "password": password, "device": "d"})
    return client.post("/api/v1/auth/token/", body, content_type="application/json", **meta)


def test_forged_forwarded_addresses_do_not_escape_the_login_throttle(login_rates: None) -> None:
    """Defect 1: with NUM_PROXIES unset, 40 forged X-Forwarded-For got 40 x 401 and no 429."""
    make_user("victim")
    client = Api()
    statuses = [
        _login(client, f"nobody-{i}", "guess", HTTP_X_FORWARDED_FOR=f"10.0.{i}.1").status_code for i in range(40)
    ]
    assert statuses[:20] == [401] * 20
    assert set(statuses[20:]) == {429}


def test_failed_logins_are_throttled_per_username_from_one_address(login_rates: None) -> None:
    make_user("victim")
    client = Api()
    statuses = [_login(client, "victim", f"guess-{i}", REMOTE_ADDR="10.1.0.1").status_code for i in range(12)]
    assert statuses == [401] * 10 + [429] * 2
    refused = _login(client, "victim", PASSWORD, REMOTE_ADDR="10.1.0.1")  # the right password, from there
    assert_error(refused, 429, "throttled")
    assert int(refused.headers["Retry-After"]) > 0
    # Another username from that address is not affected (its per-address window has room).
    make_user("other")
    assert _login(client, "other", PASSWORD, REMOTE_ADDR="10.1.0.1").status_code == 201


def test_a_stranger_cannot_lock_a_member_out(login_rates: None) -> None:
    """Issue 29, point 3: 11 wrong passwords from 11 addresses made the right one from a new address 429."""
    make_user("victim")
    client = Api()
    statuses = [_login(client, "victim", f"guess-{i}", REMOTE_ADDR=f"10.1.{i}.1").status_code for i in range(11)]
    assert statuses == [401] * 11
    assert _login(client, "victim", PASSWORD, REMOTE_ADDR="10.2.0.1").status_code == 201


def test_one_password_guessed_from_many_addresses_locks_out_untrusted_clients_only(login_rates: None) -> None:
    """Issue 39, item 12: 40 wrong passwords for one username, each from its own address, were all 401.
    Now 20 an hour from clients without the member's device cookie, then 429 for them; the member's
    own device (a `Device-Cookie` from an earlier login) still logs in, from any address."""
    make_user("victim")
    make_user("other")
    client = Api()
    earlier = _login(client, "victim", PASSWORD, REMOTE_ADDR="10.3.0.1")  # the member's phone, some day before
    assert earlier.status_code == 201 and set(earlier.json()) == {"token", "expires"}  # the body as api.md says
    cookie = earlier.headers["Device-Cookie"]
    others = _login(client, "other", PASSWORD, REMOTE_ADDR="10.3.0.2").headers["Device-Cookie"]
    statuses = [_login(client, "victim", f"guess-{i}", REMOTE_ADDR=f"10.4.{i}.1").status_code for i in range(40)]
    assert statuses == [401] * 20 + [429] * 20
    refused = _login(client, "victim", PASSWORD, REMOTE_ADDR="10.5.0.1")  # the right password, untrusted
    assert_error(refused, 429, "throttled")
    assert int(refused.headers["Retry-After"]) > 60  # the hour's window
    for untrusted in (cookie[:-2] + "xx", others, "not-a-cookie"):  # forged, another member's, garbage
        assert_error(
            _login(client, "victim", PASSWORD, REMOTE_ADDR="10.5.0.2", HTTP_DEVICE_COOKIE=untrusted), 429, "throttled"
        )
    trusted = _login(client, "victim", PASSWORD, REMOTE_ADDR="10.6.0.1", HTTP_DEVICE_COOKIE=cookie)
    assert trusted.status_code == 201, trusted.content
    assert trusted.headers["Device-Cookie"]  # a fresh cookie for the next time
    # A trusted device guessing is braked by its own window (a stolen cookie), not by the strangers'.
    guesses = [
        _login(client, "victim", f"again-{i}", REMOTE_ADDR=f"10.7.{i}.1", HTTP_DEVICE_COOKIE=cookie).status_code
        for i in range(11)
    ]
    assert guesses == [401] * 10 + [429]


def test_usernames_are_counted_as_the_login_compares_them(login_rates: None) -> None:
    """`PA-TREAS` is not `pa-treas` to the login, so it is not its window either; NFKC forms are."""
    make_user("pa-treas")
    client = Api()
    for i in range(10):
        assert _login(client, "PA-TREAS", f"guess-{i}", REMOTE_ADDR="10.5.0.1").status_code == 401
    assert _login(client, "pa-treas", PASSWORD, REMOTE_ADDR="10.5.0.1").status_code == 201
    for i in range(10):  # full-width letters: the same username once NFKC-normalised, as the page login does
        assert _login(client, "ｐａ-ｔｒｅａｓ", f"guess-{i}", REMOTE_ADDR="10.5.0.2").status_code == 401
    assert_error(_login(client, "pa-treas", PASSWORD, REMOTE_ADDR="10.5.0.2"), 429, "throttled")
    assert _login(client, "ｐａ-ｔｒｅａｓ", PASSWORD, REMOTE_ADDR="10.5.0.3").status_code == 201


def test_an_ipv6_client_counts_by_its_64(login_rates: None) -> None:
    make_user("victim")
    client = Api()
    statuses = [
        _login(client, "victim", f"guess-{i}", REMOTE_ADDR=f"2001:db8:1:2::{i:x}").status_code for i in range(11)
    ]
    assert statuses == [401] * 10 + [429]


def test_a_right_password_gives_its_slot_back(login_rates: None) -> None:
    make_user("regular")
    client = Api()
    for i in range(15):  # more than the username's limit, all right: none counts against it
        assert _login(client, "regular", PASSWORD, REMOTE_ADDR=f"10.3.{i}.1").status_code == 201


def test_forwarded_addresses_are_believed_through_num_proxies(login_rates: None, settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    make_user("victim")
    client = Api()
    statuses = [_login(client, f"nobody-{i}", "x", HTTP_X_FORWARDED_FOR=f"10.4.{i}.1").status_code for i in range(25)]
    assert set(statuses) == {401}  # each forwarded address is its own client behind the proxy


# --- 3. a stake of 4,300 digits ----------------------------------------------------------------------

HUGE = "1" * 4300


def test_a_huge_per_counter_is_refused_by_settle_open_and_the_command(api: Any, club: Any, players: Any) -> None:
    """Defect 3: int() refuses 4,300 digits; the answer was a 500 (settle, close) and a traceback."""
    stake = {"currency": "USD", "per_counter": HUGE}
    assert_error(Api().json("POST", "/api/v1/settle/", sheet(stake=stake)), 400, "invalid_sheet", "stake")
    body = {"club": club.pk, "variant": "american", "players": [p.pk for p in players], "first_dealer": 0}
    assert_error(api.json("POST", "/api/v1/sessions/", {**body, "stake": stake}), 400, "invalid_sheet", "stake")
    assert not Session.objects.exists()
    done = subprocess.run(
        [sys.executable, "manage.py", "settle", "-"],
        input=json.dumps(sheet(stake=stake)),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert json.loads(done.stdout)["error"]["fields"]["stake"]


def test_the_largest_per_counter_still_settles() -> None:
    response = Api().json("POST", "/api/v1/settle/", sheet(stake={"currency": "USD", "per_counter": "999999999.5"}))
    assert response.status_code == 200, response.json()


# --- 5. unknown paths are JSON 404, CSRF or not --------------------------------------------------------


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_a_write_to_an_unknown_api_path_is_a_json_404(method: str, admin: Any) -> None:
    """Defect 5: Django's CSRF check answered its HTML 403 page before the catch-all JSON 404."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(admin)  # a session cookie, as the web pages have, and no CSRF token
    for path in ("/api/nothing/", "/api/v1/nothing", "/api/v1/sessions/1/nope/"):
        response = getattr(browser, method)(path, "{}", content_type="application/json")
        assert response["Content-Type"] == "application/json", (path, response.content[:200])
        assert_error(response, 404, "not_found")


def test_a_csrf_refusal_under_api_is_json(admin: Any) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(admin)
    response = browser.post("/api/v1/clubs/", {"name": "x"}, content_type="application/json")
    assert response["Content-Type"] == "application/json"
    assert_error(response, 403, "permission_denied")


# --- 6. OPTIONS asking for CSV -------------------------------------------------------------------------


def test_options_on_a_statement_asking_for_csv_is_json(api: Any, players: Any) -> None:
    """Defect 6: the CSV renderer got OPTIONS's description (a dict) and answered 500."""
    path = f"/api/v1/players/{players[0].pk}/statement/"
    for response in (api.options(path, HTTP_ACCEPT="text/csv"), api.options(path + "?format=csv")):
        assert response.status_code == 200, response.content[:300]
        assert response["Content-Type"].startswith("application/json")
        assert response.json()["name"]


# --- 8. settings and tokens ----------------------------------------------------------------------------


def _settings_of(**env: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.SECRET_KEY[:8], getattr(s, 'SECURE_PROXY_SSL_HEADER', None))"
    )
    environment = {k: v for k, v in os.environ.items() if k not in ("CLUBSCORE_ENV", "SECRET_KEY", "DEBUG")}
    environment.update({"DJANGO_SETTINGS_MODULE": "clubscore.settings", **env})
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=environment, timeout=60
    )


@pytest.mark.parametrize("value", ["Production", "prod", "staging", " production"])
def test_an_unknown_environment_refuses_to_start(value: str) -> None:
    """Defect 8: `CLUBSCORE_ENV=Production` ran development mode with the public key."""
    done = _settings_of(CLUBSCORE_ENV=value)
    assert done.returncode != 0
    assert "CLUBSCORE_ENV must be one of development, production" in done.stderr


def test_the_proxy_ssl_header_is_trusted_only_behind_a_proxy() -> None:
    production = {"CLUBSCORE_ENV": "production", "SECRET_KEY": "k" * 60, "DEBUG": "0"}
    alone = _settings_of(**production)
    assert alone.returncode == 0, alone.stderr[-2000:]
    assert alone.stdout.split()[-1] == "None"
    behind = _settings_of(**production, NUM_PROXIES="1")
    assert "HTTP_X_FORWARDED_PROTO" in behind.stdout


def test_a_password_change_revokes_every_token(api_for: Any, admin: Any) -> None:
    phone, tablet = api_for(admin, "phone"), api_for(admin, "tablet")
    assert phone.get("/api/v1/clubs/").status_code == 200
    admin.set_password("a-new-password-5678")
    admin.save()
    for client in (phone, tablet):
        assert_error(client.get("/api/v1/clubs/"), 401, "not_authenticated")
    assert not DeviceToken.objects.filter(user=admin, revoked_at__isnull=True).exists()
    fresh_login = _login(Api(), "admin", "a-new-password-5678")
    assert fresh_login.status_code == 201


def test_a_password_hash_upgrade_is_not_a_change(api_for: Any, admin: Any) -> None:
    phone = api_for(admin, "phone")
    admin.set_password(PASSWORD)  # the same password, a new hash (as Django's upgrade at a login does)
    admin.save(update_fields=["password"])
    assert phone.get("/api/v1/clubs/").status_code == 200
    admin.last_login = None
    admin.save()  # a save that does not touch the password
    assert phone.get("/api/v1/clubs/").status_code == 200


# --- Devices -------------------------------------------------------------------------------------------


def test_devices_are_listed_without_keys_and_revoked_one_by_one(api_for: Any, admin: Any, other_admin: Any) -> None:
    phone, lost = api_for(admin, "phone"), api_for(admin, "lost phone")
    theirs = api_for(other_admin, "theirs")
    listed = phone.get("/api/v1/auth/tokens/")
    assert listed.status_code == 200
    body = listed.json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert sorted(d["device"] for d in body["results"]) == ["lost phone", "phone"]
    for device in body["results"]:
        assert set(device) == {"id", "device", "created", "last_used", "expires"}
    assert next(d for d in body["results"] if d["device"] == "phone")["last_used"] is not None
    lost_id = next(d["id"] for d in body["results"] if d["device"] == "lost phone")
    other_id = DeviceToken.objects.get(user=other_admin).pk
    assert_error(phone.delete(f"/api/v1/auth/tokens/{other_id}/"), 404, "not_found")
    assert theirs.get("/api/v1/clubs/").status_code == 200
    assert phone.delete(f"/api/v1/auth/tokens/{lost_id}/").status_code == 204
    assert_error(lost.get("/api/v1/clubs/"), 401, "not_authenticated")
    assert_error(phone.delete(f"/api/v1/auth/tokens/{lost_id}/"), 404, "not_found")
    assert [d["device"] for d in phone.get("/api/v1/auth/tokens/").json()["results"]] == ["phone"]
    assert_error(Api().get("/api/v1/auth/tokens/"), 401, "not_authenticated")


# --- Limits --------------------------------------------------------------------------------------------


def test_a_body_over_max_request_bytes_is_413_before_the_idempotency_key(api: Any, session: Any, settings: Any) -> None:
    settings.MAX_REQUEST_BYTES = 10_000
    big = {"bid": "pass", "tricks": [4, 3, 3, 3], "x": "a" * 20_000}
    no_key = api.json("POST", f"/api/v1/sessions/{session.pk}/hands/", big)  # no Idempotency-Key at all
    assert_error(no_key, 413, "request_too_large")
    for path in ("/api/v1/settle/", "/api/v1/clubs/", "/api/v1/auth/token/", "/api/nothing/"):
        assert_error(api.json("POST", path, big), 413, "request_too_large")
    assert not Hand.objects.exists()


def test_the_default_request_limit_is_one_mebibyte(api: Any) -> None:
    just_over = {"name": "a" * (1024 * 1024)}
    assert_error(api.json("POST", "/api/v1/clubs/", just_over), 413, "request_too_large")


def test_sheets_and_sessions_hold_at_most_max_session_hands(
    api: Any, admin: Any, club: Any, session: Any, settings: Any
) -> None:
    settings.MAX_SESSION_HANDS = 3
    four = [AMERICAN_HANDS[i % 2] for i in range(4)]
    assert_error(Api().json("POST", "/api/v1/settle/", sheet(four)), 400, "invalid_request", "hands")
    imported = api.json("POST", "/api/v1/sessions/import/", {"club": club.pk, "sheet": sheet(four)})
    assert_error(imported, 400, "invalid_request", "hands")
    assert Api().json("POST", "/api/v1/settle/", sheet(four[:3])).status_code == 200
    record_all(admin, session, AMERICAN_HANDS[:3])
    assert_error(api.record(session.pk, AMERICAN_HANDS[3]), 400, "invalid_request", "hands")
    assert Hand.objects.filter(session=session).count() == 3


def test_free_text_has_a_maximum_length(api: Any, club: Any, session: Any) -> None:
    long_name = "n" * 101
    assert_error(api.json("POST", "/api/v1/clubs/", {"name": long_name}), 400, "invalid_request", "name")
    players = f"/api/v1/clubs/{club.pk}/players/"
    assert_error(api.json("POST", players, {"name": long_name}), 400, "invalid_request", "name")
    login = {"username": "admin", "password": PASSWORD, "device": "d" * 101}
    assert_error(Api().json("POST", "/api/v1/auth/token/", login), 400, "invalid_request", "device")
    note = {"from": 0, "to": 1, "counters": 1, "note": "x" * 501}
    hand = dict(AMERICAN_HANDS[0], adjustments=[note])
    assert_error(api.record(session.pk, hand), 400, "invalid_request", "adjustments")
    assert_error(Api().json("POST", "/api/v1/settle/", sheet([hand])), 400, "invalid_request", "hands")
    named = sheet(players=["Ann", "Ben", "Cleo", long_name])
    assert_error(Api().json("POST", "/api/v1/settle/", named), 400, "invalid_request", "players")
    assert api.record(session.pk, dict(hand, adjustments=[dict(note, note="x" * 500)])).status_code == 201


def test_reasons_are_cut_at_their_maximum(api: Any, session: Any) -> None:
    api.record(session.pk, AMERICAN_HANDS[0], str(uuid.uuid4()))
    amended = api.json(
        "PUT",
        f"/api/v1/sessions/{session.pk}/hands/1/",
        AMERICAN_HANDS[1],
        **{"If-Match": '"2"', "X-Reason": "r" * 900},
    )
    assert amended.status_code == 200
    history = api.get(f"/api/v1/sessions/{session.pk}/hands/1/history/").json()["results"]
    assert len(history[-1]["reason"]) == 500
