"""The API's refusals in the request's language (issue 17): `code`, `hand` and the field keys never change,
`message` and the field messages follow Accept-Language (or the language cookie), in the glossary's words.

The catalogs are compiled by bin/setup (compilemessages); the expected words are docs/glossary.md's,
never the renderer's own output.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.django_db

# An American hand with four broken fields: bidder missing, trump unknown, tricks short, honours forbidden.
BROKEN = {"bid": "six", "trump": "stars", "tricks": [1], "honours": 3, "number": 1}

WORDS = {
    "fr": {
        "trump": ["choisissez l'atout", "trèfle, carreau, cœur ou pique"],
        "tricks": ["levées"],
        "honours": ["honneurs", "boston américain"],
        "bidder": ["demandé"],
    },
    "ru": {
        "trump": ["выберите козырь", "трефы, бубны, черви или пики"],
        "tricks": ["взяток"],
        "honours": ["онеры", "американском бостоне"],
        "bidder": ["покупал"],
    },
}


def _refuse(api: Any, session: Any, language: str | None) -> Any:
    headers = {"Accept-Language": language} if language else {}
    response = api.record(session.pk, BROKEN, **headers)
    assert response.status_code == 400
    return response


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_a_refused_hand_keeps_code_and_fields_and_speaks_the_language(api: Any, session: Any, language: str) -> None:
    english = _refuse(api, session, None).json()["error"]
    response = _refuse(api, session, language)
    body = response.json()["error"]
    assert (body["code"], body["hand"], sorted(body["fields"])) == (
        english["code"],
        english["hand"],
        sorted(english["fields"]),
    )
    assert sorted(english["fields"]) == ["bidder", "honours", "tricks", "trump"]
    for field, words in WORDS[language].items():
        said = " ".join(body["fields"][field])
        assert said != " ".join(english["fields"][field])
        for word in words:
            assert word in said, (field, said)
    prefix = {"fr": "donne 1\u00a0: ", "ru": "сдача 1: "}[language]
    assert body["message"].startswith(prefix)
    assert all(m in body["message"] for ms in body["fields"].values() for m in ms)
    assert response.headers["Content-Language"] == language
    assert "Accept-Language" in response.headers["Vary"]


def test_english_is_unchanged(api: Any, session: Any) -> None:
    body = _refuse(api, session, "en").json()["error"]
    assert body["fields"]["trump"] == ["choose the trump: clubs, diamonds, hearts or spades"]
    assert body["message"].startswith("hand 1: ")


def test_the_language_cookie_is_heard_too(api: Any, session: Any) -> None:
    api.cookies["django_language"] = "ru"
    body = _refuse(api, session, None).json()["error"]
    assert body["fields"]["trump"] == ["выберите козырь: трефы, бубны, черви или пики"]


def test_belle_and_petite_are_the_books_words(api: Any) -> None:
    """The stateless settle endpoint: a French simple in the wrong suit names belle and petite in each language."""
    sheet = {
        "format": "clubscore-sheet/1",
        "variant": "french",
        "players": ["Ann", "Ben", "Cleo", "Dan"],
        "first_dealer": 0,
        "hands": [
            {"bid": "pass", "turned": "hearts"},
            {"bid": "simple", "bidder": 0, "trump": "spades", "turned": "clubs", "tricks": [9, 1, 1, 2], "jack": 0},
        ],
    }
    said = {}
    for language in ("fr", "ru"):
        response = api.json("POST", "/api/v1/settle/", sheet, **{"Accept-Language": language})
        assert response.status_code == 400
        said[language] = response.json()["error"]["fields"]["trump"][0]
    assert "belle" in said["fr"] and "petite" in said["fr"] and "pique" in said["fr"]
    assert "старшая" in said["ru"] and "младшая" in said["ru"] and "пики" in said["ru"]


def test_the_api_own_refusals_follow_the_language(api: Any, session: Any) -> None:
    response = api.json("POST", f"/api/v1/sessions/{session.pk}/hands/", BROKEN, **{"Accept-Language": "fr"})
    assert response.json()["error"]["code"] == "idempotency_key_required"
    assert "Idempotency-Key" in response.json()["error"]["message"]
    assert response.json()["error"]["message"].startswith("inscrire une donne")
    missing = api.json("GET", "/api/v1/sessions/999999/", **{"Accept-Language": "ru"}).json()["error"]
    assert (missing["code"], missing["message"]) == ("not_found", "нет такой партии")


def test_a_ledger_refusal_with_numbers_is_said_again_with_them(api: Any, session: Any) -> None:
    from tests.ledger_fixtures import AMERICAN_HANDS

    assert api.record(session.pk, dict(AMERICAN_HANDS[0], number=1)).status_code == 201
    english = api.record(session.pk, dict(AMERICAN_HANDS[1], number=1)).json()["error"]
    assert english["message"] == "deal 1 is already recorded: the next deal is 2"
    response = api.record(session.pk, dict(AMERICAN_HANDS[1], number=1), **{"Accept-Language": "ru"})
    body = response.json()["error"]
    assert (response.status_code, body["code"], sorted(body["fields"])) == (409, "stale_number", ["number"])
    assert body["message"] == "сдача 1 уже записана: следующая сдача — 2"
    assert body["fields"]["number"] == [body["message"]]


@pytest.mark.parametrize(
    ("language", "body", "message"),
    [
        ("en", b'{"club": 1,', "JSON parse error - the body is not JSON: see line 1, column 12"),
        ("fr", b'{"club": 1,', "erreur d'analyse JSON - le corps n'est pas du JSON : voyez la ligne 1, colonne 12"),
        ("ru", b'{"club":\n 1,', "ошибка разбора JSON: тело запроса — не JSON, см. строку 2, столбец 4"),
        ("fr", b"\xff\xfe", "erreur d'analyse JSON - le corps n'est pas un texte JSON en UTF-8"),
    ],
)
def test_a_body_that_is_not_json_is_said_in_the_language(api: Any, language: str, body: bytes, message: str) -> None:
    """DRF says 'JSON parse error - Expecting property name…' in English whatever the request asks."""
    response = api.post(
        "/api/v1/sessions/", body, content_type="application/json", headers={"Accept-Language": language}
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert response.json()["error"]["message"] == message


# A house rule a refusal names is read as its label, quoted as the pages quote (docs/glossary.md); its
# code stays in `fields` (`rules.neuf`), which programs read.
NBSP = "\u00a0"
RULE_REFUSALS = [
    (
        "french",
        [{"bid": "neuf", "bidder": 0, "trump": "clubs", "turned": "clubs", "jack": 0, "tricks": [9, 1, 1, 2]}],
        {},
        ("option_required", "rules.neuf", "neuf"),
        {"en": ["“Neuf amounts”"], "fr": [f"«{NBSP}Montants du neuf{NBSP}»"], "ru": ["«Суммы девяти взяток»"]},
    ),
    (
        "fontainebleau",
        [{"bid": "six", "bidder": 0, "trump": "clubs", "tricks": [6, 3, 2, 2], "honours": 3}],
        {},
        ("invalid_hand", "honours", "honours"),
        {"en": ["“Count honours”"], "fr": [f"«{NBSP}Compter les honneurs{NBSP}»"], "ru": ["«Считать онеры»"]},
    ),
    (
        "american",
        [{"bid": "last_trick", "last_trick": 0}],
        {},
        ("invalid_hand", "bid", "last_trick_hand"),
        {
            "en": ["“Last-trick hand”"],
            "fr": [f"«{NBSP}Donne de la dernière levée{NBSP}»"],
            "ru": ["«Сдача на последнюю взятку»"],
        },
    ),
    (
        "russian",
        [],
        {"nope": 1},
        ("invalid_option", "rules.nope", "third_suit_rate"),
        {
            "en": ["“Basket”, “Rate of a third suit”, “Nine amounts”, “Misère amount”"],
            "fr": [f"«{NBSP}Corbeille{NBSP}», «{NBSP}Taux d'une troisième couleur{NBSP}»"],
            "ru": ["«Корзина», «Тариф третьей масти», «Суммы девяти взяток», «Сумма мизера»"],
        },
    ),
]


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
@pytest.mark.parametrize(("variant", "hands", "rules", "expected", "words"), RULE_REFUSALS)
def test_a_refusal_names_a_house_rule_by_its_label(
    api: Any, language: str, variant: str, hands: Any, rules: Any, expected: Any, words: Any
) -> None:
    """Not "la règle maison neuf", "домашним правилом last_trick_hand": the rule's label in the language."""
    code, field, rule = expected
    sheet = {
        "format": "clubscore-sheet/1",
        "variant": variant,
        "players": ["Ann", "Ben", "Cleo", "Dan"],
        "first_dealer": 0,
        "hands": hands,
        "rules": rules,
    }
    response = api.json("POST", "/api/v1/settle/", sheet, **{"Accept-Language": language})
    body = response.json()["error"]
    assert (response.status_code, body["code"], list(body["fields"])) == (400, code, [field])
    assert body.get("hand") == (1 if hands else None)
    said = body["fields"][field][0]
    assert said in body["message"]
    for word in words[language]:
        assert word in said, said
    assert f"rules.{rule}" not in said
    if "_" in rule:
        assert rule not in said, said
    else:  # "neuf" and "honours" are words too: not as the house rule's name
        assert not re.search(rf"(house rule|règle maison|правил\w*) {rule}\b", said), said
