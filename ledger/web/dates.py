"""How a page writes a day: the template filter `day` (ledger/templatetags) and the views that put a
time into a message (the books' history) share this one function."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.template.defaultfilters import date as date_filter
from django.utils.timezone import is_aware, localtime
from django.utils.translation import get_language, pgettext_lazy

# How a page writes a day, per language (the translation is the format: `j F Y` in French, `j E Y` in
# Russian, whose E is the month's genitive: «1 декабря 2026»).
DAY_FORMATS = {
    "day": pgettext_lazy("date format: a day", "j M Y"),
    "time": pgettext_lazy("date format: a day and time", "j M Y H:i"),
    "short": pgettext_lazy("date format: a day in a table", "j M y"),
}


FRENCH_MONTHS_SHORT = (
    *("janv.", "févr.", "mars", "avr.", "mai", "juin"),
    *("juil.", "août", "sept.", "oct.", "nov.", "déc."),
)


def day(value: Any, style: str = "day") -> str:
    """A date (or a time, local) as the page's language writes it, month names included."""
    if not value:
        return ""
    shape = str(DAY_FORMATS[style])
    if "N" in shape and (get_language() or "").startswith("fr"):
        # Django's French "N" writes "jan.", "fév.", "sep."; French (and the scripts' Intl) abbreviates
        # "janv.", "févr.", "sept.": one way on every page (issue 26, "Words").
        month = (localtime(value) if isinstance(value, dt.datetime) and is_aware(value) else value).month
        shape = shape.replace("N", "".join("\\" + c for c in FRENCH_MONTHS_SHORT[month - 1]))
    text = date_filter(value, shape)
    day_of_month = (localtime(value) if isinstance(value, dt.datetime) and is_aware(value) else value).day
    if day_of_month == 1 and (get_language() or "").startswith("fr") and text.startswith("1 "):
        return "1er" + text[1:]  # French writes the first of the month as an ordinal: 1er décembre
    return text
