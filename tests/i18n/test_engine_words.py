"""The engine's words at the edge (ledger/i18n): the generated catalog module, and the renderer's English."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from ledger.engine import EngineError
from ledger.engine.messages import ENGLISH, GAME_WORDS, Message, Term, Words, context_of
from ledger.engine.variants import VARIANTS, get_variant, variant_names
from ledger.engine.variants.declaration import BELLE_OR_PETITE, REQUIRED
from ledger.i18n import error_body, generate, say
from tests.engine.helpers import refusal, sheet


def test_the_generated_module_is_the_engine_tables() -> None:
    assert generate.PATH.read_text(encoding="utf-8") == generate.render(), "run manage.py engine_messages"


def test_every_id_and_declared_word_is_an_entry() -> None:
    entries = generate.entries()
    assert {(context_of(k), v) for k, v in ENGLISH.items()} <= set(entries)
    assert len(entries) == len(set(entries)), "one entry per word and meaning"
    french = {english for context, english in generate.variant_entries("french") if context == GAME_WORDS}
    assert {"The table of payments", "Flat slams", "belle", "petite", "Partners' eight"} <= french
    assert "5" not in {english for _context, english in entries}


BROKEN: list[dict[str, Any]] = [
    {},
    {"bid": "nonsense"},
    {"bid": 3, "colour": "red"},
    {"bid": "pass", "trump": "hearts", "partner": 1, "honours": 3, "jack": 0, "conceded": True, "last_trick": 2},
    {"bid": "simple", "bidder": 9, "trump": "stars", "turned": "stars", "tricks": [1, 2], "honours": 2},
    {"bid": "simple", "bidder": 0, "partner": 0, "trump": "clubs", "turned": "hearts", "tricks": [5, 5, 5, 5]},
    {"bid": "little_misere", "bidder": 0, "trump": "clubs", "honours": 3, "jack": 1, "tricks": [0, 5, 5, 5]},
    {"bid": "neuf", "bidder": 0, "trump": "clubs", "turned": "clubs", "jack": 0, "tricks": [9, 1, 1, 2]},
    {"bid": "nine", "bidder": 0, "trump": "clubs", "turned": "clubs", "tricks": [9, 1, 1, 2]},
    {"bid": "boston", "bidder": 0, "trump": "none", "revoke": 1, "honours": 4, "tricks": [5, 5, 5, 5]},
    {"bid": "last_trick", "last_trick": 0, "adjustments": [{"from": 0}, {"from": 0, "to": 0, "counters": 1}]},
    {"bid": "boston", "bidder": 0, "trump": "clubs", "tricks": [5, 5, 2, 1], "adjustments": [{"to": 0}]},
    {"bid": "slam", "bidder": 0, "partner": 1, "trump": "none", "honours": 3, "tricks": [13, 0, 0, 0]},
    {"bid": "piccolissimo", "bidder": 0, "trump": "clubs", "partner": 2, "tricks": [1, 4, 4, 4]},
]


def _refusals() -> list[EngineError]:
    from ledger.engine import settle

    out = []
    for variant in variant_names():
        bids = [b.code for b in get_variant(variant).declaration.bids]
        hands = [*BROKEN, *({"bid": code} for code in bids)]
        for hand in hands:
            for number in (1, 2):
                first = {"bid": "pass", "turned": "hearts", "tricks": [4, 3, 3, 3]}
                raw = sheet(variant, ([first] if number == 2 else []) + [hand])
                try:
                    settle(raw)
                except EngineError as exc:
                    out.append(exc)
        for rules in ({"nope": 1}, {o.name: "x" for o in get_variant(variant).declaration.options}):
            try:
                settle(sheet(variant, [], rules=rules))
            except EngineError as exc:
                out.append(exc)
    return out


# The ids whose parameter is a house rule, named by its label, quoted (`Option.named`).
RULE_IDS = {"hand.forbidden.option", "hand.only_extra_deal", "hand.option_required", "option.unknown"}


def test_in_english_the_renderer_says_what_the_engine_says() -> None:
    """Every parameter the engine passes (bids, trumps, fields, belle's name, a house rule's label)
    renders back to its English: the API's English body is the engine's own, word for word."""
    errors = _refusals()
    messages = [m for e in errors for ms in e.fields.values() for m in ms]
    assert len({m.id for m in messages if isinstance(m, Message)}) > 40
    assert {m.id for m in messages if isinstance(m, Message)} >= RULE_IDS
    with translation.override("en"):
        for error in errors:
            assert error_body(error) == error.as_json()
            for ms in error.fields.values():
                for m in ms:
                    assert isinstance(m, Message), m
                    assert say(m) == str(m)


def test_parameters_keep_their_parts() -> None:
    body: dict[str, Any] = refusal(sheet("french", [{"bid": "nonsense"}]))
    assert body["fields"]["bid"][0].startswith("choose a bid: simple, independence (6)")
    words = Words([Message("suit.clubs"), Term("Turned card", "field.turned", lowered=True), "neuf"])
    assert words == "clubs, turned card, neuf"
    with translation.override("en"):
        assert say(words) == "clubs, turned card, neuf"


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS if v.plays_belle])
def test_belle_is_named_by_the_variant(variant: str) -> None:
    """A bid played in belle or petite, in a third suit, is refused in the variant's words for belle."""
    declaration = get_variant(variant).declaration
    in_belle = next(bid for bid in declaration.bids if bid.trumps == BELLE_OR_PETITE)
    hand: dict[str, Any] = {"bid": in_belle.code, "trump": "spades", "turned": "clubs", "tricks": [9, 1, 1, 2]}
    hand |= {name: 0 for name in ("bidder", "jack") if in_belle.fields.get(name) == REQUIRED}
    first = {"bid": "pass", "turned": "hearts"}  # deal 1 makes hearts belle
    body = refusal(sheet(variant, [first, hand]))
    word = declaration.belle_words[0]
    assert any(word in m for m in body["fields"].get("trump", [])), body


