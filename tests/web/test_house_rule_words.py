"""A page names a house rule, its values and its amounts in words, the code beside them in `<code>`
(what a sheet types): the rules page's table of house rules, the new-session form's refusals."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ledger.models import Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "rows"),
    [
        (
            "fr",
            [
                '<th scope="row">Corbeille</th><td><code>basket</code></td>',
                "petite <code>mladshaya</code>, belle <code>starshaya</code>",
            ],
        ),
        (
            "ru",
            [
                '<th scope="row">Ставка третьей масти</th><td><code>third_suit_rate</code></td>',
                "младшая <code>mladshaya</code>, старшая <code>starshaya</code>",
            ],
        ),
        ("en", ['<th scope="row">Basket</th><td><code>basket</code></td>']),
    ],
)
def test_the_rules_page_names_each_house_rule_by_its_label(language: str, rows: list[str]) -> None:
    html = Client(headers={"accept-language": language}).get("/rules/russian/").content.decode()
    table = html[html.index('id="house-rules"') :]
    for row in rows:
        assert row in table
    assert '<th scope="row"><code>' not in table  # the code was the row's only name


@pytest.mark.parametrize(("language", "said", "typed"), [("fr", "fixe doit", "base doit"), ("ru", "основа:", "base:")])
def test_a_refused_amount_is_named_as_the_form_labels_it(
    client_for: Any, scorer: Any, club: Any, players: list[Player], language: str, said: str, typed: str
) -> None:
    """The Russian nine's amounts are typed in "основа" and "за взятку": a wrong one is named so, not `base`."""
    data = {
        "variant": "russian",
        "first_dealer": "0",
        "rule-russian-basket": "10",
        "rule-russian-third_suit_rate": "mladshaya",
        "rule-russian-nine.base": "x",
        "rule-russian-nine.extra": "2",
        **{f"seat-{i}": str(p.pk) for i, p in enumerate(players)},
    }
    client = client_for(scorer)
    client.cookies["django_language"] = language
    page = client.post(f"/clubs/{club.pk}/sessions/new/", data).content.decode()
    assert said in page and typed not in page
