"""Template filters of the web pages: signed, grouped numbers that say their sign in text as well as in
colour, and money in the currency's minor unit. The page script regroups them for the reader's locale."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html, json_script
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledger.currency import decimal_text as _decimal_text
from ledger.currency import group_digits, money_text, units_table
from ledger.elision import elide as _elide
from ledger.web import catalog, dates

register = template.Library()

MINUS = "\u2212"


def _grouped(value: int) -> str:
    return group_digits(abs(value))


@register.filter
def num(value: Any, style: str = "signed") -> str:
    """A counter amount: `+60`, `−25`, `0` (signed), or plain `1,250` (`1 250` in French and Russian), in a
    span the script can regroup."""
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
    text = money_text(cents, currency, signed=style == "signed", with_currency=True)
    kind = ("pos" if cents > 0 else "neg" if cents < 0 else "zero") if style == "signed" else ""
    return format_html(
        '<span class="money {}" data-cents="{}" data-currency="{}" data-style="{}">{}</span>',
        kind,
        cents,
        currency,
        style,
        text,
    )


@register.simple_tag
def currency_units() -> str:
    """The currencies' minor units for the pages' script (`CS.money`): the server's table, not the browser's."""
    return json_script(units_table(), "currency-units")


@register.filter
def negated(value: int) -> int:
    """-value: an amount said the other way round ("pays out €3.00" for a pool's −€3.00)."""
    return -int(value)


@register.filter
def at(seq: Any, index: Any) -> Any:
    """`seq[index]`: a list's item (the index may be a string) or a dict's value; None when absent."""
    if isinstance(seq, dict):
        return seq.get(index)
    try:
        return seq[int(index)]
    except (IndexError, KeyError, TypeError, ValueError):
        return None


ROLE_LABELS = {
    "player": pgettext_lazy("role", "player"),
    "scorer": pgettext_lazy("role", "scorer"),
    "treasurer": pgettext_lazy("role", "treasurer"),
    "admin": pgettext_lazy("role", "admin"),
}


@register.filter
def role_label(role: str) -> str:
    """A club role in words (the code stays in the database and the API)."""
    return str(ROLE_LABELS.get(role, role))


@register.filter
def variant_title(name: str) -> str:
    """A variant's title (American Boston …), or its code when the variant is unknown."""
    return catalog.variant_title(name)


@register.filter
def variant_short(name: str) -> str:
    """A variant's short name for a narrow column (its title is the cell's title)."""
    return catalog.variant_short_title(name)


FIELD_MODES = {"optional": _("optional"), "required": _("required")}


@register.filter
def field_mode(mode: str) -> str:
    return str(FIELD_MODES.get(mode, mode))


@register.filter
def decimal_text(value: Any) -> str:
    """A decimal written as text (`0.05`, a stake) with the language's decimal sign (`0,05`)."""
    return "" if value is None else _decimal_text(str(value))


@register.filter
def choice_word(item: catalog.RuleInput, value: Any) -> str:
    """A value of a house rule's input (a code of the sheet and the API) in words: `item|choice_word:value`."""
    return item.word(value)


# The words after which a rules text names a house rule by its code ("house rule honours").
HOUSE_RULE_WORDS = ("house rule", "règle maison", "домашнее правило", "домашним правилом", "домашнего правила")


@register.filter
def codes(text: Any, variant: str) -> str:
    """A rule's text with what it quotes as typed in a sheet set as code, not as words of the sentence:
    option names with an underscore (`grand_column`), choice values (`decimal`) and parts (`base`)
    anywhere, a one-word option name (`honours`) after "house rule" (it is also a word: "neuf")."""
    escaped = str(conditional_escape(text or ""))
    anywhere, after_rule = catalog.option_codes(variant)
    if anywhere:
        alternatives = "|".join(re.escape(n) for n in sorted(anywhere, key=len, reverse=True))
        escaped = re.sub(r"(?<![\w.>])(" + alternatives + r")(?!\w)", r"<code>\1</code>", escaped)
    if after_rule:
        alternatives = "|".join(re.escape(n) for n in sorted(after_rule, key=len, reverse=True))
        lead = "|".join(re.escape(w) for w in HOUSE_RULE_WORDS)
        escaped = re.sub(r"((?:" + lead + r") )(" + alternatives + r")(?!\w)", r"\1<code>\2</code>", escaped)
    return mark_safe(escaped)  # escaped above; what is added is <code> around \w characters


# A date (or a time, local) as the page's language writes it: ledger/web/dates.py, which the books'
# history view also calls. A time arrives in the current zone: the club's (ledger/web/zones.py).
register.filter("day", dates.day, expects_localtime=True)


@register.filter(is_safe=True)
def elide(text: str) -> str:
    """A translated sentence with its names in, French elision done (« Solde d'Ann »): `ledger.elision`."""
    return _elide(text)
