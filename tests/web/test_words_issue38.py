"""The words a French and a Russian player asked for in issue 38 (item 20, "Words"), each read on the page
that shows it: a write-off, a reversal, a payment's number and note, the pool of a one-pool game, the
bidder, a name in a sentence (French elision, no Russian masculine next to a name), the API's
overpayment refusal, and the time-zone choices. The expected words are the issue's, written here."""

from __future__ import annotations

import re
import unicodedata
import uuid
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext
from rest_framework.test import APIClient

from ledger import followup
from ledger.currency import parse_money
from ledger.elision import elide
from ledger.models import Session
from ledger.money import services as money_writes
from ledger.services.clubs import club_time_zone_set
from ledger.services.sessions import session_import
from ledger.services.table import seat_link_issue
from ledger.services.tokens import token_issue
from tests.ledger_fixtures import example_sheet, fresh
from tests.web.test_page_languages import Scene, client, scene

pytestmark = pytest.mark.django_db

__all__ = ["scene"]  # the fixture, shared with test_page_languages.py


def page(address: str, language: str) -> str:
    response = client(language).get(address)
    assert response.status_code == 200, (address, response.status_code)
    return unescape(re.sub(r"\s+", " ", response.content.decode()))


def text(html: str) -> str:
    """What a reader sees: the tags taken out."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def russian_evening(scene: Scene) -> Session:
    """A Russian partie, closed with its pool carried: a one-basket game."""
    owner = get_user_model().objects.get(username="zoya")
    session = session_import(
        actor=owner, club_id=scene.club.pk, sheet=example_sheet("russian-partie-house-rules"), closed_at="2026-11-20"
    )
    followup.followup_run(session_id=session.pk)
    return fresh(session)


def write_off(scene: Scene) -> None:
    """Dan writes off what Ann owes him (30 cents, the payment of it having been reversed)."""
    owner = get_user_model().objects.get(username="zoya")
    ann, dan = scene.players[0].pk, scene.players[3].pk
    money_writes.payment_record(
        actor=owner, club_id=scene.club.pk, payer=ann, payee=dan, currency="USD", cents=30, status="written_off"
    )


# --- French ---------------------------------------------------------------------------------------------


def test_a_write_off_is_a_debt_given_up_and_a_name_elides_in_french(scene: Scene) -> None:
    write_off(scene)
    ann, ben, _, dan = scene.players
    dans = text(page(reverse("web:statement", args=[dan.pk]), "fr"))
    assert "dette d'Ann abandonnée" in dans and "remis" not in dans
    anns = text(page(reverse("web:statement", args=[ann.pk]), "fr"))
    assert "Solde d'Ann" in anns and "Solde de Ann" not in anns
    assert "dette abandonnée par Dan" in anns
    assert "Solde de Ben" in text(page(reverse("web:statement", args=[ben.pk]), "fr"))
    books = text(page(reverse("web:books", args=[scene.club.pk]), "fr"))
    assert "dette abandonnée" in books and " remis" not in books


def test_elision_before_a_vowel_or_an_h_only_before_a_name() -> None:
    assert elide("Solde de Ann", "fr") == "Solde d'Ann"
    assert elide("dette de Hugo et de Ben", "fr") == "dette d'Hugo et de Ben"
    assert elide("Solde de Élise", "fr") == "Solde d'Élise"
    assert elide("de onze à huit", "fr") == "de onze à huit"  # not a name
    assert elide("Solde de Ann", "ru") == "Solde de Ann"


def test_the_books_in_french_number_quote_and_reverse_in_french_words(scene: Scene) -> None:
    html = page(reverse("web:books", args=[scene.club.pk]), "fr")
    seen = text(html)
    assert re.search(r"nº \d+ · ", seen) and not re.search(r"#\d", seen)
    assert "« Qx »" in seen and "“" not in seen and "”" not in seen
    assert "Contre-passer…" in seen and "Annuler…" not in seen
    assert re.search(r"contre-passé le .* par zoya", seen)


def test_the_settlement_in_french_says_one_form_of_who_pays_and_no_virements(scene: Scene) -> None:
    seen = text(page(reverse("web:settlement", args=[scene.closed.pk]), "fr"))
    assert re.search(r"Ben → Cleo : [\d,]+\s\$", seen), seen
    assert " paie Cleo" not in seen and "virement" not in seen
    assert "Les paiements de ce soir" in seen


def test_a_one_pool_game_speaks_of_the_pool_in_the_feminine_singular(scene: Scene) -> None:
    russian = russian_evening(scene)
    seen = text(page(reverse("web:settlement", args=[russian.pk]), "fr"))
    assert "Reportée entière à la prochaine séance" in seen and "Reportées entières" not in seen
    assert "Poule reportée à la prochaine séance" in seen and "Reporté à" not in seen
    several = text(page(reverse("web:settlement", args=[scene.closed.pk]), "fr"))  # American: several pools
    assert "Poules reportées à la prochaine séance" in several


# --- Russian --------------------------------------------------------------------------------------------


def test_the_books_in_russian_storno_and_no_hedged_masculine(scene: Scene) -> None:
    seen = text(page(reverse("web:books", args=[scene.club.pk]), "ru"))
    assert "Сторнировать…" in seen and "Отменить…" not in seen
    assert "записал: zoya" in seen and "записал(а)" not in seen
    assert re.search(r"сторнирован .*, сторнировал: zoya", seen)
    assert "«Qx»" in seen and re.search(r"№ \d+ · ", seen) and not re.search(r"#\d", seen)


def test_a_one_basket_game_says_the_basket_in_russian(scene: Scene) -> None:
    russian = russian_evening(scene)
    closed = text(page(reverse("web:settlement", args=[russian.pk]), "ru"))
    assert "Из корзины" in closed and "Перенесена целиком" in closed
    form = text(page(reverse("web:settlement", args=[scene.open_empty.pk]), "ru"))  # Russian, open
    assert "Перенести корзину на следующую партию" in form and "Перенести корзины" not in form
    american = text(page(reverse("web:settlement", args=[scene.open.pk]), "ru"))
    assert "Перенести корзины на следующую партию" in american


def test_a_russian_game_s_deals_csv_names_the_boston_column(scene: Scene) -> None:
    russian = russian_evening(scene)
    response = client("ru").get(reverse("web:export-csv", args=[russian.pk]))
    header = response.content.decode("utf-8-sig").splitlines()[0]
    assert "Бостон (♦В/♥В)" in header and "Валет бубен" not in header
    american = client("ru").get(reverse("web:export-csv", args=[scene.closed.pk])).content.decode("utf-8-sig")
    assert "Валет бубен (♦В)" in american.splitlines()[0]


def test_russian_words_with_counts_currencies_and_names() -> None:
    with translation.override("ru"):
        net = "Net all evenings: %(n)s payment clears everyone", "Net all evenings: %(n)s payments clear everyone"
        assert ngettext(*net, 1) % {"n": 1} == "Все вечера вместе: 1 платёж рассчитает всех"
        assert ngettext(*net, 3) % {"n": 3} == "Все вечера вместе: 3 платежа рассчитают всех"
        assert ngettext(*net, 8) % {"n": 8} == "Все вечера вместе: 8 платежей рассчитают всех"
        with pytest.raises(ValueError, match=r"^у иены нет дробной части$"):
            parse_money("12.5", "JPY")
        with pytest.raises(ValueError, match=r"^у рубля 2 знака после запятой$"):
            parse_money("12.505", "RUB")
        assert gettext("dealt by %(dealer)s") % {"dealer": "Ann"} == "сдаёт: Ann"
        assert (
            gettext("%(payer)s owes %(payee)s %(owed)s across every evening.")
            % {
                "payer": "Ann",
                "payee": "Dan",
                "owed": "1 €",
            }
            == "За все вечера долг Ann → Dan: 1 €."
        )


def test_the_follower_page_names_the_next_dealer_without_a_gender(scene: Scene) -> None:
    seen = text(page(reverse("web:follow", args=[scene.open.pk]), "ru"))
    assert re.search(r"сдаёт: (Ann|Ben|Cleo|Dan)", seen) and "сдавал" not in seen


# --- the catalogs as a whole --------------------------------------------------------------------------

NAME = r"%\((?:name|names|payer|payee|dealer|user|others|player)\)s"
# A Russian past tense or short adjective that says "he" (должен, сдавал, записал, отменил…) next to a name.
MASCULINE = re.compile(rf"(?:\b(?:\w+л|должен|обязан)\s+{NAME}|{NAME}\s+(?:\w+л|должен|обязан)\b)")


def translations(language: str) -> list[str]:
    root = Path(settings.BASE_DIR)
    catalogs = [
        *root.glob(f"locale/{language}/LC_MESSAGES/*.po"),
        *root.glob(f"ledger/i18n/locale/{language}/LC_MESSAGES/*.po"),
    ]
    assert catalogs
    return [line for c in catalogs for line in c.read_text().splitlines() if line.startswith("msgstr")]


def test_no_retired_word_is_left_in_the_russian_catalogs() -> None:
    said = translations("ru")
    for old in ("окупающ", "оплачен", "(а)", "у валюты", "Отменить платёж", "и все в расчёте", "“"):
        assert not [t for t in said if old in t], old
    assert not [t for t in said if MASCULINE.search(t)]


def test_no_retired_word_is_left_in_the_french_catalogs() -> None:
    said = translations("fr")
    for old in ("remis", "Annuler…", "Annuler le paiement", "virements", "“", "”"):
        assert not [t for t in said if old in t], old
    assert not [t for t in said if re.search(r"#(\d|%)", t)]


def test_the_glossary_says_the_bidder_as_002_does() -> None:
    glossary = (Path(settings.BASE_DIR) / "docs" / "glossary.md").read_text()
    assert "покупающий /" not in glossary and "| играющий |" in glossary


# --- the API's overpayment refusal ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"), [("fr", "le payeur doit 0.30 USD au bénéficiaire"), ("ru", "долг плательщика получателю")]
)
def test_the_api_refuses_an_overpayment_in_the_request_s_language(scene: Scene, language: str, expected: str) -> None:
    owner = get_user_model().objects.get(username="zoya")
    api = APIClient()
    key, _ = token_issue(user=owner, device="phone")
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    ann, dan = scene.players[0].pk, scene.players[3].pk
    body = {"from": ann, "to": dan, "currency": "USD", "cents": 5000, "status": "paid"}
    refused = api.post(
        f"/api/v1/clubs/{scene.club.pk}/payments/",
        body,
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert refused.status_code == 400, refused.content
    (message,) = refused.json()["error"]["fields"]["cents"]
    assert expected in message and "overpay: true" in message and "the payer" not in message, message


# --- the time zones -------------------------------------------------------------------------------------


def zone_select(html: str) -> str:
    found = re.search(r'<select id="club-zone".*?</select>', html, re.S)
    assert found
    return found.group(0)


def groups(select: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """(the group's label, [(value, label)]) of each optgroup."""
    return [
        (label, re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', body))
        for label, body in re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>', select, re.S)
    ]


def test_the_new_club_page_offers_the_zones_in_french_by_region_the_likely_first(scene: Scene) -> None:
    select = zone_select(page(reverse("web:club-new"), "fr"))
    found = groups(select)
    labels = [label for label, _ in found]
    assert labels[:4] == ["Les plus probables", "Europe", "Afrique", "Amériques"]
    assert found[0][1][0] == ("Europe/Paris", "Paris (France)")
    assert '<option value="Europe/Paris" selected>' in select
    africa = dict(found[2][1])
    assert africa["Africa/Abidjan"] == "Abidjan (Côte d’Ivoire)" and africa["Africa/Algiers"] == "Alger (Algérie)"
    europe = [label for _, label in found[1][1]]
    assert europe == sorted(europe, key=lambda s: unicodedata.normalize("NFKD", s).encode("ascii", "ignore").lower())
    assert ">Africa/Abidjan<" not in select  # the IANA name is the value, not the words
    assert sum(len(options) for _, options in found) >= 599  # every zone still offered


def test_the_new_club_page_offers_the_zones_in_russian(scene: Scene) -> None:
    found = groups(zone_select(page(reverse("web:club-new"), "ru")))
    assert found[0][0] == "Вероятнее всего" and found[0][1][0] == ("Europe/Moscow", "Москва (Россия)")
    assert ("Africa/Abidjan", "Абиджан (Кот-д’Ивуар)") in found[2][1] and found[2][0] == "Африка"


def test_the_club_page_puts_the_club_s_zone_first(scene: Scene) -> None:
    owner = get_user_model().objects.get(username="zoya")
    club_time_zone_set(actor=owner, club_id=scene.club.pk, time_zone="America/Los_Angeles")
    select = zone_select(page(reverse("web:club", args=[scene.club.pk]), "fr"))
    first = groups(select)[0][1]
    assert first[0] == ("America/Los_Angeles", "Los Angeles (États-Unis)")
    assert '<option value="America/Los_Angeles" selected>' in select
    assert select.count(" selected") == 1


def test_the_join_page_revokes_ann_s_link_with_elision(scene: Scene) -> None:
    owner = get_user_model().objects.get(username="zoya")
    seat_link_issue(actor=owner, session_id=scene.open.pk, seat=0)  # Ann's seat
    seat_link_issue(actor=owner, session_id=scene.open.pk, seat=1)  # Ben's
    seen = text(page(reverse("web:join", args=[scene.open.pk]), "fr"))
    assert "Révoquer le lien d'Ann" in seen and "lien de Ann" not in seen
    assert "Révoquer le lien de Ben" in seen
