"""The API's own words that are not the engine's (a token refused, an unknown variant) follow the
request's language; the `code` does not (issue 17)."""

from __future__ import annotations

from typing import Any

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


# Issue 26: the API's own refusals of a field, as a French and a Russian player read them. The `code` and
# the field keys stay; the words follow Accept-Language. Written here as the players' words, not read
# from the catalog.
FIELD_WORDS = {
    "not json": {
        "en": "the score sheet is not valid JSON",
        "fr": "la feuille de marque n'est pas du JSON valide",
        "ru": "лист записи — не корректный JSON",
    },
    "closed_at": {
        "en": "`closed_at` must be an ISO 8601 date (2025-03-14) or date and time with offset",
        "fr": "`closed_at` doit être une date ISO 8601 (2025-03-14) ou une date et heure avec son décalage horaire",
        "ru": "`closed_at` должен быть датой ISO 8601 (2025-03-14) или датой и временем со смещением",
    },
    "currency": {
        "en": "`currency` must be three capital letters (ISO 4217)",
        "fr": "`currency` s'écrit en trois majuscules (ISO 4217)",
        "ru": "`currency` — три заглавные латинские буквы (ISO 4217)",
    },
    "payment key": {
        "en": "recording a payment needs an Idempotency-Key header: a UUID the client generates",
        "fr": "noter un paiement demande un en-tête Idempotency-Key : un UUID que le client génère",
        "ru": "для записи платежа нужен заголовок Idempotency-Key: UUID, который создаёт клиент",
    },
    "hand key": {
        "en": "recording a hand needs an Idempotency-Key header: a UUID the client generates",
        "fr": "inscrire une donne demande un en-tête Idempotency-Key : un UUID que le client génère",
        "ru": "для записи сдачи нужен заголовок Idempotency-Key: UUID, который создаёт клиент",
    },
    "page": {
        "en": "`page` must be a whole number, 1 or more",
        "fr": "`page` doit être un nombre entier, 1 ou plus",
        "ru": "`page` должен быть целым числом, не меньше 1",
    },
    "month": {
        "en": "`month` must be YYYY-MM",
        "fr": "`month` s'écrit AAAA-MM",
        "ru": "`month` пишется ГГГГ-ММ",
    },
    "unknown field": {
        "en": "`colour` is not a field of this request",
        "fr": "`colour` n'est pas un champ de cette requête",
        "ru": "`colour` — не поле этого запроса",
    },
}

IMPORTED = {
    "format": "clubscore-sheet/1",
    "variant": "american",
    "players": ["Ann", "Ben", "Cleo", "Dan"],
    "first_dealer": 0,
    "stake": {"currency": "EUR", "per_counter": "0.10"},
    "hands": [{"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [3, 6, 2, 2]}],
    "close": {"pools": "divide"},
}


def refusals_of(api: Any, club: Any, session: Any, language: str) -> dict[str, tuple[Any, str]]:
    """Each refusal as (the response, the field it names), asked in `language`."""
    said = {"Accept-Language": language}
    club_id = club.pk
    return {
        "not json": (
            api.generic("POST", "/api/v1/settle/", "{not json", content_type="application/json", headers=said),
            "sheet",
        ),
        "closed_at": (
            api.json(
                "POST",
                "/api/v1/sessions/import/",
                {"club": club_id, "sheet": IMPORTED, "closed_at": "yesterday"},
                **said,
            ),
            "closed_at",
        ),
        "currency": (api.get(f"/api/v1/clubs/{club_id}/leaderboard/?by=money&currency=eur", headers=said), "currency"),
        "payment key": (
            api.json(
                "POST",
                f"/api/v1/clubs/{club_id}/payments/",
                {"payer": "pool", "payee": "pool", "currency": "EUR", "cents": 100},
                **said,
            ),
            "",
        ),
        "hand key": (
            api.json("POST", f"/api/v1/sessions/{session.pk}/hands/", {"bid": "pass"}, **said),
            "",
        ),
        "page": (api.get("/api/v1/sessions/?page=0", headers=said), "page"),
        "month": (api.get(f"/api/v1/clubs/{club_id}/leaderboard/?month=2025-5", headers=said), "month"),
        "unknown field": (api.get(f"/api/v1/clubs/{club_id}/leaderboard/?colour=red", headers=said), "colour"),
    }


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_api_s_own_refusals_of_a_field_in_the_language_asked_for(
    language: str, api_for: Any, admin: Any, club: Any, session: Any
) -> None:
    api = api_for(admin)
    english = refusals_of(api, club, session, "en")
    for what, (response, field) in refusals_of(api, club, session, language).items():
        body = response.json()["error"]
        assert response.status_code == english[what][0].status_code == 400, (what, body)
        assert response["Content-Language"] == language
        words = FIELD_WORDS[what][language]
        if field:
            assert body["fields"] == {field: [words]}, (what, body)
            assert body["fields"].keys() == english[what][0].json()["error"]["fields"].keys()
        else:
            assert body["message"] == words, (what, body)
        assert body["code"] == english[what][0].json()["error"]["code"]
