"""The language of a page (docs/i18n.md): the switcher's choice, else Accept-Language, else English."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def html_lang(body: bytes) -> str:
    found = re.search(rb'<html lang="([^"]*)">', body)
    assert found, "the page has no <html lang>"
    return found.group(1).decode()


def selected_language(body: bytes) -> str:
    found = re.search(rb'<option value="([a-z-]+)"[^>]*\sselected>', body)
    assert found, "the switcher selects no language"
    return found.group(1).decode()


def test_a_page_is_english_by_default() -> None:
    response = Client().get(reverse("web:rules-index"))
    assert response.status_code == 200
    assert html_lang(response.content) == "en"
    assert selected_language(response.content) == "en"


def test_accept_language_chooses_the_language() -> None:
    response = Client(headers={"accept-language": "fr-FR,fr;q=0.9,en;q=0.5"}).get(reverse("web:rules-index"))
    assert html_lang(response.content) == "fr"
    assert selected_language(response.content) == "fr"


def test_a_language_we_do_not_offer_falls_back_to_english() -> None:
    response = Client(headers={"accept-language": "de-DE,de;q=0.9"}).get(reverse("login"))
    assert html_lang(response.content) == "en"


def test_every_page_has_the_switcher_posting_to_set_language_and_back() -> None:
    page = reverse("web:rules", args=["russian"]) + "?x=1"
    body = Client().get(page).content.decode()
    form = re.search(r'<form method="post" action="([^"]+)" class="row lang-form">(.*?)</form>', body, re.S)
    assert form and form.group(1) == reverse("set_language")
    inside = form.group(2)
    assert f'<input type="hidden" name="next" value="{page}">' in inside
    assert '<label for="lang-select">' in inside and '<select id="lang-select" name="language">' in inside
    assert re.findall(r'<option value="([a-z]+)"', inside) == [code for code, _ in settings.LANGUAGES]
    assert '<button type="submit">' in inside


def test_the_switcher_sets_the_cookie_and_the_pages_follow_it() -> None:
    client = Client(enforce_csrf_checks=True, headers={"accept-language": "fr"})
    page = reverse("web:rules-index")
    client.get(page)  # the CSRF cookie, as a browser has it from the page
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    response = client.post(reverse("set_language"), {"language": "ru", "next": page, "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == page
    cookie = client.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "ru" and int(cookie["max-age"]) == settings.LANGUAGE_COOKIE_AGE
    after = client.get(page).content  # the choice wins over Accept-Language: fr
    assert html_lang(after) == "ru" and selected_language(after) == "ru"


def test_the_language_cookie_is_same_site_lax() -> None:
    """Issue 29, point 9: the language cookie had no SameSite."""
    response = Client().post(reverse("set_language"), {"language": "fr", "next": "/rules/"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME]["samesite"] == "Lax"


def test_the_switcher_refuses_a_next_page_elsewhere() -> None:
    response = Client().post(reverse("set_language"), {"language": "fr", "next": "https://elsewhere.example/"})
    assert response.status_code == 302 and response["Location"] == "/"


def test_the_scripts_catalog_is_served() -> None:
    response = Client(headers={"accept-language": "ru"}).get(reverse("javascript-catalog"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert b"django.gettext" in response.content
