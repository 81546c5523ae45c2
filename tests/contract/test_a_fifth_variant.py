"""A fifth variant is its module and its declaration: the steps of docs/variants.md, followed for a toy.

`tests/contract/toy.py` is written as the page says, its catalogs are `tests/contract/locale`, and the
fixture `toy` names it in `VARIANTS` (step 2) for one test at a time. Then the engine, the API's
variants, the pages, the statistics and the catalogs' checks run over it with no edit anywhere else:
a fact that code outside a variant needs and reads from somewhere other than the declaration fails
here.
"""

from __future__ import annotations

import copy
import importlib
import json
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ledger import followup, services
from ledger.engine import EngineError, settle
from ledger.engine.messages import ENGLISH
from ledger.engine.samples import playable_rules, random_sheet
from ledger.engine.variants import VARIANTS, Variant, find_variant, variant_names
from ledger.i18n import generate, say
from ledger.stats.selectors import player_stats
from tests.engine.helpers import assert_conserved, refusal, sheet
from tests.i18n.test_engine_words import _po_entries
from tests.ledger_fixtures import PASSWORD, open_session, record_all
from tests.stats.helpers import import_closed
from tests.web.test_page_languages import english_left

HERE = Path(__file__).resolve().parent
LANGUAGES = ("fr", "ru")
PLAYERS = ("Ann", "Ben", "Cleo", "Dan")


@pytest.fixture
def toy(settings: Any, tmp_path: Path) -> Iterator[Variant]:
    """The toy named in `VARIANTS`, its ids in the engine's table and its catalogs compiled before the
    engine's (docs/variants.md, steps 1-4); all taken back afterwards."""
    module = importlib.import_module("tests.contract.toy")
    ENGLISH.update(module.MESSAGES)  # `register` ran at the first import only; a test before took them back
    VARIANTS.append(module.VARIANT)
    for language in LANGUAGES:
        out = tmp_path / "locale" / language / "LC_MESSAGES"
        out.mkdir(parents=True)
        po = HERE / "locale" / language / "LC_MESSAGES" / "django.po"
        subprocess.run(["msgfmt", "--check", "-o", str(out / "django.mo"), str(po)], check=True)
    settings.LOCALE_PATHS = [str(tmp_path / "locale"), *settings.LOCALE_PATHS]
    try:
        yield module.VARIANT
    finally:
        VARIANTS.remove(module.VARIANT)
        for key in module.MESSAGES:
            ENGLISH.pop(key, None)


def test_the_toy_is_known_only_while_named(toy: Variant) -> None:
    assert variant_names()[-1] == "toy" and find_variant("toy") is toy
    assert len(VARIANTS) == 5


def test_the_toy_is_not_known_outside_its_test() -> None:
    assert "toy" not in variant_names()
    assert not any(key.startswith("toy.") for key in ENGLISH)


# --- the engine ----------------------------------------------------------------------------------------


def test_random_toy_evenings_settle_and_conserve_counters(toy: Variant) -> None:
    evening = toy.declaration.evening
    for seed in range(30):
        raw = random_sheet(
            "toy", random.Random(seed), evening + 2, rules=playable_rules("toy"), close={"pools": "divide"}
        )
        assert len(raw["hands"]) == evening  # the game's limit ends it
        result = settle(raw)
        assert_conserved(result, 0)
        assert settle(json.loads(json.dumps(raw))) == result
        assert sum(result["close"]["final"]) + sum(result["close"]["carried"]) == 0


def test_the_toy_pays_by_its_own_table(toy: Variant) -> None:
    made = {"bid": "five", "bidder": 1, "trump": "clubs", "tricks": [2, 7, 2, 2]}
    settled = settle(sheet("toy", [made], rules={"price": 3, "pace": "fast"}))["hands"][0]
    # 3 x (1 + 2 over) x 2 from each adversary; seat 0 deals and antes 1, which the made five takes.
    assert settled["deltas"] == [-18 - 1, 54 + 1, -18, -18]
    assert settled["pools"] == [0]


def test_a_broken_toy_hand_names_every_field_in_the_toy_s_words(toy: Variant) -> None:
    error = refusal(sheet("toy", [{"bid": "five", "trump": "stars", "tricks": [5, 5, 5, 5], "partner": 2}]))
    assert set(error["fields"]) == {"bidder", "trump", "tricks", "partner"}
    error = refusal(sheet("toy", [{"bid": "six"}]))
    assert error["fields"]["bid"] == ["choose a bid: five, misère, all pass"]
    error = refusal(sheet("toy", [{"bid": "pass", "tricks": [4, 3, 3, 3]}] * 9))
    assert (error["hand"], list(error["fields"])) == (9, ["hands"])
    with pytest.raises(EngineError):
        settle(sheet("toy", [], rules={"pace": "slowest"}))


# --- the API's variants ------------------------------------------------------------------------------


def test_the_api_lists_and_shows_the_toy(toy: Variant, client: Client) -> None:
    listed = client.get("/api/v1/variants/").json()
    assert [v["name"] for v in listed["results"]] == list(variant_names())
    shown = client.get("/api/v1/variants/toy/").json()
    assert [b["code"] for b in shown["bids"]] == ["five", "misere", "pass"]
    assert [o["name"] for o in shown["options"]] == ["price", "pace"]
    assert shown["title"] == "Toy Boston" and shown["deals"]["limit"] == 8


def test_a_toy_session_is_recorded_and_tells_its_next_legal_bids(toy: Variant, admin: Any, club: Any) -> None:
    players = [services.player_create(actor=admin, club_id=club.pk, name=n) for n in PLAYERS]
    session = open_session(admin, club, players, variant="toy", rules={"pace": "fast"})
    record_all(admin, session, [{"bid": "misere", "bidder": 2, "tricks": [4, 5, 0, 3]}] * 8)
    api = Client()
    api.force_login(admin)
    body = api.get(f"/api/v1/sessions/{session.pk}/").json()
    assert body["variant"] == "toy" and body["next_legal"] is None  # eight deals: the game is over