def test_every_ledger_template_is_matched_and_keeps_its_values() -> None:
    from ledger.i18n.refusals import TEMPLATES, ledger_text

    for template in TEMPLATES:
        names = re.findall(r"\{(\w+)\}", template)
        values = {name: f"V{i}x" for i, name in enumerate(names)}
        english = template.format(**values)
        with translation.override("en"):
            assert ledger_text(english) == english
        for language in ("fr", "ru"):
            with translation.override(language):
                said = ledger_text(english)
            assert said != english, (language, template)
            assert all(value in said for value in values.values()), (language, said)
    with translation.override("fr"):
        assert ledger_text("something the catalog has never seen") == "something the catalog has never seen"
        assert ledger_text("no such session") == "pas de telle séance"


CATALOGS = Path(__file__).resolve().parents[2] / "ledger" / "i18n" / "locale"


def _po_entries(path: Path) -> dict[tuple[str | None, str], tuple[str, bool]]:
    """(context, msgid) -> (msgstr, fuzzy) of a .po file, without a library: the catalogs are plain."""
    out: dict[tuple[str | None, str], tuple[str, bool]] = {}
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        parts: dict[str, list[str]] = {}
        current = None
        for line in block.splitlines():
            found = re.match(r'^(msgctxt|msgid|msgstr) (".*")$', line)
            if found:
                current = found.group(1)
                parts.setdefault(current, []).append(ast.literal_eval(found.group(2)))
            elif line.startswith('"') and current:
                parts[current].append(ast.literal_eval(line))
        if "msgid" in parts and "".join(parts["msgid"]):
            context = "".join(parts["msgctxt"]) if "msgctxt" in parts else None
            out[(context, "".join(parts["msgid"]))] = ("".join(parts.get("msgstr", [])), "#, fuzzy" in block)
    return out


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_catalog_translates_every_entry(language: str) -> None:
    """A new id or a changed English text fails here until makemessages is run and the entry translated."""
    path = CATALOGS / language / "LC_MESSAGES" / "django.po"
    po = _po_entries(path)
    missing = [entry for entry in generate.entries() if entry not in po]
    assert not missing, f"run manage.py engine_messages and makemessages in ledger/i18n (docs/i18n.md): {missing[:5]}"
    for (context, english), (said, fuzzy) in po.items():
        assert said and not fuzzy, (context, english)
        assert sorted(re.findall(r"\{\w*\}", said)) == sorted(re.findall(r"\{\w*\}", english)), (context, said)
    checked = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(path)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    assert "untranslated" not in checked.stderr and "fuzzy" not in checked.stderr, checked.stderr


def test_english_says_an_before_a_bid_said_with_a_vowel() -> None:
    """ "a all pass does not use the bidder" was said; English says "an all pass", "an eight"."""
    texts = {str(m) for e in _refusals() for ms in e.fields.values() for m in ms}
    assert {"an all pass is played without trumps: leave the trump empty"} <= texts
    assert [t for t in texts if re.search(r"\ba [aeiou]", t, re.IGNORECASE)] == []
    with translation.override("en"):
        assert say(Message("american.forbidden.trump", bid=Term("eight", "american"))).startswith("an eight ")
