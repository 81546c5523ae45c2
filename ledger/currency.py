"""Money shown one way everywhere: the server decides each currency's minor units (ISO 4217, the
engine's table) and this is the one formatter of amounts on the server. The pages' script formats
with the same exponents, which the pages hand it (`units_table`), never from the browser's own idea.

Amounts are integers in the currency's minor unit (`scoresheet.md`, "Money"). Shown to a person they
are written as the active language writes them (docs/i18n.md): grouping and decimal sign from
`django.utils.formats` (`1,234.56` in English, `1 234,56` in French and Russian), the currency's sign
before the amount in English (`€12.50`) and after it in French and Russian (`12,50 €`), as the pages'
script (`Intl.NumberFormat`) writes them. Ungrouped text is data (CSV, a form's value): ASCII, a point.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils import formats
from django.utils.translation import get_language, gettext, ngettext, pgettext_lazy

from ledger.engine.closing import MINOR_UNIT_EXPONENTS, minor_unit_exponent

MINUS = "\u2212"  # the same minus sign as the counters on the pages
DEFAULT_EXPONENT = 2
NBSP = "\u00a0"
# The signs the languages write for the usual currencies; any other is written by its ISO code.
SIGNS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "RUB": "₽", "UAH": "₴", "ILS": "₪", "INR": "₹"}
SIGN_FIRST = {"en"}  # the languages that write the sign before the amount


def group_digits(whole: int) -> str:
    """A whole number grouped by thousands as the active language groups it (`1,234`, `1 234`)."""
    text = str(whole)
    separator = str(formats.get_format("THOUSAND_SEPARATOR"))
    groups: list[str] = []
    while len(text) > 3:
        text, tail = text[:-3], text[-3:]
        groups.insert(0, tail)
    return separator.join([text, *groups])


def decimal_text(text: str) -> str:
    """A decimal written with a point (`0.05`) in the active language's decimal sign (`0,05`)."""
    return text.replace(".", str(formats.get_format("DECIMAL_SEPARATOR")))


def minor_units(currency: str) -> int:
    """How many decimals the currency's minor unit has (USD 2, JPY 0, KWD 3)."""
    return minor_unit_exponent(currency)


def money_text(
    cents: int,
    currency: str,
    *,
    signed: bool = False,
    grouped: bool = True,
    minus: str = MINUS,
    with_currency: bool = False,
) -> str:
    """Minor units as a decimal amount of the currency: `1,234.56`, `−25`, `+0.500` (signed: a plus
    before amounts above zero), in the active language when grouped (`1 234,56`); with_currency adds
    the currency's sign where the language puts it (`−€1.15`, `−1,15 €`). Ungrouped with an ASCII minus
    it is what a spreadsheet reads: `-1234.56`."""
    exponent = minor_units(currency)
    whole, part = divmod(abs(cents), 10**exponent)
    text = group_digits(whole) if grouped else str(whole)
    if exponent:
        point = str(formats.get_format("DECIMAL_SEPARATOR")) if grouped else "."
        text += f"{point}{part:0{exponent}d}"
    sign = minus if cents < 0 else "+" if signed and cents > 0 else ""
    if not with_currency:
        return sign + text
    mark = SIGNS.get(currency, currency)
    if (get_language() or "en").split("-")[0] in SIGN_FIRST:
        return sign + mark + ("" if currency in SIGNS else NBSP) + text
    return sign + text + NBSP + mark


def units_table() -> dict[str, int]:
    """The exponents the pages' script formats with: the currencies that differ from the default, and it."""
    return {"default": DEFAULT_EXPONENT, **MINOR_UNIT_EXPONENTS}


# The names of the usual currencies in the words of a refusal ("euros have 2 decimals"); any other by its code.
CURRENCY_NAMES = {
    "EUR": pgettext_lazy("currency, plural", "euros"),
    "USD": pgettext_lazy("currency, plural", "US dollars"),
    "GBP": pgettext_lazy("currency, plural", "pounds sterling"),
    "JPY": pgettext_lazy("currency, plural", "yen"),
    "RUB": pgettext_lazy("currency, plural", "roubles"),
    "CHF": pgettext_lazy("currency, plural", "Swiss francs"),
    "KWD": pgettext_lazy("currency, plural", "Kuwaiti dinars"),
}
# What a person may group thousands with: the site's own signs (a comma in English, a no-break space
# in French and Russian, the narrow one the pages' script writes) and the spaces people type.
SPACES = (" ", NBSP, "\u202f", "\u2009", "\u2007")
_GROUPED = re.compile(r"^[1-9]\d{0,2}(?:G\d{3})+$")


def currency_name(currency: str) -> str:
    """The currency in words, plural (`euros`), or its code when it has no name here."""
    name = CURRENCY_NAMES.get(currency)
    return str(name) if name is not None else currency


def _decimal_sign() -> str:
    return str(formats.get_format("DECIMAL_SEPARATOR"))


