"""The time-zone choices of the new-club and club pages (issue 38): 599 IANA names shown as a French or
Russian club would look for its zone, in the page's language (CLDR's names, through Babel: « Paris
(France) », «Москва (Россия)»), grouped by region, with the club's likely zone first (its own, else the
one the page's language suggests; the new-club page's script puts the browser's zone there too).

The option's value stays the IANA name (what the club stores and the API takes); the legacy aliases and
the `Etc` zones, which name no place, are kept under "Other names" as their IANA name (`lang="zxx"`)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_location
from django.utils.translation import get_language, pgettext

from ledger import zones

# The IANA areas that name a region, in the order a select shows them.
REGIONS = ("Europe", "Africa", "America", "Asia", "Australia", "Pacific", "Atlantic", "Indian", "Antarctica", "Arctic")
# The zone a club whose pages are read in the language most likely keeps its evenings in (English: none,
# the browser's zone says more than the language).
LIKELY = {"fr": "Europe/Paris", "ru": "Europe/Moscow"}


def region_label(area: str) -> str:
    """An IANA area in the page's language (context "time zone region")."""
    return {
        "Europe": pgettext("time zone region", "Europe"),
        "Africa": pgettext("time zone region", "Africa"),
        "America": pgettext("time zone region", "Americas"),
        "Asia": pgettext("time zone region", "Asia"),
        "Australia": pgettext("time zone region", "Australia"),
        "Pacific": pgettext("time zone region", "Pacific Ocean"),
        "Atlantic": pgettext("time zone region", "Atlantic Ocean"),
        "Indian": pgettext("time zone region", "Indian Ocean"),
        "Antarctica": pgettext("time zone region", "Antarctica"),
        "Arctic": pgettext("time zone region", "Arctic"),
    }[area]


@dataclass(frozen=True)
class Choice:
    value: str  # the IANA name
    label: str  # in the page's language, or the IANA name itself (`code`)
    code: bool = False
    selected: bool = False


@dataclass(frozen=True)
class Group:
    label: str
    choices: tuple[Choice, ...]


def _sort_key(text: str) -> str:
    """Alphabetical as a reader expects: « Égypte » among the E, not after the Z."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


def _area(name: str) -> str | None:
    """The region of a canonical IANA name; None for an alias (`US/Eastern`, `Asia/Calcutta`) or `Etc`."""
    area = name.split("/", 1)[0]
    return area if "/" in name and area in REGIONS and name not in get_global("zone_aliases") else None


@cache
def _labels(language: str) -> dict[str, str]:
    """Every canonical zone's words in `language`: its city, then its country when that says more."""
    locale = Locale.parse(language)
    territories = get_global("zone_territories")
    out = {}
    for name in zones.zone_names():
        if _area(name) is None:
            continue
        city = get_timezone_location(name, locale=locale, return_city=True)
        country = locale.territories.get(territories.get(name, ""), "")
        out[name] = f"{city} ({country})" if country and country != city else city
    return out


def _choice(name: str, labels: dict[str, str], selected: bool) -> Choice:
    if name in labels:
        return Choice(name, labels[name], selected=selected)
    return Choice(name, name, code=True, selected=selected)


def zone_choices(chosen: str, language: str | None = None) -> tuple[Group, ...]:
    """The select's groups: the likely zones first (`chosen`, then the language's), then each region's
    zones by name, then the other IANA names. `chosen` is selected (its first option)."""
    language = (language or get_language() or "en").split("-")[0]
    if language not in ("en", "fr", "ru"):
        language = "en"
    labels = _labels(language)
    likely = [name for name in dict.fromkeys((chosen, LIKELY.get(language, ""))) if zones.is_zone(name)]
    groups = [Group(pgettext("time zones", "Likely"), tuple(_choice(n, labels, n == chosen) for n in likely))]
    for area in REGIONS:
        names = sorted((n for n in labels if n.startswith(area + "/")), key=lambda n: _sort_key(labels[n]))
        groups.append(Group(region_label(area), tuple(_choice(n, labels, False) for n in names)))
    others = tuple(_choice(n, labels, False) for n in zones.zone_names() if n not in labels)
    groups.append(Group(pgettext("time zones", "Other names (IANA)"), others))
    return tuple(groups)
