"""The variant declarations, presented for the pages: labels, house rules as form inputs, the deal
order, and the rules page's tables and facts.

Nothing here computes a payment or knows a variant: every label, default, bound, bid and table is read
from the variant's `Declaration` (ledger.engine.variants.declaration), the object the engine validates
by, so what a club reads and fills in is what the engine accepts and pays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, pgettext

from ledger.engine.messages import ENGLISH
from ledger.engine.sheet import SUIT_SYMBOLS, SUITS
from ledger.engine.variants import get_variant, variant_names
from ledger.engine.variants.declaration import BOOLEAN, CHOICE, INTEGER, OPTIONAL, TABLE_FIELDS, Option
from ledger.engine.variants.declaration import Table as DeclaredTable

__all__ = ["SUIT_SYMBOLS"]


def bid_label(variant: str, bid: str) -> str:
    found = get_variant(variant).declaration.bid.get(bid) if variant in variant_names() else None
    return ENGLISH[found.label] if found else bid.replace("_", " ")


def field_label(variant: str, name: str) -> str:
    return get_variant(variant).declaration.field_label(name)


def pool_label(variant: str) -> str:
    return get_variant(variant).declaration.pool_label if variant in variant_names() else "Pool"


def variant_choices() -> list[tuple[str, str]]:
    return [(name, get_variant(name).title) for name in variant_names()]


# --- house rules -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleInput:
    """One input of a house rule: `path` is the option name, or `option.part[.suit]` inside a nested one."""

    path: str
    label: str
    kind: str  # "bool", "int", "choice", "text"
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    optional: bool = False  # empty means None (no value)


@dataclass(frozen=True)
class HouseRule:
    name: str
    default: Any
    inputs: tuple[RuleInput, ...]
    nested: bool = False  # a structured option, all its inputs given or none
    help: str = ""
    label: str = ""

    @property
    def default_text(self) -> str:
        return value_text(self.default)


def value_text(value: Any) -> str:
    if value is None:
        return pgettext("no value", "none")
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    return str(value)


_KINDS = {CHOICE: "choice", BOOLEAN: "bool", INTEGER: "int"}


def _house_rule(option: Option) -> HouseRule:
    label, help_text = ENGLISH[option.label], ENGLISH[option.help]
    if option.type in _KINDS:
        optional = option.nullable or option.default is None
        item = RuleInput(
            option.name, label, _KINDS[option.type], option.default, option.choices, option.minimum, optional
        )
        return HouseRule(option.name, option.default, (item,), help=help_text, label=label)
    inputs = []
    for part in option.parts:
        if option.per_suit:
            for suit in SUITS:
                path = f"{option.name}.{part}.{suit}"
                inputs.append(RuleInput(path, f"{part} {SUIT_SYMBOLS[suit]}", "int", None, minimum=option.minimum))
        else:
            inputs.append(RuleInput(f"{option.name}.{part}", part, "int", None, minimum=option.minimum))
    return HouseRule(option.name, option.default, tuple(inputs), nested=True, help=help_text, label=label)


def house_rules(name: str) -> list[HouseRule]:
    """The variant's options, in the declaration's order, with their defaults and allowed values."""
    return [_house_rule(option) for option in get_variant(name).declaration.options]


# --- the deal order ----------------------------------------------------------------------------------


def deal_table(name: str, rules: dict[str, Any], first_dealer: int, upto: int) -> list[dict[str, Any]]:
    """Deals 1..upto (or until the game ends): number, dealer, double, as the engine orders them.

    The scorer page looks the next deal up here while deals wait offline, instead of working out the
    deal order itself.
    """
    variant = get_variant(name)
    options = variant.parse_options(rules)
    out = []
    for number in range(1, upto + 1):
        if not variant.next_deal_allowed(number, options):
            break
        out.append(
            {"number": number, "dealer": variant.dealer(first_dealer, number), "double": variant.is_double(number)}
        )
    return out


def scorer_variant(name: str) -> dict[str, Any]:
    """What the scorer's form needs: the bids in rank order, each bid's field table, names."""
    variant = get_variant(name)
    declaration = variant.declaration
    return {
        "name": name,
        "title": variant.title,
        "bids": [{"code": bid.code, "label": ENGLISH[bid.label]} for bid in declaration.bids],
        "fields": variant.fields,
        "no_trump": variant.no_trump,
        "multi_pool": variant.multi_pool,
        "field_labels": {f: declaration.field_label(f) for f in TABLE_FIELDS},
        "pool_label": declaration.pool_label,
        "suits": [{"code": s, "symbol": SUIT_SYMBOLS[s]} for s in SUITS],
    }


# --- the rules page ------------------------------------------------------------------------------------


@dataclass
class Table:
    """A table of the rules page, from a declared one: `grid` gives each cell with its † note."""

    table: DeclaredTable

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)

    @property
    def grid(self) -> list[tuple[str, list[dict[str, Any]]]]:
        """The rows with each cell as {value, note} (the note of a corrected cell, else "")."""
        notes = self.table.notes
        return [
            (heading, [{"value": v, "note": notes.get((i, j), "")} for j, v in enumerate(cells)])
            for i, (heading, cells) in enumerate(self.table.rows)
        ]


@dataclass
class RulesPage:
    name: str
    title: str
    source: str
    facts: list[tuple[str, str]]
    tables: list[Table]
    bids: list[dict[str, Any]]
    rules: list[HouseRule]


def _bid_rows(name: str) -> list[dict[str, Any]]:
    declaration = get_variant(name).declaration
    return [
        {
            "code": bid.code,
            "label": ENGLISH[bid.label],
            "fields": [
                (declaration.field_label(f), "optional" if mode == OPTIONAL else "required")
                for f in TABLE_FIELDS
                if (mode := bid.fields.get(f))
            ],
        }
        for bid in declaration.bids
    ]


def rules_page(name: str) -> RulesPage:
    declaration = get_variant(name).declaration
    return RulesPage(
        name,
        declaration.title,
        declaration.source,
        list(declaration.facts),
        [Table(t) for t in declaration.tables],
        _bid_rows(name),
        house_rules(name),
    )
