"""The scripts' catalogs (locale/{fr,ru}/LC_MESSAGES/djangojs.po) hold every string the scripts ask for,
each translated: the words `xgettext` finds in static/clubscore/**/*.js (as `makemessages -d djangojs`
finds them) are all in each catalog, none fuzzy or untranslated (`msgfmt --check --statistics`, issue 17's
"Done when"). A string wrapped in a script and left out of the catalogs fails here, not on a page."""

from __future__ import annotations

import gettext
import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
SCRIPTS = sorted((ROOT / "static" / "clubscore").glob("**/*.js"))  # the scorer's modules too (scorer/)
# The keywords makemessages gives xgettext for the djangojs domain, on top of xgettext's own
# (gettext, ngettext, pgettext for JavaScript).
KEYWORDS = ["gettext_noop", "gettext_lazy", "ngettext_lazy:1,2", "pgettext:1c,2", "npgettext:1c,2,3"]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def catalog(language: str) -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / "djangojs.po"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("djangojs") / "djangojs.pot"
    subprocess.run(
        ["xgettext", "--language=JavaScript", "--from-code=UTF-8", "--force-po", f"--output={out}"]
        + [f"--keyword={k}" for k in KEYWORDS]
        + [str(p.relative_to(ROOT)) for p in SCRIPTS],
        cwd=ROOT,
        check=True,
    )
    return out


def test_the_scripts_ask_for_words() -> None:
    assert SCRIPTS and any("gettext(" in p.read_text(encoding="utf-8") for p in SCRIPTS)


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_every_string_of_the_scripts_is_translated(template: Path, language: str) -> None:
    # msgcmp: every msgid of the scripts is in the catalog, with a translation (fuzzy ones do not count)
    found = subprocess.run(["msgcmp", str(catalog(language)), str(template)], capture_output=True, text=True)
    assert found.returncode == 0, found.stderr
    checked = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(catalog(language))],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    assert "translated messages" in checked.stderr, checked.stderr
    assert "fuzzy" not in checked.stderr and "untranslated" not in checked.stderr, checked.stderr


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_each_translation_keeps_the_placeholders_of_its_english(tmp_path: Path, language: str) -> None:
    """`interpolate(…, true)` fills %(name)s by name: a translation that drops one loses a number, one
    that names another shows "undefined". A plural form may add the count (`%(n)s`) its singular leaves out."""
    compiled = tmp_path / "djangojs.mo"
    subprocess.run(["msgfmt", "-o", str(compiled), str(catalog(language))], check=True)
    with compiled.open("rb") as handle:
        messages = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    wrong = []
    for key, text in messages.items():
        english = key[0] if isinstance(key, tuple) else key
        if not english:
            continue  # the header
        wanted = set(PLACEHOLDER.findall(english.split("\x04")[-1]))
        have = set(PLACEHOLDER.findall(text))
        extra = {"n"} if isinstance(key, tuple) else set()
        if not (wanted - {"n"} <= have <= wanted | extra):
            wrong.append((english, text))
    assert len(messages) > 100
    assert wrong == []
