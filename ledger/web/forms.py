"""The pages' forms. What a table plays and who sits at it, as Django forms: the new session's
(`NewSessionForm`), a preset's (`PresetForm`) and a preset's table (`SeatsForm`); each house rule is a
field built from the chosen variant's declaration (`rule_fields`), none is named here. And the club
page's filters of its past sessions.

Only the shape of the inputs is checked here (a number is a number, four seats are chosen); whether the
rules, stake and seats make a valid session is the engine's and the ledger's to say, in their words,
and `refused` puts each of their refusals beside the field it names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.currency import parse_stake
from ledger.engine.variants import variant_names

from .catalog import HouseRule, RuleInput, house_rules, variant_choices

SEATS = 4
_WHOLE = re.compile(r"-?[0-9]+")


def rule_input_name(variant: str, path: str) -> str:
    """The input of a house rule (`path`: the option, or `option.part[.suit]` inside a structured one)."""
    return f"rule-{variant}-{path}"


def _int(text: str) -> int | None:
    text = text.strip()
    return int(text) if _WHOLE.fullmatch(text) else None


def _shown(value: Any) -> int | None:
    """A number an input shows chosen: an int given (an unposted form's), else the text posted, read."""
    return value if isinstance(value, int) else _int(str(value or ""))


class WholeNumber(forms.Field):
    """A whole number as typed (digits, a leading minus), empty is None: its bounds are the engine's to
    say, in the words of its refusals."""

    def to_python(self, value: Any) -> int | None:
        text = str(value or "").strip()
        if not text:
            return None
        number = _int(text)
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return number


# --- the house rules: a field per option of the declaration ------------------------------------------


class _AmountInputs(forms.Widget):
    """A structured rule's amounts (French `neuf`, Russian `nine`), each its own number input named
    `rule-<variant>-<option>.<part>[.<suit>]`; the template draws them."""

    def __init__(self, rule: HouseRule) -> None:
        super().__init__()
        self.paths = tuple(item.path for item in rule.inputs)
        self.option = rule.name

    def value_from_datadict(self, data: Mapping[str, Any], files: Any, name: str) -> dict[str, Any]:
        return {path: data.get(name + path[len(self.option) :]) for path in self.paths}


class Amounts(forms.Field):
    """A structured house rule: all its amounts, or none of them (None); its value nested as the
    declaration's parts are (`{"base": {"hearts": 2, ...}, ...}`)."""

    def __init__(self, rule: HouseRule, **kwargs: Any) -> None:
        self.rule = rule
        super().__init__(widget=_AmountInputs(rule), required=False, **kwargs)

    def to_python(self, value: Any) -> dict[str, Any] | None:
        texts = {item.path: str((value or {}).get(item.path) or "").strip() for item in self.rule.inputs}
        if not any(texts.values()):
            return None
        if not all(texts.values()):
            raise ValidationError(gettext("give every amount of this rule, or none of them"), code="incomplete")
        out: dict[str, Any] = {}
        for item in self.rule.inputs:  # named as the form labels the input ("base ♥"), not by its key
            number = _int(texts[item.path])
            if number is None:
                raise ValidationError(gettext("%(amount)s must be a whole number") % {"amount": item.label})
            node = out
            *parents, last = item.path.split(".")[1:]
            for part in parents:
                node = node.setdefault(part, {})
            node[last] = number
        return out


def _choice_field(item: RuleInput) -> forms.Field:
    said = gettext("choose one of %(choices)s") % {"choices": ", ".join(item.word(c) for c in item.choices)}
    by_text = {str(choice): choice for choice in item.choices}
    return forms.TypedChoiceField(
        choices=[(text, item.word(choice)) for text, choice in by_text.items()],
        coerce=by_text.__getitem__,
        error_messages={"required": said, "invalid_choice": said.replace("%", "%%")},
    )


def _rule_field(rule: HouseRule) -> forms.Field:
    """The form field of one house rule, of the kind its declared option is."""
    if rule.nested:
        return Amounts(rule)
    item = rule.inputs[0]
    if item.kind == "bool":
        return forms.BooleanField(required=False)  # a checkbox left empty is False
    if item.kind == "choice":
        return _choice_field(item)
    if item.kind == "int":
        messages = {"required": gettext("a whole number is needed"), "invalid": gettext("must be a whole number")}
        return WholeNumber(required=not item.optional, error_messages=messages)
    return forms.CharField(required=False, empty_value=None)


def _at(value: Any, path: str) -> Any:
    """The amount at `option.part[.suit]` inside a structured rule's value."""
    for key in path.split(".")[1:]:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def rule_fields(variant: str, rules: Mapping[str, Any] | None = None) -> dict[str, forms.Field]:
    """A field per house rule of the variant's declaration, by its input's name, in the declaration's
    order; initially at `rules` (a preset's), else at the declared defaults."""
    fields: dict[str, forms.Field] = {}
    for rule in house_rules(variant):
        made = _rule_field(rule)
        value = rule.default if rules is None else rules.get(rule.name, rule.default)
        if rule.nested:
            value = {item.path: None if rules is None else _at(value, item.path) for item in rule.inputs}
        made.initial = value
        made.label = rule.label
        made.help_text = rule.help
        fields[rule_input_name(variant, rule.name)] = made
    return fields


class HouseRulesForm(forms.Form):
    """One variant's house rules alone: how the page shows again what was typed into a variant that
    was not the one chosen (never judged)."""

    def __init__(self, variant: str, data: Any = None) -> None:
        super().__init__(data)
        self.fields.update(rule_fields(variant))


# --- what a table plays, who sits at it -------------------------------------------------------------


class _StakeInputs(forms.Widget):
    """The stake's two inputs, `stake_currency` and `stake_per_counter`, as typed (the code in capitals)."""

    def value_from_datadict(self, data: Mapping[str, Any], files: Any, name: str) -> dict[str, str]:
        return {
            "currency": str(data.get("stake_currency") or "").strip().upper(),
            "per_counter": str(data.get("stake_per_counter") or "").strip(),
        }


class Stake(forms.Field):
    """The stake (None: both inputs left empty), or a refusal in the page's language."""

    widget = _StakeInputs

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> dict[str, str] | None:
        typed = value or {}
        try:
            return stake_of(typed.get("currency", ""), typed.get("per_counter", ""))
        except ValueError as exc:
            raise ValidationError(str(exc), code="invalid") from None


class _SeatInputs(forms.Widget):
    """The four seats' selects, `seat-0` to `seat-3`."""

    def value_from_datadict(self, data: Mapping[str, Any], files: Any, name: str) -> list[Any]:
        return [data.get(f"seat-{seat}") for seat in range(SEATS)]


class Seats(forms.Field):
    """The players by seat (their ids, in seat order); each seat left empty is said by its number."""

    widget = _SeatInputs

    def to_python(self, value: Any) -> list[int]:
        chosen = [_int(str(pid or "")) for pid in (value or [None] * SEATS)]
        missing = [seat for seat, pid in enumerate(chosen) if pid is None]
        if missing:
            raise ValidationError(
                [gettext("choose the player in seat %(n)d") % {"n": seat + 1} for seat in missing], code="required"
            )
        return [pid for pid in chosen if pid is not None]


class RefusableForm(forms.Form):
    """A form whose post a service judges after it: the service's refusal comes back beside its fields."""

    def field_named(self, name: str) -> str | None:
        """The field a refusal names (`players`, `stake` …), or None: it is said above the form."""
        return name if name in self.fields else None

    def refused(self, fields: dict[str, list[str]]) -> None:
        """A refusal of the engine or the ledger, each message beside the field it names."""
        for name, messages in fields.items():
            where = self.field_named(name)
            for message in messages:
                self.add_error(where, message)


_CHOOSE_DEALER = _("choose the first dealer")


class SeatsForm(RefusableForm):
    """Who sits where and who deals first: all a preset's table asks (`initial`: the seats offered)."""

    players = Seats()
    first_dealer = forms.TypedChoiceField(
        choices=[(str(seat), str(seat + 1)) for seat in range(SEATS)],
        coerce=int,
        initial=0,
        error_messages={"required": _CHOOSE_DEALER, "invalid_choice": _CHOOSE_DEALER},
    )

    @property
    def seats(self) -> list[dict[str, Any]]:
        """The seats as the template draws them: the player chosen in each, as text ("" for none)."""
        chosen = [_shown(pid) for pid in self["players"].value() or [None] * SEATS]
        return [{"seat": seat, "chosen": "" if pid is None else str(pid)} for seat, pid in enumerate(chosen)]

    @property
    def dealer(self) -> int | None:
        """The first dealer shown chosen: the posted one (none when it does not read), else the first seat."""
        return _shown(self["first_dealer"].value())


_CHOOSE_VARIANT = _("choose a variant")


class ConditionsForm(RefusableForm):
    """What a table plays: the variant, a field per house rule of the chosen variant's declaration, and
    the stake. `variant`, `rules` and `stake` are what an unposted form shows (a preset's)."""

    variant = forms.ChoiceField(
        choices=variant_choices, error_messages={"required": _CHOOSE_VARIANT, "invalid_choice": _CHOOSE_VARIANT}
    )
    stake = Stake()

    def __init__(
        self,
        data: Any = None,
        *,
        variant: str | None = None,
        rules: Mapping[str, Any] | None = None,
        stake: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data, **kwargs)
        self.initial.update({"variant": variant, "stake": stake})
        self.chosen = str((self.data.get("variant") if self.is_bound else variant) or "").strip()
        self.house_rules = house_rules(self.chosen) if self.chosen in variant_names() else []
        declared = rule_fields(self.chosen, rules) if self.house_rules else {}
        self.fields.update(declared)
        # the page's order, so that the errors at its top are listed in it
        self.order_fields(
            ["name", "variant", *declared, "players", "first_dealer", "stake", "carry_pools_from", "version"]
        )

    @property
    def shown_variant(self) -> str:
        """The variant whose house rules the page shows open: the chosen one, else American."""
        return self.chosen if self.chosen in variant_names() else "american"

    @property
    def shown_stake(self) -> dict[str, Any]:
        """The stake as the form shows it: as typed when posted (kept when refused), else as stored."""
        return dict(self["stake"].value() or {})

    def rules_form(self, variant: str) -> forms.Form:
        """The form whose fields show `variant`'s house rules: this one for the chosen variant."""
        return self if variant == self.chosen else HouseRulesForm(variant, self.data if self.is_bound else None)

    def clean(self) -> dict[str, Any]:
        """Every house rule explicit on the sheet, even at its default; an empty one left out only when
        its default is none (docs/web.md)."""
        cleaned = super().clean() or {}
        rules = {}
        for rule in self.house_rules:
            value = cleaned.get(rule_input_name(self.chosen, rule.name))
            if value is not None or rule.default is not None:
                rules[rule.name] = value
        cleaned["rules"] = rules
        return cleaned

    def conditions(self) -> dict[str, Any]:
        """The variant, rules and stake, as the services take them (a valid form's)."""
        return {name: self.cleaned_data[name] for name in ("variant", "rules", "stake")}

    def field_named(self, name: str) -> str | None:
        """`rules.<option>`, as the engine names a house rule, is that rule's field."""
        if name.startswith("rules."):
            name = rule_input_name(self.chosen, name.removeprefix("rules."))
        return super().field_named(name)


class NewSessionForm(ConditionsForm, SeatsForm):
    """The new-session page: what the table plays, who sits where, and the carried pools it claims."""

    carry_pools_from = WholeNumber(required=False, error_messages={"invalid": _("choose a session")})

    def session(self) -> dict[str, Any]:
        """The arguments of `ledger.services.sessions.session_open` (a valid form's)."""
        chosen = self.cleaned_data
        return {
            **self.conditions(),
            "player_ids": chosen["players"],
            "first_dealer": chosen["first_dealer"],
            "carry_pools_from": chosen["carry_pools_from"],
        }

    @property
    def carried(self) -> int | None:
        """The session whose carried pools are shown chosen."""
        return _shown(self["carry_pools_from"].value())


class PresetForm(ConditionsForm):
    """A preset's page: its name and the version its editor saw, beside the conditions."""

    name = forms.CharField(required=False)
    version = WholeNumber(required=False, error_messages={"invalid": _("the preset has changed: read it again")})


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
    return stake_of((post.get("stake_currency") or "").strip().upper(), (post.get("stake_per_counter") or "").strip())


def stake_of(currency: str, per_counter: str) -> dict[str, str] | None:
    """The stake of a currency's code and one counter's value as typed (None: both empty)."""
    if not (currency or per_counter):
        return None
    if not (currency and per_counter):
        raise ValueError(gettext("give both the currency and the value of one counter, or neither"))
    # the one reader of amounts: 0,05 in French and Russian, 0.05 in English
    return {"currency": currency, "per_counter": parse_stake(per_counter, currency)}
