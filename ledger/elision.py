"""French elision before a name (issue 38): « Solde d'Ann », « dette d'Hugo », but « Solde de Ben ».

A translated sentence says « de %(name)s »; which of « de » and « d' » is right depends on the name,
known only at run time, so the sentence is elided once its names are in. Only a capitalised word
(a name) is looked at: « de onze », « de huit » stay as they are. A name starting with a vowel or an h
elides (first names with an h aspiré, « de Hugues », are rare and read fine elided)."""

from __future__ import annotations

import re

from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import get_language

# "de"/"que" + a space + a capitalised word starting with a vowel or H (a name).
_BEFORE_NAME = re.compile(r"\b([Dd]e|[Qq]ue) (?=[AEIOUYÀÂÄÆÉÈÊËÎÏÔÖŒÙÛÜH][^\W\d_])")
_ELIDED = {"de": "d'", "De": "D'", "que": "qu'", "Que": "Qu'"}


def elide(text: str, language: str | None = None) -> str:
    """`text` with « de Ann » written « d'Ann » when the language is French; any other unchanged."""
    if not (language or get_language() or "").startswith("fr"):
        return text
    result = _BEFORE_NAME.sub(lambda m: _ELIDED.get(m.group(1), m.group(0)), text)
    return mark_safe(result) if isinstance(text, SafeData) else result  # only a space turned into an apostrophe
