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

from django.utils import formats
from django.utils.translation import get_language, gettext, ngettext

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


def parse_money(text: str, currency: str) -> int:
    """A decimal amount typed in the currency (`12.50`, `12,50`, `1 234`) as minor units; ValueError
    with the reason when it is not one, or has more decimals than the currency's minor unit."""
    exponent = minor_units(currency)
    cleaned = (text or "").strip().replace("\u00a0", "").replace(" ", "").replace("_", "")
    if cleaned.count(",") == 1 and "." not in cleaned and 0 < len(cleaned.split(",")[1]) <= exponent:
        cleaned = cleaned.replace(",", ".")  # a decimal comma (12,50), not a thousands one (1,234)
    cleaned = cleaned.replace(",", "")
    whole, _, part = cleaned.partition(".")
    if (not whole.isdigit() and not (whole == "" and part.isdigit())) or (part and not part.isdigit()):
        example = money_text(1250 * 10**exponent // 100, currency)
        raise ValueError(
            gettext("write an amount of %(currency)s such as %(example)s") % {"currency": currency, "example": example}
        )
    if len(part) > exponent:
        raise ValueError(
            ngettext("%(currency)s has %(n)d decimal", "%(currency)s has %(n)d decimals", exponent)
            % {"currency": currency, "n": exponent}
            if exponent
            else gettext("%(currency)s has no decimals") % {"currency": currency}
        )
    return int(whole or "0") * 10**exponent + int(part.ljust(exponent, "0") or "0")
