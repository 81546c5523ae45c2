"""The new-session form as a Django form (issue 40, item 7): its house-rule fields are made from the chosen
variant's declaration, for every variant of the registry (none is named here); what does not read is
said beside the field that holds it; a refusal of the services comes back beside the field it names."""

from __future__ import annotations

from typing import Any, cast

import pytest
from django import forms
from django.http import QueryDict

from ledger.engine.variants import get_variant, variant_names
from ledger.engine.variants.declaration import BOOLEAN, CHOICE, INTEGER, OBJECT, Option
from ledger.i18n import choice_word, label
from ledger.web.forms import Amounts, NewSessionForm, WholeNumber, rule_input_name

VARIANTS = variant_names()
SEATS = {"seat-0": "11", "seat-1": "12", "seat-2": "13", "seat-3": "14", "first_dealer": "2"}


def options(variant: str) -> tuple[Option, ...]:
    return get_variant(variant).declaration.options


def unchanged(variant: str) -> dict[str, str]:
    """The page's inputs of `variant` as they open, posted back untouched (a checkbox left off is not posted)."""
    form = NewSessionForm(variant=variant)
    post = {"variant": variant, **SEATS}
    for name, field in form.fields.items():
        if not name.startswith("rule-") or isinstance(field, Amounts):
            continue
        if isinstance(field, forms.BooleanField):
            if field.initial:
                post[name] = "on"
        elif field.initial is not None:
            post[name] = str(field.initial)
    return post


def posted(data: dict[str, str]) -> QueryDict:
    query = QueryDict(mutable=True)
    query.update(data)
    return query


