"""A fifth variant is its module and its declaration: the steps of docs/variants.md, followed for a
derived one, Classic American Boston ("American, but": `tests/contract/classic.py`).

Its catalogs are `tests/contract/locale`, and the fixture `fifth` names it in `VARIANTS` (step 2) for one
test at a time. Then the engine, the API's variants, the pages, the statistics and the catalogs' checks
run over it with no edit anywhere else: a fact that code outside a variant needs and reads from
somewhere other than the declaration fails here, and so does a parent's table or word that a derived
variant could not inherit.
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
from django.utils.translation import pgettext

from ledger import followup
from ledger.engine import EngineError, settle
from ledger.engine.messages import ENGLISH
from ledger.engine.samples import playable_rules, random_sheet
from ledger.engine.variants import VARIANTS, Variant, find_variant, variant_names
from ledger.i18n import generate, say
from ledger.services.clubs import club_create, player_create
from ledger.stats.selectors import player_stats
from tests.engine.helpers import assert_conserved, refusal, sheet
from tests.i18n.test_engine_words import _po_entries
from tests.ledger_fixtures import PASSWORD, open_session, record_all
from tests.stats.helpers import import_closed
from tests.web.test_page_languages import english_left

HERE = Path(__file__).resolve().parent
ENGINE_CATALOGS = HERE.parents[1] / "ledger" / "i18n" / "locale"
LANGUAGES = ("fr", "ru")
PLAYERS = ("Ann", "Ben", "Cleo", "Dan")
PARENT = "american"
NAME = "classic_contract"  # its code; not "classic", which a real Classic American Boston may take
TITLE = "Classic American Boston (contract test)"


@pytest.fixture
def fifth(settings: Any, tmp_path: Path) -> Iterator[Variant]:
    """Classic American Boston named in `VARIANTS`, its catalogs compiled before the engine's
    (docs/variants.md, steps 1-4); taken back afterwards."""
    module = importlib.import_module("tests.contract.classic")
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


def test_the_fifth_is_known_only_while_named(fifth: Variant) -> None:
    assert variant_names()[-1] == NAME and find_variant(NAME) is fifth
    assert variant_names().count(NAME) == 1


def test_the_fifth_is_not_known_outside_its_test() -> None:
    assert NAME not in variant_names()


def test_the_fifth_inherits_what_it_does_not_change(fifth: Variant) -> None:
    """ "American, but": its bids, field tables and refusals are its parent's; its own are what it says."""
    parent = find_variant(PARENT)
    assert fifth.declaration.bids == parent.declaration.bids
    assert fifth.forbidden_ids == parent.forbidden_ids
    assert fifth.declaration.default_options.table == "classic"
    assert fifth.declaration.default_options.pool_limit is None
    assert [t.id for t in fifth.declaration.tables] == ["a-t1", "a-t3", "a-t5"]
    assert fifth.declaration.aliases == ()  # a parent's other names are not the child's


# --- the engine ----------------------------------------------------------------------------------------


def test_random_evenings_of_the_fifth_settle_and_conserve_counters(fifth: Variant) -> None:
    evening = fifth.declaration.evening
    for seed in range(30):
        raw = random_sheet(
            NAME, random.Random(seed), evening + 2, rules=playable_rules(NAME), close={"pools": "divide"}
        )
        result = settle(raw)
        assert_conserved(result, 0)
        assert settle(json.loads(json.dumps(raw))) == result
        assert sum(result["close"]["final"]) + sum(result["close"]["carried"]) == 0


def test_the_fifth_pays_as_its_parent_under_the_same_rules(fifth: Variant) -> None:
    """Every deal of a random evening pays what American Boston pays with its classic tables and no limit."""
    same = {"table": "classic", "pool_limit": None}
    for seed in range(10):
        raw = random_sheet(NAME, random.Random(seed), fifth.declaration.evening, close={"pools": "divide"})
        parent = settle({**raw, "variant": PARENT, "rules": same})
        assert settle(raw)["hands"] == parent["hands"]


def test_the_fifth_pays_by_its_classic_table(fifth: Variant) -> None:
    made = {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [1, 9, 2, 1]}
    settled = settle(sheet(NAME, [made]))["hands"][0]
    # A-T1[7][9] = 21 from each adversary; seat 0 deals and antes 5, which the made seven takes.
    assert settled["deltas"] == [-21 - 5, 63 + 5, -21, -21]


def test_a_broken_hand_of_the_fifth_names_every_field(fifth: Variant) -> None:
    error = refusal(sheet(NAME, [{"bid": "seven", "trump": "stars", "tricks": [5, 5, 5, 5], "partner": 2}]))
    assert set(error["fields"]) == {"bidder", "trump", "tricks", "partner"}
    with pytest.raises(EngineError):
        settle(sheet(NAME, [], rules={"table": "decimal"}))  # not one of its choices


# --- the API's variants ------------------------------------------------------------------------------


def test_the_api_lists_and_shows_the_fifth(fifth: Variant, client: Client) -> None:
    listed = client.get("/api/v1/variants/").json()
    assert [v["name"] for v in listed["results"]] == list(variant_names())
    shown = client.get(f"/api/v1/variants/{NAME}/").json()
    parent = client.get(f"/api/v1/variants/{PARENT}/").json()
    assert shown["bids"] == parent["bids"]
    assert [o["name"] for o in shown["options"]] == [o["name"] for o in parent["options"]]
    assert shown["title"] == TITLE


