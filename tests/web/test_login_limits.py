"""Issue 29, point 2: the page login and `/admin/login/` are under the API's login limits, and a
refusal is a page in the layout and the language of the request, with when to try again."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ledger.login_limits import DEVICE_COOKIE, DEVICE_MAX_AGE
from tests.ledger_fixtures import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def page_login(client: Client, path: str, username: str, password: str, **meta: Any) -> Any:
    return client.post(path, {"username": username, "password": password}, **meta)


@pytest.mark.parametrize("path", ["/login/", "/admin/login/"])
def test_wrong_passwords_on_a_login_page_are_throttled_then_refused_with_retry_after(
    login_rates: None, path: str
) -> None:
    make_user("victim", superuser=True)
    client = Client()
    statuses = [page_login(client, path, "victim", f"guess-{i}").status_code for i in range(12)]
    assert statuses == [200] * 10 + [429] * 2  # the wrong password shown again, then refused
    refused = page_login(client, path, "victim", PASSWORD)  # even the right one, from this address
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert '<main id="main">' in refused.content.decode()  # the site's layout
    assert "Try again in" in refused.content.decode()
    # The member's right password from another address still logs in (point 3).
    assert page_login(client, path, "victim", PASSWORD, REMOTE_ADDR="10.9.0.1").status_code == 302


def test_the_login_page_limit_per_address_is_the_apis(login_rates: None) -> None:
    client = Client()
    statuses = [page_login(client, "/login/", f"nobody-{i}", "guess").status_code for i in range(21)]
    assert statuses == [200] * 20 + [429]


def test_the_pages_and_the_api_share_the_windows(login_rates: None) -> None:
    make_user("victim")
    client = Client()
    for i in range(10):
        body = {"username": "victim", "password": f"guess-{i}", "device": "d"}
        assert client.post("/api/v1/auth/token/", body, content_type="application/json").status_code == 401
    assert page_login(client, "/login/", "victim", PASSWORD).status_code == 429


def test_a_right_password_on_the_page_gives_its_slot_back(login_rates: None) -> None:
    make_user("regular")
    for _ in range(15):
        client = Client()  # a fresh browser each time (a logged-in one is sent on)
        assert page_login(client, "/login/", "regular", PASSWORD).status_code == 302


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Try again in"), ("fr", "Réessayez dans"), ("ru", "Попробуйте снова через")],
)
def test_the_refusal_is_in_the_language_of_the_request(login_rates: None, language: str, words: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    for i in range(10):
        page_login(client, "/login/", "victim", f"guess-{i}")
    refused = page_login(client, "/login/", "victim", "again")
    assert refused.status_code == 429
    assert words in refused.content.decode()
    assert f'<html lang="{language}">' in refused.content.decode()


@pytest.mark.parametrize("path", ["/login/", "/admin/login/"])
def test_a_password_guessed_from_many_addresses_locks_out_untrusted_browsers_only(login_rates: None, path: str) -> None:
    """Issue 39, item 12, on the pages: a browser that logged in as the member before keeps a signed
    device cookie and passes; 40 strangers' browsers, each from its own address, are stopped after 20."""
    make_user("victim", superuser=True)
    before = Client()
    assert page_login(before, path, "victim", PASSWORD, REMOTE_ADDR="10.8.0.1").status_code == 302
    cookie = before.cookies[DEVICE_COOKIE]
    assert cookie["httponly"] and int(cookie["max-age"]) == DEVICE_MAX_AGE and cookie["samesite"] == "Lax"
    statuses = [
        page_login(Client(), path, "victim", f"guess-{i}", REMOTE_ADDR=f"10.9.{i}.1").status_code for i in range(40)
    ]
    assert statuses == [200] * 20 + [429] * 20
    assert page_login(Client(), path, "victim", PASSWORD, REMOTE_ADDR="10.10.0.1").status_code == 429
    member = Client()  # the member's browser, logged out since: only its device cookie is left
    member.cookies[DEVICE_COOKIE] = cookie.value
    assert page_login(member, path, "victim", PASSWORD, REMOTE_ADDR="10.10.0.2").status_code == 302
    # The API's device cookie and the page's are one: the member's browser cookie works on the API too.
    api = Client().post(
        "/api/v1/auth/token/",
        {"username": "victim", "password": PASSWORD, "device": "d"},
        content_type="application/json",
        REMOTE_ADDR="10.10.0.3",
        HTTP_DEVICE_COOKIE=cookie.value,
    )
    assert api.status_code == 201