def field_of(variant: str, option: Option) -> forms.Field:
    return NewSessionForm(variant=variant).fields[rule_input_name(variant, option.name)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_declared_option_is_a_field_of_its_kind_with_its_words(variant: str) -> None:
    form = NewSessionForm(variant=variant)
    declared = options(variant)
    rules = [name for name in form.fields if name.startswith("rule-")]
    assert rules == [rule_input_name(variant, o.name) for o in declared]  # in the declaration's order
    kinds = {BOOLEAN: forms.BooleanField, CHOICE: forms.TypedChoiceField, INTEGER: WholeNumber, OBJECT: Amounts}
    for option in declared:
        field = form.fields[rule_input_name(variant, option.name)]
        assert type(field) is kinds[option.type], option.name
        assert (field.label, field.help_text) == (label(option.label), label(option.help))
        if option.type == CHOICE:
            assert isinstance(field, forms.TypedChoiceField)
            said = [choice_word(w) for w in option.choice_labels] or [str(c) for c in option.choices]
            assert list(cast(Any, field.choices)) == list(zip([str(c) for c in option.choices], said, strict=True))
        if option.type == INTEGER:
            assert field.required is not (option.nullable or option.default is None), option.name
        if option.type != OBJECT:
            assert field.initial == option.default
    assert not any(name.startswith(f"rule-{other}-") for other in VARIANTS if other != variant for name in form.fields)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_form_posted_as_it_opens_gives_every_rule_at_its_declared_default(variant: str) -> None:
    form = NewSessionForm(posted(unchanged(variant)))
    assert form.is_valid(), form.errors
    defaults = {o.name: o.default for o in options(variant) if o.default is not None}
    assert form.session() == {
        "variant": variant,
        "rules": defaults,
        "stake": None,
        "player_ids": [11, 12, 13, 14],
        "first_dealer": 2,
        "carry_pools_from": None,
    }
    get_variant(variant).parse_options(form.session()["rules"])  # what the engine accepts


@pytest.mark.parametrize("variant", VARIANTS)
def test_what_does_not_read_is_said_beside_its_rule(variant: str) -> None:
    data = unchanged(variant)
    expected: dict[str, str] = {}
    for option in options(variant):
        name = rule_input_name(variant, option.name)
        if option.type == INTEGER:
            data[name] = "4.5"
            expected[name] = "must be a whole number"
        elif option.type == CHOICE:
            data[name] = "none of them"
            expected[name] = "choose one of"
        elif option.type == OBJECT:  # one amount typed of several
            amounts = field_of(variant, option)
            assert isinstance(amounts, Amounts)
            data[rule_input_name(variant, amounts.rule.inputs[0].path)] = "3"
            expected[name] = "give every amount of this rule, or none of them"
    form = NewSessionForm(posted(data))
    assert not form.is_valid()
    assert set(form.errors) == set(expected)
    for name, words in expected.items():
        assert words in form.errors[name][0], (name, form.errors[name])


def test_a_structured_rule_reads_all_its_amounts_nested_as_declared() -> None:
    variant, option = next((v, o) for v in VARIANTS for o in options(v) if o.type == OBJECT)
    field = field_of(variant, option)
    assert isinstance(field, Amounts)
    data = unchanged(variant) | {rule_input_name(variant, i.path): str(n) for n, i in enumerate(field.rule.inputs)}
    form = NewSessionForm(posted(data))
    assert form.is_valid(), form.errors
    value = form.cleaned_data["rules"][option.name]
    assert set(value) == set(option.parts)
    wrong = data | {rule_input_name(variant, field.rule.inputs[-1].path): "x"}
    refused = NewSessionForm(posted(wrong)).errors[rule_input_name(variant, option.name)]
    assert refused == [f"{field.rule.inputs[-1].label} must be a whole number"]  # named as the input is labelled


def test_seats_dealer_stake_and_carried_pools_are_said_beside_their_fields_in_the_pages_order() -> None:
    variant = VARIANTS[0]
    data = unchanged(variant) | {
        "seat-1": "",
        "seat-3": "x",
        "first_dealer": "7",
        "stake_currency": "usd",
        "carry_pools_from": "last",
    }
    del data["seat-0"]
    form = NewSessionForm(posted(data))
    assert not form.is_valid()
    assert list(form.errors) == ["players", "first_dealer", "stake", "carry_pools_from"]
    assert form.errors["players"] == [f"choose the player in seat {n}" for n in (1, 2, 4)]
    assert form.errors["first_dealer"] == ["choose the first dealer"]
    assert form.errors["stake"] == ["give both the currency and the value of one counter, or neither"]
    assert form.errors["carry_pools_from"] == ["choose a session"]
    assert form.shown_stake == {"currency": "USD", "per_counter": ""}  # as typed, shown again
    assert [s["chosen"] for s in form.seats] == ["", "", "13", ""]
    assert form.dealer not in range(4)  # no seat shown chosen


def test_an_unknown_variant_has_no_rules_and_is_said() -> None:
    form = NewSessionForm(posted({**SEATS, "variant": "whist"}))
    assert not form.is_valid()
    assert list(form.errors) == ["variant"] and form.errors["variant"] == ["choose a variant"]
    assert not any(name.startswith("rule-") for name in form.fields)
    assert form.shown_variant == VARIANTS[0]


def test_the_stake_and_the_carried_pools_reach_the_service() -> None:
    variant = VARIANTS[0]
    data = unchanged(variant) | {"stake_currency": " eur ", "stake_per_counter": "0,05", "carry_pools_from": "9"}
    form = NewSessionForm(posted(data))
    assert form.is_valid(), form.errors
    assert form.session()["stake"] == {"currency": "EUR", "per_counter": "0.05"}
    assert form.session()["carry_pools_from"] == 9 == form.carried


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_refusal_is_put_beside_the_field_it_names(variant: str) -> None:
    form = NewSessionForm(posted(unchanged(variant)))
    assert form.is_valid()
    option = options(variant)[0].name
    form.refused(
        {
            f"rules.{option}": ["the engine's words"],
            "players": ["four different players, in seat order"],
            "rules.not_declared": ["a rule the variant does not have"],
            "__all__": ["the ledger's words"],
        }
    )
    assert form.errors[rule_input_name(variant, option)] == ["the engine's words"]
    assert form.errors["players"] == ["four different players, in seat order"]
    assert form.non_field_errors() == ["a rule the variant does not have", "the ledger's words"]


def test_an_unposted_form_opens_at_the_rules_it_is_given() -> None:
    """A preset's page opens at its rules: the form's fields start there, the others at their defaults."""
    variant = VARIANTS[0]
    first, *others = options(variant)
    given: Any = first.choices[-1] if first.type == CHOICE else first.default
    form = NewSessionForm(variant=variant, rules={first.name: given})
    assert form[rule_input_name(variant, first.name)].value() == given
    for option in others:
        if option.type != OBJECT:
            assert form[rule_input_name(variant, option.name)].value() == option.default
