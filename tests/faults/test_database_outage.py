"""The database is down (issue 27): every answer is 503 with `Retry-After`, never Django's bare
"Server Error (500)": the API's JSON error, and a page in the site's layout and the visitor's language
that says the service is back in a moment. The outage is the database refusing every statement
(`connection.execute_wrapper`, around the request only), as PostgreSQL does while it restarts."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client

from ledger.models import Hand
from tests.api.conftest import Api
from tests.ledger_fixtures import AMERICAN_HANDS, PASSWORD, record_all

pytestmark = pytest.mark.django_db(transaction=True)


def refuse(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    raise OperationalError("connection to server at 127.0.0.1, port 5432 failed: Connection refused")


@contextlib.contextmanager
def database_down() -> Iterator[None]:
    with connection.execute_wrapper(refuse):
        yield


LOGIN = {"username": "someone", "password": "not-checked-the-database-is-down"}


def assert_back_in_a_moment(response: Any) -> None:
    assert response.status_code == 503, (response.status_code, response.content[:300])
    assert int(response.headers["Retry-After"]) > 0
    assert response.headers["Cache-Control"] == "no-store"


def test_the_api_answers_503_json_and_the_deal_is_recorded_once_after(admin: Any, api_for: Any, session: Any) -> None:
    phone: Api = api_for(admin)
    phone.raise_request_exception = False
    record_all(admin, session, AMERICAN_HANDS[:1])
    key = str(uuid.uuid4())
    hand = dict(AMERICAN_HANDS[1], number=2)
    with database_down():
        response = phone.record(session.pk, hand, key)
        listing = phone.json("GET", f"/api/v1/sessions/{session.pk}/")
    for answer in (response, listing):
        assert_back_in_a_moment(answer)
        assert answer["Content-Type"] == "application/json"
        assert answer.json()["error"]["code"] == "service_unavailable"
        assert answer.json()["error"]["message"]
    # The phone's queue sends the deal again with the same key: it is recorded once.
    again = phone.record(session.pk, hand, key)
    assert again.status_code == 201, again.content[:300]
    assert list(Hand.objects.filter(session=session).values_list("number", flat=True)) == [1, 2]


def test_the_api_message_is_in_the_request_language(admin: Any, api_for: Any) -> None:
    phone: Api = api_for(admin)
    phone.raise_request_exception = False
    with database_down():
        english = phone.json("GET", "/api/v1/clubs/").json()["error"]["message"]
        french = phone.json("GET", "/api/v1/clubs/", **{"Accept-Language": "fr"}).json()["error"]["message"]
    assert english != french


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Back in a moment"), ("fr", "De retour dans un instant"), ("ru", "Скоро вернёмся")],
)
def test_a_page_says_back_in_a_moment_in_the_site_layout(admin: Any, language: str, words: str) -> None:
    """Logged in (the session and the user are in the database) and anonymous alike."""
    logged_in = Client(raise_request_exception=False, headers={"Accept-Language": language})
    assert logged_in.login(username=admin.get_username(), password=PASSWORD)
    anonymous = Client(raise_request_exception=False, headers={"Accept-Language": language})
    for client, send in ((logged_in, lambda c: c.get("/")), (anonymous, lambda c: c.post("/login/", LOGIN))):
        with database_down():
            response = send(client)
        assert_back_in_a_moment(response)
        page = response.content.decode()
        assert response["Content-Type"].startswith("text/html")
        assert "Server Error" not in page
        assert f'<html lang="{language}">' in page
        assert f"<h1>{words}</h1>" in page
        assert 'class="brand"' in page  # the site's header: its layout, not a bare page
        assert 'http-equiv="refresh"' in page


def test_a_bug_is_still_a_500_not_an_outage(api: Any, settings: Any) -> None:
    """Only a database that does not answer is 503: a programming error stays the 500 it is."""
    settings.ROOT_URLCONF = "tests.api.urls"
    api.raise_request_exception = False
    response = api.json("GET", "/api/v1/test/boom/")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "server_error"