# --- the pages ---------------------------------------------------------------------------------------


def _browser(language: str, user: Any) -> Client:
    browser = Client(headers={"accept-language": language})
    browser.cookies["django_language"] = language
    assert browser.login(username=user.username, password=PASSWORD)
    return browser


@pytest.fixture
def zoya(db: None) -> Any:
    return get_user_model().objects.create_superuser("zoya", "zoya@example.org", PASSWORD)


def test_the_toy_s_pages_have_no_english_left(toy: Variant, zoya: Any) -> None:
    club = services.club_create(actor=zoya, name="Bars Club")
    players = [services.player_create(actor=zoya, club_id=club.pk, name=n) for n in PLAYERS]
    session = open_session(zoya, club, players, variant="toy")
    record_all(zoya, session, [{"bid": "five", "bidder": 0, "trump": "hearts", "tricks": [6, 3, 2, 2]}])
    hands: list[dict[str, Any]] = [
        {"bid": "pass", "tricks": [4, 3, 3, 3]},
        {"bid": "misere", "bidder": 1, "tricks": [4, 0, 5, 4]},
    ]
    stake = {"currency": "USD", "per_counter": "0.01"}
    closed = import_closed(zoya, club, sheet("toy", hands, players=list(PLAYERS), rules={"pace": "fast"}, stake=stake))
    followup.followup_run(session_id=closed.pk)  # the money and the statistics, as the task would
    names = {"Bars Club", "zoya", *PLAYERS}
    addresses = [
        reverse("web:rules", args=["toy"]),
        reverse("web:rules-index"),
        reverse("web:club", args=[club.pk]),
        reverse("web:session-new", args=[club.pk]),
        reverse("web:score", args=[session.pk]),
        reverse("web:sheet", args=[session.pk]),
        reverse("web:sheet", args=[closed.pk]),
        reverse("web:settlement", args=[closed.pk]),
        reverse("web:player", args=[players[1].pk]),
    ]
    for address in addresses:
        english = _browser("en", zoya).get(address)
        assert english.status_code == 200, address
        assert "Toy" in english.content.decode(), address
        for language in LANGUAGES:
            page = _browser(language, zoya).get(address)
            assert page.status_code == 200, (address, language)
            left = english_left(english.content.decode(), page.content.decode(), language, names)
            assert not left, (address, language, left)
    form = _browser("en", zoya).get(reverse("web:session-new", args=[club.pk])).content.decode()
    assert "Price of a trick" in form and "Pace" in form and ">slow<" in form
    player = _browser("fr", zoya).get(reverse("web:player", args=[players[1].pk])).content.decode()
    assert ">Jouet</td>" in player  # the short title, in the narrow column


# --- the statistics ----------------------------------------------------------------------------------


def test_the_statistics_count_the_toy_s_contracts_and_misere_partout(toy: Variant, admin: Any, club: Any) -> None:
    players = [services.player_create(actor=admin, club_id=club.pk, name=n) for n in PLAYERS]
    hands: list[dict[str, Any]] = [
        {"bid": "five", "bidder": 0, "trump": "hearts", "tricks": [6, 3, 2, 2]},
        {"bid": "misere", "bidder": 0, "tricks": [1, 4, 4, 4]},
        {"bid": "pass", "tricks": [5, 3, 3, 2]},
    ]
    raw = sheet("toy", hands, players=list(PLAYERS), close={"pools": "divide"})
    import_closed(admin, club, copy.deepcopy(raw))
    stats = player_stats(user=admin, player_id=players[0].pk)
    toy_stats = stats["variants"]["toy"]
    assert toy_stats["deals"] == 3
    assert toy_stats["misere_partout"] == {"played": 1, "lost": 1}
    contracts = {(c["bid"], c["role"]): c for c in toy_stats["contracts"]}
    assert contracts["five", "bidder"]["made"] == 1
    assert contracts["misere", "bidder"]["made"] == 0
    api = Client()
    api.force_login(admin)
    answer = api.get(f"/api/v1/players/{players[0].pk}/stats/?variant=toy")
    assert answer.status_code == 200, answer.content
    assert list(answer.json()["variants"]) == ["toy"]


# --- the catalogs ------------------------------------------------------------------------------------


def _toy_entries() -> list[tuple[str, str]]:
    return [(c, e) for c, e in generate.entries() if c == "toy" or c.startswith("toy.")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_toy_s_catalog_is_its_entries_translated(toy: Variant, language: str) -> None:
    """What `manage.py engine_messages` and makemessages make of the toy (docs/variants.md, step 4): its
    ids and its declared words, each translated, placeholders kept, msgfmt content."""
    entries = _toy_entries()
    assert ("toy.bid.five", "five") in entries and ("toy", "Toy Boston") in entries and ("toy", "fast") in entries
    po = _po_entries(HERE / "locale" / language / "LC_MESSAGES" / "django.po")
    assert set(po) == set(entries), "the toy's catalog holds exactly the toy's entries"
    for entry, (said, fuzzy) in po.items():
        assert said and not fuzzy, entry
    rendered = generate.render()
    assert all(f"pgettext_lazy({c!r}, {e!r})" in rendered for c, e in entries)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_toy_s_refusals_and_house_rules_are_said_in_the_language(toy: Variant, language: str) -> None:
    try:
        settle(sheet("toy", [{"bid": "six"}]))
    except EngineError as exc:
        message = exc.fields["bid"][0]
    with translation.override(language):
        said = say(message)
    assert said != str(message) and "all pass" not in said, said
