"""Answers that do not depend on a resource: JSON errors everywhere under /api/, authentication,
pagination, throttling, the schema and the stateless settle endpoint."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from ledger.engine import settle
from ledger.models import DeviceToken
from ledger.services.clubs import club_create, player_create
from ledger.services.tokens import token_issue
from tests.api import urls as test_urls
from tests.api.conftest import Api, assert_error
from tests.conftest import example_names
from tests.ledger_fixtures import PASSWORD, example_sheet

pytestmark = pytest.mark.django_db


# --- JSON for every answer -------------------------------------------------------------------------


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
@pytest.mark.parametrize("path", ["/api/v1/no-such-resource/", "/api/v1/clubs", "/api/v1/sessions/1", "/api/nothing"])
def test_unknown_paths_and_missing_slashes_are_json_404(
    api: Any, settings: Any, debug: bool, method: str, path: str
) -> None:
    settings.DEBUG = debug
    response = api.json(method, path, {"a": 1})
    assert_error(response, 404, "not_found")
    assert "Location" not in response.headers


def test_an_id_too_large_for_the_database_is_404(api: Any) -> None:
    assert_error(api.json("GET", f"/api/v1/sessions/{10**30}/"), 404, "not_found")
    assert_error(api.json("GET", f"/api/v1/sessions/{2**63 - 1}/"), 404, "not_found")


def test_a_method_the_path_does_not_take_is_json_405(api: Any) -> None:
    assert_error(api.json("DELETE", "/api/v1/clubs/"), 405, "method_not_allowed")
    assert_error(api.json("PUT", "/api/v1/settle/", {}), 405, "method_not_allowed")


def test_malformed_json_is_invalid_request(api: Any) -> None:
    response = api.post("/api/v1/clubs/", b'{"name": ', content_type="application/json")
    assert_error(response, 400, "invalid_request")
    response = api.post("/api/v1/clubs/", b"[" * 100000, content_type="application/json")
    assert_error(response, 400, "invalid_request")
    response = api.json("POST", "/api/v1/clubs/", {"name": "a\x00b"})
    assert_error(response, 400, "invalid_request")
    response = api.post("/api/v1/clubs/", "name=x", content_type="application/x-www-form-urlencoded")
    assert_error(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("debug", [False, True])
def test_a_server_error_under_api_is_json(api: Any, settings: Any, debug: bool) -> None:
    settings.DEBUG = debug
    settings.ROOT_URLCONF = "tests.api.urls"
    response = api.json("GET", "/api/v1/test/boom/")
    assert_error(response, 500, "server_error")


def test_a_5xx_answer_is_not_kept_for_its_idempotency_key(api: Any, settings: Any) -> None:
    settings.ROOT_URLCONF = "tests.api.urls"
    test_urls.FAILURES.clear()
    key = str(uuid.uuid4())
    first = api.json("POST", "/api/v1/test/flaky/", {"a": 1}, **{"Idempotency-Key": key})
    assert_error(first, 500, "server_error")
    second = api.json("POST", "/api/v1/test/flaky/", {"a": 1}, **{"Idempotency-Key": key})
    assert (second.status_code, second.json()) == (201, {"calls": 1})
    third = api.json("POST", "/api/v1/test/flaky/", {"a": 1}, **{"Idempotency-Key": key})
    assert (third.status_code, third.json()) == (201, {"calls": 1})  # the kept answer, not a new call


# --- authentication --------------------------------------------------------------------------------


def test_login_issues_a_token_with_its_expiry(api_for: Any, admin: Any) -> None:
    client = api_for()
    response = client.json("POST", "/api/v1/auth/token/", {"username": "admin", "password": PASSWORD, "device": "p"})
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"token", "expires"}
    expires = dt.datetime.fromisoformat(body["expires"].replace("Z", "+00:00"))
    assert expires > timezone.now() + dt.timedelta(days=29)
    assert not DeviceToken.objects.filter(key_hash=body["token"]).exists()  # kept hashed
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert client.json("GET", "/api/v1/clubs/").status_code == 200


def test_login_refusals(api_for: Any, admin: Any) -> None:
    client = api_for()
    wrong = client.json("POST", "/api/v1/auth/token/", {"username": "admin", "password": "nope", "device": "p"})
    assert_error(wrong, 401, "not_authenticated")
    missing = client.json("POST", "/api/v1/auth/token/", {"username": "admin", "password": PASSWORD})
    assert_error(missing, 400, "invalid_request", "device")
    extra = client.json(
        "POST", "/api/v1/auth/token/", {"username": "admin", "password": PASSWORD, "device": "p", "x": 1}
    )
    assert_error(extra, 400, "invalid_request", "x")


def test_login_works_with_a_stale_token_in_the_header(api_for: Any, admin: Any) -> None:
    client = api_for()
    client.credentials(HTTP_AUTHORIZATION="Token expired-or-revoked")
    response = client.json("POST", "/api/v1/auth/token/", {"username": "admin", "password": PASSWORD, "device": "p"})
    assert response.status_code == 201


@pytest.mark.parametrize("header", [None, "Token", "Token a b", "Token no-such-key", "Bearer x", "Token \u00e9"])
def test_without_valid_credentials_the_answer_is_401_with_www_authenticate(api_for: Any, header: str | None) -> None:
    client = api_for()
    if header is not None:
        client.credentials(HTTP_AUTHORIZATION=header.encode("utf-8").decode("latin-1"))
    response = client.json("GET", "/api/v1/clubs/")
    assert_error(response, 401, "not_authenticated")
    assert response.headers["WWW-Authenticate"] == "Token"


def test_logout_revokes_the_devices_token(api_for: Any, admin: Any) -> None:
    key, _ = token_issue(user=admin, device="phone")
    other_key, _ = token_issue(user=admin, device="tablet")
    client = api_for()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.json("DELETE", "/api/v1/auth/token/").status_code == 204
    assert_error(client.json("GET", "/api/v1/clubs/"), 401, "not_authenticated")
    assert_error(client.json("DELETE", "/api/v1/auth/token/"), 401, "not_authenticated")
    client.credentials(HTTP_AUTHORIZATION=f"Token {other_key}")
    assert client.json("GET", "/api/v1/clubs/").status_code == 200


def test_an_expired_token_is_refused(api_for: Any, admin: Any) -> None:
    client = api_for(admin)
    DeviceToken.objects.update(expires_at=timezone.now() - dt.timedelta(minutes=1))
    assert_error(client.json("GET", "/api/v1/clubs/"), 401, "not_authenticated")


def test_the_web_pages_session_login_works_with_csrf(admin: Any) -> None:
    client = Api(enforce_csrf_checks=True)
    client.force_login(admin)
    assert client.json("GET", "/api/v1/clubs/").status_code == 200
    assert_error(client.json("POST", "/api/v1/clubs/", {"name": "X"}), 403, "permission_denied")


# --- pagination and throttling ---------------------------------------------------------------------


def test_lists_are_paginated(api: Any, admin: Any) -> None:
    for i in range(5):
        club_create(actor=admin, name=f"Club {i}")
    page = api.json("GET", "/api/v1/clubs/?page_size=2&page=2").json()
    assert set(page) == {"count", "next", "previous", "results"}
    assert page["count"] == 5
    assert [c["name"] for c in page["results"]] == ["Club 2", "Club 3"]
    assert "page=3" in page["next"] and page["previous"]
    assert api.json("GET", "/api/v1/clubs/?page_size=1000").json()["count"] == 5
    assert_error(api.json("GET", "/api/v1/clubs/?page=abc"), 400, "invalid_request", "page")
    assert_error(api.json("GET", "/api/v1/clubs/?page_size=0"), 400, "invalid_request", "page_size")
    assert_error(api.json("GET", "/api/v1/clubs/?page=9"), 404, "not_found")


def test_page_size_is_at_most_200(api: Any, admin: Any, club: Any) -> None:
    for i in range(201):
        player_create(actor=admin, club_id=club.pk, name=f"P{i:03}")
    page = api.json("GET", f"/api/v1/clubs/{club.pk}/players/?page_size=500").json()
    assert (page["count"], len(page["results"])) == (201, 200)


def test_too_many_requests_are_throttled_with_retry_after(api: Any, api_for: Any) -> None:
    rates = {"user": "3/min", "anon": "2/min", "login": "1/min"}
    with override_settings(REST_FRAMEWORK={**_rest_framework(), "DEFAULT_THROTTLE_RATES": rates}):
        for _ in range(3):
            assert api.json("GET", "/api/v1/clubs/").status_code == 200
        response = api.json("GET", "/api/v1/clubs/")
        assert_error(response, 429, "throttled")
        assert int(response.headers["Retry-After"]) > 0
        anonymous = api_for()
        login = {"username": "admin", "password": PASSWORD, "device": "p"}
        assert anonymous.json("POST", "/api/v1/auth/token/", login).status_code == 201
        assert_error(anonymous.json("POST", "/api/v1/auth/token/", login), 429, "throttled")


def _rest_framework() -> dict[str, Any]:
    from django.conf import settings

    return dict(settings.REST_FRAMEWORK)


# --- schema, docs, stateless settle ----------------------------------------------------------------


def test_the_schema_and_docs_are_served_without_a_token(api_for: Any) -> None:
    client = api_for()
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for p in (
        "/api/v1/auth/token/",
        "/api/v1/sessions/{session_id}/hands/",
        "/api/v1/sessions/{session_id}/hands/{number}/history/",
        "/api/v1/settle/",
    ):
        assert p in paths
    assert client.get("/api/docs/").status_code == 200


@pytest.mark.parametrize("name", example_names())
def test_settle_endpoint_answers_the_engines_settlement(api_for: Any, name: str) -> None:
    sheet = example_sheet(name)
    client = api_for()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")  # needs none, refuses none
    response = client.json("POST", "/api/v1/settle/", sheet)
    assert response.status_code == 200
    assert response.json() == settle(sheet)


def test_settle_endpoint_refusals(api_for: Any) -> None:
    client = api_for()
    assert_error(client.post("/api/v1/settle/", b"{", content_type="application/json"), 400, "invalid_sheet", "sheet")
    sheet = example_sheet(example_names()[0])
    sheet["hands"][0]["tricks"] = [5, 5, 5, 5]
    err = assert_error(client.json("POST", "/api/v1/settle/", sheet), 400, "invalid_hand", "tricks")
    assert err["hand"] == 1
    assert err["message"].startswith("hand 1: ")


# --- the benchmarks' floor is not production's -----------------------------------------------------


def test_the_bench_floor_is_only_in_the_bench_urls(api: Any) -> None:
    body = {"bid": "pass", "tricks": [4, 3, 3, 3], "number": 1}
    assert_error(api.json("POST", "/api/v1/bench/floor/", body), 404, "not_found")
    with override_settings(ROOT_URLCONF="bench.urls"):
        answer = api.json("POST", "/api/v1/bench/floor/", body)
        assert answer.status_code == 201 and set(answer.json()) == {"id"}
        assert api.json("GET", "/api/v1/clubs/").status_code == 200  # the project's routes are all there