def parse_decimal(
    text: str, decimals: int, *, what: Callable[[int], str], example: str, invalid: str = ""
) -> tuple[int, str]:
    """The one reader of amounts typed by a person: (whole, fraction digits) of a decimal written as the
    active language writes it (`1,234.50` in English, `1 234,50` in French and Russian), or ValueError
    in words. Either sign is taken as the decimal one when the language's is absent and the other
    cannot be grouping (`12,5` on an English page, `12.5` on a French one), so a decimal is never
    read as thousands: `0,105` is 0.105 (refused for euros, which have 2 decimals), never 105.

    `what(decimals)` is the refusal of too many decimals; `invalid` (with `%(example)s`) the other one.
    """
    bad = ValueError((invalid or gettext("write an amount such as %(example)s")) % {"example": example})
    cleaned = (text or "").strip()
    point = _decimal_sign()
    other = "," if point == "." else "."
    group = "," if point == "." else ""
    _say_what_is_wrong(cleaned, point, other)
    for space in SPACES:
        cleaned = cleaned.replace(space, "G")
    if group:
        head = cleaned.split(point)[0]
        if "," in head and _GROUPED.match(head.replace(",", "G")):
            cleaned = cleaned.replace(",", "G")
    if point not in cleaned and cleaned.count(other) == 1:
        cleaned = cleaned.replace(other, point)
    whole, sep, part = cleaned.partition(point)
    if "G" in whole:
        if not _GROUPED.match(whole):
            raise bad
        whole = whole.replace("G", "")
    if not (whole.isascii() and part.isascii()) or (not whole.isdigit() and not (whole == "" and part.isdigit())):
        raise bad
    if (part and not part.isdigit()) or (sep and not part and not whole):
        raise bad
    if len(part) > decimals:
        raise ValueError(what(decimals))
    return int(whole or "0"), part


_OTHER_WAY = re.compile(r"^\d{1,3}(?:[.,\s\u00a0\u202f]\d{3})*[.,]\d+$")


def _say_what_is_wrong(cleaned: str, point: str, other: str) -> None:
    """The refusals that say what is wrong, not only what an amount looks like (issue 38): a minus sign,
    a power of ten (`1e3`), or the decimal sign of another language (`1.234,50` on an English page)."""
    if cleaned[:1] in ("-", "\u2212"):
        raise ValueError(gettext("an amount is never below zero: write it without the minus sign"))
    if re.fullmatch(r"[\d.,]*\d[eE][+-]?\d+", cleaned):
        raise ValueError(
            gettext("write the amount in plain digits, not as a power of ten (%(typed)s)") % {"typed": cleaned}
        )
    last = max(cleaned.rfind("."), cleaned.rfind(","))
    grouped_here = point == "." and cleaned[last:].count(".") == 1 and "." not in cleaned[:last]  # 1,234.50 in English
    if last > 0 and "." in cleaned and "," in cleaned and not grouped_here and _OTHER_WAY.match(cleaned):
        whole = re.sub(r"\D", "", cleaned[:last])
        fixed = group_digits(int(whole)) + point + cleaned[last + 1 :]
        raise ValueError(
            gettext("%(typed)s mixes the signs: on this page the decimal sign is “%(point)s”, so write %(fixed)s")
            % {"typed": cleaned, "point": point, "fixed": fixed}
        )


def _currency_decimals(currency: str) -> Callable[[int], str]:
    def what(exponent: int) -> str:
        name = currency_name(currency)
        if not exponent:
            return gettext("%(currency)s have no decimals") % {"currency": name}
        return ngettext("%(currency)s have %(n)d decimal", "%(currency)s have %(n)d decimals", exponent) % {
            "currency": name,
            "n": exponent,
        }

    return what


def without_currency(text: str, currency: str = "") -> str:
    """The amount typed without the currency's sign or code at either end (`€12.50`, `12,5 €`,
    `12.50 EUR`); with no currency named, any of the usual signs (a stake typed before its currency)."""
    cleaned = (text or "").strip()
    marks = (SIGNS.get(currency, ""), currency) if currency else tuple(SIGNS.values())
    for mark in marks:
        if mark and cleaned.startswith(mark):
            cleaned = cleaned[len(mark) :].strip()
        elif mark and cleaned.endswith(mark):
            cleaned = cleaned[: -len(mark)].strip()
    return cleaned


def parse_money(text: str, currency: str) -> int:
    """An amount of the currency typed by a person (`12.50`, `12,50`, `1 234,50`, `€12.50`) as minor
    units, in the active language (`parse_decimal`); ValueError in words when it is not one, or has
    more decimals than the currency (`euros have 2 decimals`). What `money_text` writes it reads back."""
    exponent = minor_units(currency)
    cleaned = without_currency(text, currency)
    example = money_text(1250 * 10**exponent // 100, currency)
    whole, part = parse_decimal(cleaned, exponent, what=_currency_decimals(currency), example=example)
    return whole * 10**exponent + int(part.ljust(exponent, "0") or "0")


STAKE_DECIMALS = 6  # `scoresheet.md`: a counter's value has 1 to 6 decimals


def parse_stake(text: str, currency: str = "") -> str:
    """The value of one counter typed by a person (`0,05` in French, `12,5 €`), as the sheet writes it
    (`0.05`): the same reader as a payment's (`parse_money`), the currency's sign or code left out."""

    def what(_decimals: int) -> str:
        return gettext("a counter's value has at most %(n)d decimals") % {"n": STAKE_DECIMALS}

    invalid = gettext("the value of one counter is a decimal such as %(example)s")
    cleaned = without_currency(text, currency)
    whole, part = parse_decimal(cleaned, STAKE_DECIMALS, what=what, example=decimal_text("0.01"), invalid=invalid)
    return f"{whole}.{part}" if part else str(whole)
