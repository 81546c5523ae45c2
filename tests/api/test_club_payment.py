"""PUT /api/v1/clubs/{club}/payment/ (issue 41): the club's treasurer gives the details its payment codes
are made of; a wrong IBAN is a 400 naming the field, in words and in the request's language; the club
page's form says the same beside it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ledger.models import Club, Role
from tests.api.conftest import assert_error
from tests.ledger_fixtures import PASSWORD, member

pytestmark = pytest.mark.django_db

IBAN = "FR7630006000011234567890189"


def url(club: Club) -> str:
    return f"/api/v1/clubs/{club.pk}/payment/"


def test_the_treasurer_gives_the_clubs_iban(api_for: Any, admin: Any, club: Club) -> None:
    treasurer = member(club, admin, "mia", Role.TREASURER)
    answer = api_for(treasurer).json(
        "PUT", url(club), {"payee_name": "Cercle", "iban": "fr76 3000 6000 0112 3456 7890 189"}
    )
    assert answer.status_code == 200
    assert answer.json()["iban"] == IBAN
    assert Club.objects.get(pk=club.pk).iban == IBAN
    scorer = member(club, admin, "sam", Role.SCORER)
    assert_error(api_for(scorer).json("PUT", url(club), {"iban": IBAN}), 403, "permission_denied")


@pytest.mark.parametrize(
    ("language", "body", "field", "words"),
    [
        (
            "en",
            {"iban": "FR7630006000011234567890188"},
            "iban",
            "the IBAN is not valid: check its country, its length and its check digits",
        ),
        ("fr", {"iban": "DE00"}, "iban", "l'IBAN n'est pas valide : vérifiez son pays, sa longueur et sa clé"),
        ("ru", {"ru_bik": "12345"}, "ru_bik", "в БИК 9 цифр"),
        ("en", {"bic": "NOPE"}, "bic", "the BIC is not valid: 8 or 11 letters and digits"),
    ],
)
def test_wrong_details_are_refused_in_words(
    api: Any, club: Club, language: str, body: Any, field: str, words: str
) -> None:
    answer = api.json("PUT", url(club), body, **{"Accept-Language": language})
    err = assert_error(answer, 400, "invalid_request", field)
    assert err["fields"][field] == [words]
    assert Club.objects.get(pk=club.pk).iban == ""


def test_the_club_page_form_says_a_wrong_iban_beside_it(admin: Any, club: Club) -> None:
    client = Client()
    assert client.login(username=admin.get_username(), password=PASSWORD)
    answer = client.post(f"/clubs/{club.pk}/payment/", {"iban": "FR7630006000011234567890188"}, follow=True)
    assert "the IBAN is not valid" in answer.content.decode()
    answer = client.post(f"/clubs/{club.pk}/payment/", {"iban": IBAN, "payee_name": "Cercle"}, follow=True)
    assert Club.objects.get(pk=club.pk).iban == IBAN
    assert f'value="{IBAN}"' in answer.content.decode()
