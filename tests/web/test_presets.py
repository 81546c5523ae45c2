"""The presets' pages (issue 42): a treasurer keeps them with the new session's own form, a scorer
opens a table from one with the seats already chosen, and a table's conditions are shown in words on
the join and follower pages and on one printable page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ledger import selectors
from ledger.engine.variants import get_variant
from ledger.i18n import label
from ledger.models import Club, Player, Preset, Session
from ledger.services.presets import preset_create
from tests.ledger_fixtures import AMERICAN_HANDS, open_from_preset, open_session, record_all

pytestmark = pytest.mark.django_db


def form_for(variant: str, **values: str) -> dict[str, str]:
    """The preset form as a browser posts it: every house rule of the variant at its declared default
    (read from the declaration), then `values` over it."""
    post = {"variant": variant, "name": "Tuesday"}
    for option in get_variant(variant).declaration.options:
        if option.type == "boolean":
            if option.default:
                post[f"rule-{variant}-{option.name}"] = "on"
        elif option.default is not None and not option.parts:
            post[f"rule-{variant}-{option.name}"] = str(option.default)
    return {**post, **values}


def test_a_treasurer_keeps_a_preset_and_an_edit_makes_a_version(
    client_for: Callable[[Any], Client], club: Club, treasurer: Any
) -> None:
    browser = client_for(treasurer)
    made = browser.post(reverse("web:preset-new", args=[club.pk]), form_for("american", **{"rule-american-ante": "7"}))
    assert made.status_code == 302, made.content.decode()[:2000]
    preset = Preset.objects.get(club=club)
    assert selectors.preset_current(preset).rules["ante"] == 7
    page = browser.get(reverse("web:preset-edit", args=[club.pk, preset.pk])).content.decode()
    assert 'name="rule-american-ante"' in page and 'value="7"' in page  # the preset's value, not the default
    edited = browser.post(
        reverse("web:preset-edit", args=[club.pk, preset.pk]),
        form_for("american", **{"rule-american-ante": "3", "version": "1"}),
    )
    assert edited.status_code == 302
    preset.refresh_from_db()
    assert preset.version == 2 and selectors.preset_current(preset).rules["ante"] == 3
    stale = browser.post(
        reverse("web:preset-edit", args=[club.pk, preset.pk]),
        form_for("american", **{"rule-american-ante": "4", "version": "1"}),
    )
    assert stale.status_code == 400 and Preset.objects.get(pk=preset.pk).version == 2


def test_a_refused_preset_says_why_beside_the_rule(
    client_for: Callable[[Any], Client], club: Club, treasurer: Any
) -> None:
    refused = client_for(treasurer).post(
        reverse("web:preset-new", args=[club.pk]), form_for("american", **{"rule-american-ante": "-2"})
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'id="form-errors"' in html and not Preset.objects.exists()


def test_a_scorer_opens_a_table_from_a_preset_with_the_last_tables_seats(
    client_for: Callable[[Any], Client], club: Club, admin: Any, scorer: Any, players: list[Player]
) -> None:
    preset = preset_create(actor=admin, club_id=club.pk, name="House", variant="french", rules={})
    open_session(admin, club, list(reversed(players)))  # the club's last table: Dan, Cleo, Ben, Ann
    browser = client_for(scorer)
    club_page = browser.get(reverse("web:club", args=[club.pk])).content.decode()
    opening = reverse("web:preset-open", args=[club.pk, preset.pk])
    assert f'href="{opening}"' in club_page
    assert "Keep the presets" not in club_page  # a scorer does not keep them
    page = browser.get(opening).content.decode()
    chosen = re.findall(r'<option value="(\d+)" selected>', page)
    assert chosen == [str(p.pk) for p in reversed(players)]
    started = browser.post(
        opening, {**{f"seat-{s}": chosen[s] for s in range(4)}, "first_dealer": "0"}
    )  # what "Start" posts
    session = Session.objects.get(preset_version__preset=preset)
    assert started.status_code == 302 and started["Location"] == reverse("web:score", args=[session.pk])
    assert session.variant == "french" and session.preset_version.version == 1
    assert browser.get(reverse("web:presets", args=[club.pk])).status_code == 403


def test_the_conditions_in_words_on_the_join_and_follower_pages_and_the_printable_one(
    client_for: Callable[[Any], Client], club: Club, admin: Any, players: list[Player]
) -> None:
    rules = {"ante": 10, "table": "classic"}
    preset = preset_create(actor=admin, club_id=club.pk, name="House", variant="american", rules=rules)
    session = open_from_preset(admin, club, players, preset)
    browser = client_for(admin)
    declared = get_variant("american").declaration.options
    pages = {
        "join": reverse("web:join", args=[session.pk]),
        "follow": reverse("web:follow", args=[session.pk]),
        "print": reverse("web:conditions", args=[session.pk]),
    }
    for language in ("en", "fr", "ru"):
        for what, address in pages.items():
            browser.cookies["django_language"] = language
            html = browser.get(address).content.decode()
            with translation.override(language):
                for option in declared:  # every option of the declaration, by its label in the language
                    assert f'data-option="{option.name}"' in html, (what, option.name)
                    assert label(option.label).replace("'", "&#x27;") in html, (what, language, option.name)
            assert "House" in html  # the preset and its version
    follow = browser.get(pages["follow"]).content.decode()
    assert '<details class="conditions-box" open>' in follow  # open before deal 1
    record_all(admin, session, AMERICAN_HANDS[:1])
    follow = browser.get(pages["follow"]).content.decode()
    assert '<details class="conditions-box">' in follow  # a tap away after it
    printed = browser.get(pages["print"]).content.decode()
    assert "data-print" in printed and "conditions-page" in printed and "<svg" in printed


def test_an_archived_preset_leaves_the_club_page_and_takes_no_edit(
    client_for: Callable[[Any], Client], club: Club, treasurer: Any
) -> None:
    preset = preset_create(actor=treasurer, club_id=club.pk, name="Old", variant="american", rules={})
    browser = client_for(treasurer)
    edit = reverse("web:preset-edit", args=[club.pk, preset.pk])
    assert browser.post(edit, {"action": "archive"}).status_code == 302
    assert (
        reverse("web:preset-open", args=[club.pk, preset.pk])
        not in browser.get(reverse("web:club", args=[club.pk])).content.decode()
    )
    stale = browser.post(edit, form_for("american", **{"rule-american-ante": "9", "version": "1"}))
    assert stale.status_code == 302 and Preset.objects.get(pk=preset.pk).version == 1
    assert "archived" in browser.get(edit).content.decode()
