"""Template filters of the web pages: signed, grouped numbers that say their sign in text as well as in
colour, and money in the currency's minor unit. The page script regroups them for the reader's locale."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, json_script

from ledger.currency import money_text, units_table

register = template.Library()

MINUS = "\u2212"


def _grouped(value: int) -> str:
    return f"{abs(value):,}"


@register.filter
def num(value: Any, style: str = "signed") -> str:
    """A counter amount: `+60`, `−25`, `0` (signed), or plain `1,250`, in a span the script can regroup."""
    if value is None or value == "":
        return ""
    value = int(value)
    if style == "plain":
        text = (MINUS if value < 0 else "") + _grouped(value)
        return format_html('<span class="num" data-n="{}" data-style="plain">{}</span>', value, text)
    sign = "+" if value > 0 else MINUS if value < 0 else ""
    kind = "pos" if value > 0 else "neg" if value < 0 else "zero"
    return format_html('<span class="num {}" data-n="{}">{}{}</span>', kind, value, sign, _grouped(value))


@register.simple_tag
def money(cents: Any, currency: str | None, style: str = "signed") -> str:
    """An amount in minor units of `currency` (`money` and `payments` of a settlement)."""
    if cents is None or not currency:
        return ""
    cents = int(cents)
    text = money_text(cents, currency, signed=style == "signed")
    kind = ("pos" if cents > 0 else "neg" if cents < 0 else "zero") if style == "signed" else ""
    return format_html(
        '<span class="money {}" data-cents="{}" data-currency="{}" data-style="{}">{} {}</span>',
        kind,
        cents,
        currency,
        style,
        text,
        currency,
    )


@register.simple_tag
def currency_units() -> str:
    """The currencies' minor units for the pages' script (`CS.money`): the server's table, not the browser's."""
    return json_script(units_table(), "currency-units")


@register.filter
def seat_name(seat: Any, names: list[str]) -> str:
    if seat == "pool":
        return "pool"
    return names[int(seat)]


@register.filter
def at(seq: Any, index: Any) -> Any:
    """`seq[index]`: a list's item (the index may be a string) or a dict's value; None when absent."""
    if isinstance(seq, dict):
        return seq.get(index)
    try:
        return seq[int(index)]
    except (IndexError, KeyError, TypeError, ValueError):
        return None


# House rules in words (the option's code name stays in the form's field names and the API).
RULE_LABELS = {
    "table": "Payment tables",
    "ante": "Ante",
    "pool_limit": "Pool limit",
    "last_trick_hand": "A 13th deal, the last-trick hand",
    "honours": "Count honours",
    "grand_column": "Column a no-trump bid pays",
    "suit_order": "Order of the ♥ and ♦ columns",
    "slam_table": "Slam table",
    "neuf": "Neuf amounts",
    "basket": "Basket",
    "third_suit_rate": "Rate of a third suit",
    "nine": "Nine amounts",
    "misere": "Misère amount",
}


@register.filter
def rule_label(name: str) -> str:
    """A house rule's name in words, for the new-session form."""
    return RULE_LABELS.get(name, name.replace("_", " ").capitalize())
