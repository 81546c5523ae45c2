"""The "open a session" form: the posted inputs turned into the arguments of `services.session_open`;
and the club page's filters of its past sessions.

Only the shape of the inputs is checked here (a number is a number, four seats are chosen); whether the
rules, stake and seats make a valid session is the engine's and the ledger's to say, in their words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.http import QueryDict
from django.utils.translation import gettext

from ledger.currency import parse_stake

from .catalog import HouseRule, RuleInput, house_rules, variant_choices


def rule_input_name(variant: str, path: str) -> str:
    return f"rule-{variant}-{path}"


@dataclass
class NewSession:
    variant: str = ""
    rules: dict[str, Any] = field(default_factory=dict)
    players: list[int] = field(default_factory=list)
    first_dealer: int | None = None
    stake: dict[str, str] | None = None
    stake_typed: dict[str, str] = field(default_factory=dict)  # as typed: a refused form shows it again
    carry_pools_from: int | None = None
    errors: dict[str, list[str]] = field(default_factory=dict)

    @property
    def shown_stake(self) -> dict[str, str]:
        """The stake as the form shows it: as typed when posted (kept when refused), else as stored."""
        return self.stake_typed or self.stake or {}

    def error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    def refused(self, fields: dict[str, list[str]]) -> None:
        """A refusal of the engine or the ledger, its messages beside the fields they name."""
        for name, messages in fields.items():
            for message in messages:
                self.error(name, message)


def _int(text: str) -> int | None:
    text = text.strip()
    if not text or not text.lstrip("-").isdigit():
        return None
    return int(text)


def _scalar(item: RuleInput, raw: str | None) -> tuple[Any, str | None]:
    """(value, error) for one input; a missing checkbox is False."""
    if item.kind == "bool":
        return raw == "on", None
    text = (raw or "").strip()
    if item.kind == "choice":
        for choice in item.choices:
            if str(choice) == text:
                return choice, None
        return None, gettext("choose one of %(choices)s") % {"choices": ", ".join(item.word(c) for c in item.choices)}
    if item.kind == "int":
        if not text:
            return (None, None) if item.optional else (None, gettext("a whole number is needed"))
        value = _int(text)
        return (value, None) if value is not None else (None, gettext("must be a whole number"))
    return (text or None), None


def _nested(rule: HouseRule, variant: str, post: QueryDict) -> tuple[Any, str | None]:
    """A structured option (French `neuf`, Russian `nine`): all its amounts, or none of them."""
    texts = {item.path: (post.get(rule_input_name(variant, item.path)) or "").strip() for item in rule.inputs}
    if not any(texts.values()):
        return None, None
    if not all(texts.values()):
        return None, gettext("give every amount of this rule, or none of them")
    words = {item.path: item.label for item in rule.inputs}  # as the form labels the input ("base ♥"), not its key
    out: dict[str, Any] = {}
    for path, text in texts.items():
        value = _int(text)
        if value is None:
            return None, gettext("%(amount)s must be a whole number") % {"amount": words[path]}
        node = out
        parts = path.split(".")[1:]
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return out, None


def parse_new_session(post: QueryDict) -> NewSession:
    form = parse_conditions(post)
    parse_seats(post, form)
    carry = (post.get("carry_pools_from") or "").strip()
    if carry:
        form.carry_pools_from = _int(carry)
        if form.carry_pools_from is None:
            form.error("carry_pools_from", gettext("choose a session"))
    order = ["players", "first_dealer", "stake", "carry_pools_from"]  # the page's order, rules first
    form.errors = dict(sorted(form.errors.items(), key=lambda item: order.index(item[0]) if item[0] in order else -1))
    return form


def parse_seats(post: QueryDict, form: NewSession) -> None:
    """The four seats and the first dealer, into `form`."""
    for seat in range(4):
        pid = _int(post.get(f"seat-{seat}") or "")
        if pid is None:
            form.error("players", gettext("choose the player in seat %(n)d") % {"n": seat + 1})
        else:
            form.players.append(pid)
    form.first_dealer = _int(post.get("first_dealer") or "")
    if form.first_dealer is None:
        form.error("first_dealer", gettext("choose the first dealer"))


def parse_conditions(post: QueryDict) -> NewSession:
    """What a table plays: the variant, its house rules (from the declaration) and the stake; the new
    session's form and a preset's (issue 42) read them the same way."""
    form = NewSession(variant=(post.get("variant") or "").strip())
    if form.variant not in dict(variant_choices()):
        form.error("variant", gettext("choose a variant"))
    else:
        for rule in house_rules(form.variant):
            if rule.nested:
                value, problem = _nested(rule, form.variant, post)
            else:
                item = rule.inputs[0]
                value, problem = _scalar(item, post.get(rule_input_name(form.variant, item.path)))
            if problem:
                form.error(f"rules.{rule.name}", problem)
            elif value is not None or rule.default is not None:
                form.rules[rule.name] = value  # every rule explicit on the sheet, even at its default
    currency = (post.get("stake_currency") or "").strip().upper()
    per_counter = (post.get("stake_per_counter") or "").strip()
    form.stake_typed = {"currency": currency, "per_counter": per_counter}
    try:
        form.stake = parse_stake_fields(post)
    except ValueError as exc:
        form.error("stake", str(exc))
    return form


# --- the club page's past sessions: the filters of its list -----------------------------------------


@dataclass
class PastFilters:
    """The club page's filters as typed (`values`, shown back) and as read; a filter that does not read
    is left out of the list and said beside its field (`errors`)."""

    values: dict[str, str] = field(default_factory=dict)
    date_from: date | None = None
    date_to: date | None = None
    variant: str | None = None
    player: int | None = None
    errors: dict[str, list[str]] = field(default_factory=dict)

    def query(self) -> str:
        """The filters as a query string to carry from page to page ("" or "a=1&b=2&")."""
        kept = {name: value for name, value in self.values.items() if value and name not in self.errors}
        return urlencode(kept) + "&" if kept else ""

    @property
    def any(self) -> bool:
        return any(self.values.values())


PAST_FIELDS = ("from", "to", "variant", "player")


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text) if _ISO_DAY.fullmatch(text) else None
    except ValueError:
        return None


_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_past_filters(query: QueryDict, *, variants: set[str], players: set[int]) -> PastFilters:
    past = PastFilters(values={name: query.get(name, "").strip() for name in PAST_FIELDS})
    for name in ("from", "to"):
        text = past.values[name]
        if text:
            day = _day(text)
            if day is None or not 1000 <= day.year <= 9998:
                past.errors[name] = [gettext("Enter a day as the date picker writes it, such as 2025-05-09.")]
            elif name == "from":
                past.date_from = day
            else:
                past.date_to = day
    if past.date_from and past.date_to and past.date_from > past.date_to:
        past.errors["to"] = [gettext("The last day comes before the first day.")]
        past.date_to = None
    variant = past.values["variant"]
    if variant:
        if variant in variants:
            past.variant = variant
        else:
            past.errors["variant"] = [gettext("Choose one of the club's variants.")]
    player = _int(past.values["player"])
    if past.values["player"]:
        if player in players:
            past.player = player
        else:
            past.errors["player"] = [gettext("Choose one of the club's players.")]
    return past


def parse_stake_fields(post: QueryDict) -> dict[str, str] | None:
    """The stake typed in `stake_currency` and `stake_per_counter` (None: both left empty); a ValueError
    says, in the page's language, what is wrong with it."""
    currency = (post.get("stake_currency") or "").strip().upper()
    per_counter = (post.get("stake_per_counter") or "").strip()
    if not (currency or per_counter):
        return None
    if not (currency and per_counter):
        raise ValueError(gettext("give both the currency and the value of one counter, or neither"))
    # the one reader of amounts: 0,05 in French and Russian, 0.05 in English
    return {"currency": currency, "per_counter": parse_stake(per_counter, currency)}
