"""The words a French and a Russian player asked for (issue 26, "Words"), read against the seeds'
vocabulary and docs/glossary.md: each English text of the pages said in the player's words. The
expected words are written here as the issue gives them, not read from the code that renders them."""

from __future__ import annotations

import datetime as dt
import gettext as gettext_module
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

from ledger.i18n.refusals import ledger_text
from ledger.web.dates import day

# (context or None, English, French, Russian); None where the issue asks nothing of that language.
WORDS = [
    (None, "From the pools", "Part de la poule", None),
    (None, "Written off", "Dette abandonnée", None),
    (None, "Record this", "Noter ce paiement", "Записать этот платёж"),
    (None, "all-pass deals", "misère partout", "общий мизер"),
    (None, "closed session", "séance clôturée", "закрытая партия"),
    (None, "Session closed", "Séance clôturée", None),
    (None, "Success rate", None, "Доля сыгранных заказов"),
    (None, "Divide the pools among the four", None, "Разделить корзину между четырьмя"),
    (None, "Sheet", None, "Лист записи"),
    (None, "Past sessions", "Séances passées", "Прошлые партии"),
    ("game", "Russian Boston (Бостон)", "Boston russe", "Русский бостон"),
    ("game", "R-T1 прикуп купленный и выигранный", "R-T1 simple soutenu et gagné", None),
    ("house rule", "Rate of a third suit", None, "Тариф третьей масти"),
    ("session number", "#%(n)s", "nº %(n)s", "№ %(n)s"),
    # the jacks as players say them, with the symbol (the Russian honours' label, the deals CSV's header)
    (
        "game",
        "Бостон (♦J / ♥J)",
        "Boston (valet de carreau ♦V / valet de cœur ♥V)",
        "Бостон (валет бубен ♦В / валет червей ♥В)",
    ),
    (None, "Jack of diamonds (♦J)", "Valet de carreau (♦V)", "Валет бубен (♦В)"),
]


SCRIPTS = {"all-pass deals", "closed session", "Session closed", "%(n)s loss"}  # static/clubscore/*.js's words


def said(context: str | None, english: str) -> str:
    if english in SCRIPTS:
        return script_catalog(translation.get_language()).gettext(english)
    return pgettext(context, english) if context else gettext(english)


def script_catalog(language: str) -> gettext_module.GNUTranslations:
    """The scripts' catalog (domain djangojs, what /jsi18n/ serves), compiled by bin/setup."""
    return gettext_module.translation("djangojs", str(Path(settings.BASE_DIR) / "locale"), [language])


@pytest.mark.parametrize(("context", "english", "french", "russian"), WORDS)
def test_each_word_as_the_players_asked(context: str | None, english: str, french: str, russian: str) -> None:
    for language, expected in (("fr", french), ("ru", russian)):
        if expected is None:
            continue
        with translation.override(language):
            assert said(context, english) == expected, (language, english)


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_no_old_word_is_left_in_the_catalogs(language: str) -> None:
    """The words the issue retires, searched in every translation of the language."""
    retired = {
        "fr": [
            *("Des poules", "Remis", "Noter celui-ci", " perte"),
            *("donnes où tout le monde passe", "séance close", "(Бостон)"),
        ],
        "ru": [
            "сесси",
            "Сесси",
            "Ставка третьей",
            "Доля выигранных игр",
            "общим пасом",
            "Разделить корзины",
            "должен(на)",
        ],
    }[language]
    root = Path(settings.BASE_DIR)
    catalogs = [
        *root.glob(f"locale/{language}/LC_MESSAGES/*.po"),
        *root.glob(f"ledger/i18n/locale/{language}/LC_MESSAGES/*.po"),
    ]
    assert catalogs
    for catalog in catalogs:
        translations = [line for line in catalog.read_text().splitlines() if line.startswith(("msgstr", '"'))]
        for old in retired:
            assert not [t for t in translations if old in t], (catalog.name, old)


def test_the_netted_payments_square_everyone_in_french_words() -> None:
    with translation.override("fr"):
        text = ngettext(
            "Net all evenings: %(n)s payment clears everyone", "Net all evenings: %(n)s payments clear everyone", 3
        )
    assert text.endswith("pour que tout le monde soit quitte")


def test_a_loss_is_a_defaite() -> None:
    french = script_catalog("fr")
    assert french.ngettext("%(n)s loss", "%(n)s losses", 1) % {"n": 1} == "1 défaite"
    assert french.ngettext("%(n)s loss", "%(n)s losses", 3) % {"n": 3} == "3 défaites"


def test_the_club_owes_a_player_by_name() -> None:
    english = (
        "Every evening's money and every payment, from the club's money ledger. Above zero the club owes %(name)s;"
        " below zero %(name)s owes."
    )
    with translation.override("ru"):
        text = gettext(english) % {"name": "Hana"}
    assert "клуб должен игроку Hana" in text and "(Hana)" not in text


def test_a_transfer_is_written_one_way_in_russian() -> None:
    with translation.override("ru"):
        imported = script_catalog("ru").gettext("%(payer)s pays %(payee)s %(amount)s")  # the import's preview
        assert imported % {"payer": "Ann", "payee": "Cleo", "amount": "4,85 €"} == "Ann → Cleo: 4,85 €"
        line = gettext("<strong>%(payer)s</strong> pays <strong>%(payee)s</strong> %(amount)s")
        assert line % {"payer": "Ann", "payee": "Cleo", "amount": "4,85 €"} == (
            "<strong>Ann</strong> → <strong>Cleo</strong>: 4,85 €"
        )


def test_a_role_is_named_in_a_russian_refusal() -> None:
    with translation.override("ru"):
        text = ledger_text("this needs the role treasurer or above in the club; yours is player")
    assert "роль казначей " not in text and "«казначей»" in text


@pytest.mark.parametrize(("month", "short"), [(1, "9 janv. 2025"), (2, "9 févr. 2025"), (9, "9 sept. 2025")])
def test_french_months_are_abbreviated_as_french_writes_them(month: int, short: str) -> None:
    with translation.override("fr"):
        assert day(dt.date(2025, month, 9), "short") == short


def test_a_session_line_says_its_number_in_the_language() -> None:
    template = Template(
        '{% load i18n %}{% blocktranslate context "session number" with n=35 %}#{{ n }}{% endblocktranslate %}'
    )
    with translation.override("fr"):
        assert template.render(Context()) == "nº 35"
    with translation.override("ru"):
        assert template.render(Context()) == "№ 35"