def test_a_session_of_the_fifth_is_recorded_and_settled(fifth: Variant, admin: Any, club: Any) -> None:
    players = [player_create(actor=admin, club_id=club.pk, name=n) for n in PLAYERS]
    session = open_session(admin, club, players, variant=NAME)
    record_all(admin, session, [{"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [1, 9, 2, 1]}])
    api = Client()
    api.force_login(admin)
    body = api.get(f"/api/v1/sessions/{session.pk}/").json()
    assert body["variant"] == NAME
    assert [b["code"] for b in body["next_legal"]["bids"]] == [
        b.code for b in fifth.declaration.bids if b.code != "last_trick"
    ]
    settlement = api.get(f"/api/v1/sessions/{session.pk}/settlement/")
    assert settlement.status_code == 200, settlement.content


# --- the pages ---------------------------------------------------------------------------------------


def _browser(language: str, user: Any) -> Client:
    browser = Client(headers={"accept-language": language})
    browser.cookies["django_language"] = language
    assert browser.login(username=user.username, password=PASSWORD)
    return browser


@pytest.fixture
def zoya(db: None) -> Any:
    return get_user_model().objects.create_superuser("zoya", "zoya@example.org", PASSWORD)


def test_the_fifth_s_pages_have_no_english_left(fifth: Variant, zoya: Any) -> None:
    club = club_create(actor=zoya, name="Bars Club")
    players = [player_create(actor=zoya, club_id=club.pk, name=n) for n in PLAYERS]
    session = open_session(zoya, club, players, variant=NAME)
    record_all(zoya, session, [{"bid": "seven", "bidder": 0, "trump": "hearts", "tricks": [8, 3, 1, 1]}])
    hands: list[dict[str, Any]] = [
        {"bid": "pass", "tricks": [4, 3, 3, 3]},
        {"bid": "little_misere", "bidder": 1, "tricks": [4, 0, 5, 3]},
    ]
    stake = {"currency": "USD", "per_counter": "0.01"}
    closed = import_closed(zoya, club, sheet(NAME, hands, players=list(PLAYERS), stake=stake))
    followup.followup_run(session_id=closed.pk)  # the money and the statistics, as the task would
    names = {"Bars Club", "zoya", *PLAYERS}
    addresses = [
        reverse("web:rules", args=[NAME]),
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
        assert "Classic" in english.content.decode(), address
        for language in LANGUAGES:
            page = _browser(language, zoya).get(address)
            assert page.status_code == 200, (address, language)
            left = english_left(english.content.decode(), page.content.decode(), language, names)
            assert not left, (address, language, left)
    form = _browser("en", zoya).get(reverse("web:session-new", args=[club.pk])).content.decode()
    assert TITLE in form and "Payment tables" in form
    rules = _browser("en", zoya).get(reverse("web:rules", args=[NAME])).content.decode()
    assert "(A-T1)" in rules and "(A-T2)" not in rules  # its own tables, not all its parent's
    player = _browser("fr", zoya).get(reverse("web:player", args=[players[1].pk])).content.decode()
    assert ">Classique (essai)</td>" in player  # the short title, in the narrow column


# --- the statistics ----------------------------------------------------------------------------------


def test_the_statistics_count_the_fifth_s_contracts_and_misere_partout(fifth: Variant, admin: Any, club: Any) -> None:
    players = [player_create(actor=admin, club_id=club.pk, name=n) for n in PLAYERS]
    hands: list[dict[str, Any]] = [
        {"bid": "seven", "bidder": 0, "trump": "hearts", "tricks": [8, 3, 1, 1]},
        {"bid": "grand_misere", "bidder": 0, "tricks": [1, 4, 4, 4]},
        {"bid": "pass", "tricks": [5, 3, 3, 2]},
    ]
    raw = sheet(NAME, hands, players=list(PLAYERS), close={"pools": "divide"})
    import_closed(admin, club, copy.deepcopy(raw))
    stats = player_stats(user=admin, player_id=players[0].pk)
    own = stats["variants"][NAME]
    assert own["deals"] == 3
    assert own["misere_partout"] == {"played": 1, "lost": 1}
    contracts = {(c["bid"], c["role"]): c for c in own["contracts"]}
    assert contracts["seven", "bidder"]["made"] == 1
    assert contracts["grand_misere", "bidder"]["made"] == 0
    api = Client()
    api.force_login(admin)
    answer = api.get(f"/api/v1/players/{players[0].pk}/stats/?variant={NAME}")
    assert answer.status_code == 200, answer.content
    assert list(answer.json()["variants"]) == [NAME]


# --- the catalogs ------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_fifth_s_catalog_is_its_new_entries_translated(fifth: Variant, language: str) -> None:
    """What `manage.py engine_messages` and makemessages make of it (docs/variants.md, step 4): its words
    the engine's catalog already holds (its parent's) are not repeated; the others are in its own catalog,
    each translated, msgfmt content."""
    engine = _po_entries(ENGINE_CATALOGS / language / "LC_MESSAGES" / "django.po")
    own = _po_entries(HERE / "locale" / language / "LC_MESSAGES" / "django.po")
    entries = generate.variant_entries(NAME)
    assert ("game", TITLE) in entries
    assert set(own) == {e for e in entries if e not in engine}, "its catalog holds exactly its new entries"
    assert not set(own) & set(engine)
    for entry, (said, fuzzy) in own.items():
        assert said and not fuzzy, entry
    rendered = generate.render()
    assert all(f"pgettext_lazy({c!r}, {e!r})" in rendered for c, e in entries)
    with translation.override(language):
        assert pgettext("game", TITLE) == own["game", TITLE][0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_fifth_s_refusals_and_house_rules_are_said_in_the_language(fifth: Variant, language: str) -> None:
    try:
        settle(sheet(NAME, [{"bid": "sixty"}]))
    except EngineError as exc:
        message = exc.fields["bid"][0]
    with translation.override(language):
        said = say(message)
    assert said != str(message) and "all pass" not in said, said
    assert ENGLISH[fifth.declaration.bid["pass"].label] == "all pass"
