"""A house rule is read by its label, never by its code (`neuf`, `slam_table`), in every language: in the
engine's refusals (said by `ledger.i18n`) and in the declarations' own texts (help, facts, tables' titles).
The code stays where programs read it: the API's `fields` (`rules.neuf`) and the sheet's `rules`."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from django.utils.translation import pgettext

from ledger.engine.variants import get_variant, variant_names
from ledger.i18n import generate, label, say

NBSP = "\u00a0"
LANGUAGES = ("en", "fr", "ru")
# A house rule named in a sentence, quoted as the pages quote a label (docs/glossary.md, "house rule").
NAMED = {
    "en": re.compile(r"house rule (?:“([^”]+)”|(\S+))"),
    "fr": re.compile(rf"règles? maison (?:«{NBSP}(.+?){NBSP}»|(\S+))"),
    "ru": re.compile(r"домашн\w+ правил\w* (?:«([^»]+)»|(\S+))"),
}


def test_the_last_deal_s_house_rule_is_named_by_its_label() -> None:
    american = get_variant("american")
    message = american.game_limit_error(13, american.declaration.default_options)
    said = {}
    for language in LANGUAGES:
        with translation.override(language):
            said[language] = say(message)
    assert said["en"] == "the game is 12 deals, and a last one only with the house rule “Last-trick hand”"
    assert said["en"] == str(message)  # the engine's own English says the label too
    assert said["fr"].endswith(f"avec la règle maison «{NBSP}Donne de la dernière levée{NBSP}»")
    assert said["ru"].endswith("с домашним правилом «Сдача на последнюю взятку»")


def test_a_code_two_variants_share_has_one_label_in_every_language() -> None:
    """One label per thing: `ante`, American and Fontainebleau, reads the same in every language."""
    labels: dict[str, set[str]] = {}
    for name in variant_names():
        for option in get_variant(name).declaration.options:
            labels.setdefault(option.name, set()).add(option.label)
    assert {code for code, ids in labels.items() if len(ids) > 1} == {"ante"}
    for language in LANGUAGES:
        with translation.override(language):
            for code, ids in labels.items():
                assert len({label(i) for i in ids}) == 1, (language, code, ids)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_variants_words_name_house_rules(language: str) -> None:
    """The check below reads something: the variants' words, all told, do name house rules."""
    with translation.override(language):
        texts = [t for variant in variant_names() for t in _declared_texts(variant)]
    assert any(NAMED[language].search(t) for t in texts)


def _declared_texts(variant: str) -> list[str]:
    """The variant's own words in the active language: its ids (labels, help, refusals) and its prose."""
    return [pgettext(c, e) for c, e in generate.variant_entries(variant)]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", variant_names())
def test_a_declaration_names_its_house_rules_by_their_labels(variant: str, language: str) -> None:
    """A player read "Tableau no 2 (règle maison slam_table = 2)": the label instead, quoted,
    and no rule's code, choice value or part (`grand_column`, `french`, `base`) in the words."""
    options = get_variant(variant).declaration.options
    typed = {o.name for o in options if "_" in o.name}
    typed |= {c for o in options for c in o.choices if isinstance(c, str)} | {p for o in options for p in o.parts}
    with translation.override(language):
        labels = {label(o.label) for o in options}
        texts = _declared_texts(variant)
    named = [m.groups() for t in texts for m in NAMED[language].finditer(t)]
    for quoted, bare in named:
        assert bare is None and quoted in labels, (quoted or bare, labels)
    if language != "en":  # in English a choice's word is its code ("decimal"), as the form's list says
        for said in texts:
            found = [code for code in typed if re.search(rf"(?<![\w.]){re.escape(code)}(?!\w)", said)]
            assert not found, (found, said)
