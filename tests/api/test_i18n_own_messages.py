"""The API's own words that are not the engine's (a token refused, an unknown variant) follow the
request's language; the `code` does not (issue 17)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

EXPECTED = {
    "en": ("invalid, expired or revoked token", "no such variant"),
    "fr": ("jeton d'accès non valide, expiré ou révoqué", "pas de telle variante"),
    "ru": ("токен недействителен, истёк или отозван", "нет такого варианта"),
}


@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_a_refused_token_and_an_unknown_variant_in_the_language_asked_for(language: str) -> None:
    client = Client(headers={"accept-language": language})
    refused = client.get("/api/v1/sessions/", headers={"authorization": "Token not-a-token"})
    missing = client.get("/api/v1/variants/whist/")
    assert refused.status_code == 401 and missing.status_code == 404
    assert refused["Content-Language"] == language
    token, variant = refused.json()["error"], missing.json()["error"]
    assert (token["message"], variant["message"]) == EXPECTED[language]
    assert (token["code"], variant["code"]) == (
        Client().get("/api/v1/sessions/", headers={"authorization": "Token not-a-token"}).json()["error"]["code"],
        "not_found",
    )
