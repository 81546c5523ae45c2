"""The language remembered for the user (issue 17): the switcher, when logged in, writes it on the account;
every later request of that user, from any browser, speaks it before the cookie and Accept-Language."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Account
from tests.ledger_fixtures import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def language_of_page(client: Client) -> str:
    response = client.get(reverse("web:home"))
    assert response.status_code == 200
    return response.headers["Content-Language"]


def logged_in(username: str, **headers: str) -> Client:
    client = Client(headers=headers or None)
    assert client.login(username=username, password=PASSWORD)
    return client


@pytest.fixture
def ann() -> Any:
    return make_user("ann")


def test_the_switcher_remembers_a_logged_in_users_choice(ann: Any) -> None:
    client = logged_in("ann")
    response = client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "ru"  # Django's own behaviour is kept
    assert Account.objects.get(user=ann).language == "ru"
    # Another browser: no cookie, a French Accept-Language; the account's choice wins.
    elsewhere = logged_in("ann", **{"accept-language": "fr"})
    assert language_of_page(elsewhere) == "ru"


def test_the_account_comes_before_the_cookie(ann: Any) -> None:
    Account.objects.create(user=ann, language="fr")
    client = logged_in("ann")
    client.cookies["django_language"] = "ru"
    assert language_of_page(client) == "fr"
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert Account.objects.get(user=ann).language == "en"
    assert language_of_page(client) == "en"


def test_without_a_choice_the_cookie_and_the_browser_decide(ann: Any) -> None:
    assert language_of_page(logged_in("ann", **{"accept-language": "ru"})) == "ru"
    client = logged_in("ann")
    client.cookies["django_language"] = "fr"
    assert language_of_page(client) == "fr"
    assert not Account.objects.exists()


def test_an_anonymous_choice_is_only_the_cookie() -> None:
    response = Client().post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert response.cookies["django_language"].value == "fr"
    assert not Account.objects.exists()


def test_a_language_we_do_not_offer_is_not_remembered(ann: Any) -> None:
    client = logged_in("ann")
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    client.post(reverse("set_language"), {"language": "", "next": "/"})
    assert not Account.objects.exists()


def test_another_users_choice_is_theirs(ann: Any) -> None:
    make_user("ben")
    logged_in("ann").post(reverse("set_language"), {"language": "ru", "next": "/"})
    assert language_of_page(logged_in("ben", **{"accept-language": "fr"})) == "fr"
