"""A page names a house rule, its values and its amounts in words, the code beside them in `<code>`
(what a sheet types): the rules page's table of house rules, the new-session form's refusals."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from ledger.engine.variants import get_variant, variant_names
from ledger.i18n import label
from ledger.models import Player
from tests.web.html import table_rows

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "rows"),
    [
        (
            "fr",
            [
                '<th scope="row">Corbeille</th><td><code>basket</code></td>',
                "petite, belle</td>",  # the words only: the codes are for the API (issue 26)
            ],
        ),
        (
            "ru",
            [
                '<th scope="row">Тариф третьей масти</th><td><code>third_suit_rate</code></td>',
                "младшая, старшая</td>",
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
    assert "<code>mladshaya</code>" not in table and "<code>decimal</code>" not in table


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


# Each house rule of rules.md (§1.1, §2.1, §3.1, §4.1, by its code) has one label per language: the
# declaration's, which the new-session form, the rules page, the refusals and the API all say.
LABELS = {
    "en": {
        ("american", "table"): "Payment tables",
        ("american", "ante"): "Ante",
        ("american", "pool_limit"): "Pool limit",
        ("american", "last_trick_hand"): "Last-trick hand",
        ("fontainebleau", "ante"): "Ante",
        ("fontainebleau", "honours"): "Count honours",
        ("fontainebleau", "grand_column"): "No-trump column",
        ("fontainebleau", "suit_order"): "Suit order",
        ("fontainebleau", "slam_table"): "Slam table",
        ("french", "neuf"): "Neuf amounts",
        ("russian", "basket"): "Basket",
        ("russian", "third_suit_rate"): "Rate of a third suit",
        ("russian", "nine"): "Nine amounts",
        ("russian", "misere"): "Misère amount",
        ("american", "misdeal_penalty"): "Misdeal penalty",
        ("fontainebleau", "misdeal_penalty"): "Misdeal penalty",
        ("french", "misdeal_penalty"): "Misdeal penalty",
        ("russian", "misdeal_penalty"): "Misdeal penalty",
        ("russian", "misdeal_forfeits_share"): "Misdealer loses his share",
        ("american", "pay_instead_short"): "Paying instead of playing",
        ("fontainebleau", "pay_instead_short"): "Paying instead of playing",
        ("russian", "remiz"): "Remiz (ace turned)",
        ("russian", "labet"): "Labet",
        ("russian", "solo"): "Solo (индепанданс)",
        ("russian", "open_misere"): "Open petit misère amount",
        ("russian", "grand_open_misere"): "Open grand misère amount",
        ("russian", "souverain"): "Souverain amounts",
        ("russian", "grand_souverain"): "Grand souverain amounts",
        ("russian", "claims_lapse"): "Claims lapse",
    },
    "fr": {
        ("american", "table"): "Tableaux de paiement",
        ("american", "ante"): "Mise",
        ("american", "pool_limit"): "Plafond de la poule",
        ("american", "last_trick_hand"): "Donne de la dernière levée",
        ("fontainebleau", "ante"): "Mise",
        ("fontainebleau", "honours"): "Compter les honneurs",
        ("fontainebleau", "grand_column"): "Colonne du sans-atout",
        ("fontainebleau", "suit_order"): "Ordre des couleurs",
        ("fontainebleau", "slam_table"): "Tableau du chelem",
        ("french", "neuf"): "Montants du neuf",
        ("russian", "basket"): "Corbeille",
        ("russian", "third_suit_rate"): "Taux d'une troisième couleur",
        ("russian", "nine"): "Montants du neuf",
        ("russian", "misere"): "Montant de la misère",
        ("american", "misdeal_penalty"): "Amende de maldonne",
        ("fontainebleau", "misdeal_penalty"): "Amende de maldonne",
        ("french", "misdeal_penalty"): "Amende de maldonne",
        ("russian", "misdeal_penalty"): "Amende de maldonne",
        ("russian", "misdeal_forfeits_share"): "Le maldonneur perd sa part",
        ("american", "pay_instead_short"): "Payer sans jouer",
        ("fontainebleau", "pay_instead_short"): "Payer sans jouer",
        ("russian", "remiz"): "As retourné (с ремизом)",
        ("russian", "labet"): "Bête (лабет)",
        ("russian", "solo"): "Solo (indépendance)",
        ("russian", "open_misere"): "Montant de la petite misère ouverte",
        ("russian", "grand_open_misere"): "Montant de la grande misère ouverte",
        ("russian", "souverain"): "Montants du souverain",
        ("russian", "grand_souverain"): "Montants du grand souverain",
        ("russian", "claims_lapse"): "Réclamations closes à la donne suivante",
    },
    "ru": {
        ("american", "table"): "Таблицы платежей",
        ("american", "ante"): "Ставка",
        ("american", "pool_limit"): "Предел корзины",
        ("american", "last_trick_hand"): "Сдача на последнюю взятку",
        ("fontainebleau", "ante"): "Ставка",
        ("fontainebleau", "honours"): "Считать онеры",
        ("fontainebleau", "grand_column"): "Столбец игры без козыря",
        ("fontainebleau", "suit_order"): "Порядок мастей",
        ("fontainebleau", "slam_table"): "Таблица шлема",
        ("french", "neuf"): "Суммы девяти взяток",
        ("russian", "basket"): "Корзина",
        ("russian", "third_suit_rate"): "Тариф третьей масти",
        ("russian", "nine"): "Суммы девяти взяток",
        ("russian", "misere"): "Сумма мизера",
        ("american", "misdeal_penalty"): "Штраф за промах сдатчика",
        ("fontainebleau", "misdeal_penalty"): "Штраф за промах сдатчика",
        ("french", "misdeal_penalty"): "Штраф за промах сдатчика",
        ("russian", "misdeal_penalty"): "Штраф за промах сдатчика",
        ("russian", "misdeal_forfeits_share"): "Виновный лишается доли",
        ("american", "pay_instead_short"): "Заплатить, не играя",
        ("fontainebleau", "pay_instead_short"): "Заплатить, не играя",
        ("russian", "remiz"): "С ремизом (туз у сдатчика)",
        ("russian", "labet"): "Лабет",
        ("russian", "solo"): "Соло (индепанданс)",
        ("russian", "open_misere"): "Сумма петит-мизера уверт",
        ("russian", "grand_open_misere"): "Сумма гран-мизера уверт",
        ("russian", "souverain"): "Суммы суверена",
        ("russian", "grand_souverain"): "Суммы гран-суверена",
        ("russian", "claims_lapse"): "Претензии до следующей сдачи",
    },
}
OF_RULES_MD = {variant for variant, _code in LABELS["en"]}
# The word for the house rules, on the pages as in the refusals (docs/glossary.md, "house rule").
HOUSE_RULES = {"en": "House rules", "fr": "Règles maison", "ru": "Домашние правила"}


def _words(html: str) -> str:
    text = re.sub(r"<[^>]+>", "", html)
    return re.sub(r"[ \t\n]+", " ", unescape(text)).strip()  # a no-break space stays as the language writes it


def _new_session_rules(html: str) -> dict[tuple[str, str], tuple[str, str]]:
    """Each house rule of the new-session form: (its label or legend, its help), by (variant, code)."""
    found = {}
    for block in re.finditer(r'<div class="rule" id="house-rule-(\w+?)-(\w+)">(.*?)\n      </div>', html, re.S):
        variant, code, body = block.groups()
        title = re.search(r"<(legend|label)\b[^>]*>(.*?)</\1>", body, re.S)
        assert title, body
        said = _words(re.sub(r'<span class="muted">.*?</span>', "", title.group(2), flags=re.S))
        notes = [_words(p) for p in re.findall(r'<p class="muted">(.*?)</p>', body, re.S)]
        nested = '<fieldset class="nested">' in body  # its help alone, else "default: … — help"
        help_text = notes[0] if nested else notes[-1].split(" — ", 1)[1]
        found[(variant, code)] = (said, help_text)
    return found


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_new_session_form_labels_each_house_rule_as_the_declaration_does(
    client_for: Any, scorer: Any, club: Any, language: str
) -> None:
    """The form said "A 13th deal, the last-trick hand" and "Count honours" of its own where the rules
    page and the refusals said "Last-trick hand" and "Honours": one label now, and the same help."""
    client = client_for(scorer)
    client.cookies["django_language"] = language
    html = client.get(f"/clubs/{club.pk}/sessions/new/").content.decode()
    form = _new_session_rules(html)
    said = {key: said for key, (said, _help) in form.items()}
    assert {key: words for key, words in said.items() if key[0] in OF_RULES_MD} == LABELS[language]
    variants = Client(headers={"accept-language": language}).get("/api/v1/variants/").json()["results"]
    declared = {(v["name"], o["name"]): (o["label"], o["help"]) for v in variants for o in v["options"]}
    assert form == declared  # every variant's, a derived one's too, as its declaration says them
    assert HOUSE_RULES[language] in html
    if language == "ru":
        assert "Местн" not in html and "местн" not in html


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
@pytest.mark.parametrize("variant", variant_names())
def test_the_rules_page_labels_each_house_rule_as_the_form_does(language: str, variant: str) -> None:
    html = Client(headers={"accept-language": language}).get(f"/rules/{variant}/").content.decode()
    assert f'<h2 id="house-h">{HOUSE_RULES[language]}</h2>' in html
    rows = {(variant, row[1]): row[0] for row in table_rows(html, "house-rules")}
    if variant in OF_RULES_MD:
        assert rows == {key: said for key, said in LABELS[language].items() if key[0] == variant}
    with translation.override(language):  # any variant: its declaration's labels
        assert rows == {(variant, o.name): label(o.label) for o in get_variant(variant).declaration.options}
