"""The error pages (ledger/web/errors.py): 400, 403, 404 and 500 in the site's layout and the request's
language, with DEBUG on as `bin/serve` runs and with DEBUG off as a deployment runs; never Django's
technical page (its URL list, its traceback) to a club."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Club, Role, Session
from ledger.services.clubs import membership_set
from tests.ledger_fixtures import PASSWORD, make_user

pytestmark = pytest.mark.django_db

# What each page says, as a French and a Russian player read it (not the catalog's own constants).
TITLES = {
    400: {"en": "Bad request", "fr": "Requête invalide", "ru": "Неверный запрос"},
    403: {"en": "Not allowed", "fr": "Non autorisé", "ru": "Нет доступа"},
    404: {"en": "Not found", "fr": "Introuvable", "ru": "Не найдено"},
    500: {"en": "Something went wrong", "fr": "Une erreur s’est produite", "ru": "Что-то пошло не так"},
}
BACK = {"en": "Back to your clubs", "fr": "Retour à vos clubs", "ru": "К вашим клубам"}
TECHNICAL = ("Using the URLconf", "Traceback", "SECRET-TRACE", "technical", "DEBUG = True", "urlpatterns")


@pytest.fixture(params=[True, False], ids=["DEBUG on (bin/serve)", "DEBUG off"])
def debug(request: Any, settings: Any) -> bool:
    settings.DEBUG = request.param
    settings.ROOT_URLCONF = "tests.web.urls"
    return bool(request.param)


def visitor(language: str, user: Any = None) -> Client:
    browser = Client(headers={"accept-language": language}, raise_request_exception=False)
    if user is not None:
        assert browser.login(username=user.get_username(), password=PASSWORD)
    return browser


def addresses(club: Club, session: Session) -> list[tuple[int, str]]:
    return [
        (404, "/no/such/page/"),  # no view takes it: Django's URL list under DEBUG
        (404, reverse("web:session", args=[session.pk + 1000])),  # a view's Http404
        (403, reverse("web:books", args=[club.pk])),  # a player's role does not keep the books
        (400, "/test/bad/"),
        (500, "/test/boom/"),
    ]


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_each_error_page_is_the_site_s_in_the_request_s_language(
    debug: bool, language: str, club: Club, session: Session, admin: Any
) -> None:
    member = make_user("pat")
    membership_set(actor=admin, club_id=club.pk, user=member, role=Role.PLAYER)
    for status, address in addresses(club, session):
        response = visitor(language, member).get(address)
        html = response.content.decode()
        assert response.status_code == status, (address, response.status_code)
        assert f'<html lang="{language}">' in html, address
        assert f"<h1>{TITLES[status][language]}</h1>" in html, (address, html[:2000])
        assert BACK[language] in html
        assert 'class="brand"' in html and 'id="lang-select"' in html  # the site's layout: its header and switcher
        for word in TECHNICAL:
            assert word not in html, (address, word)


def test_the_api_keeps_its_json_under_debug(debug: bool) -> None:
    response = visitor("fr").get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "not_found"


def test_a_missing_slash_is_still_redirected_under_debug(debug: bool, club: Club, admin: Any) -> None:
    response = visitor("en", admin).get(f"/clubs/{club.pk}")
    assert response.status_code == 301
    assert response["Location"] == f"/clubs/{club.pk}/"
