"""The variant declarations, presented for the pages: labels, house rules as form inputs, the deal
order, and the rules page's tables and facts.

Nothing here computes a payment or knows a variant: every label, default, bound, bid and table is read
from the variant's `Declaration` (ledger.engine.variants.declaration), the object the engine validates
by, so what a club reads and fills in is what the engine accepts and pays. Each word is said in the
request's language by the engine's renderer (`ledger.i18n`: `label` for an id, `prose` for a
declaration's own English), the page's own words by the root catalog.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, pgettext, pgettext_lazy

from ledger.engine.cards import SUIT_SYMBOLS, SUITS
from ledger.engine.variants import get_variant, variant_names
from ledger.engine.variants.declaration import ALL_PASS, BOOLEAN, CHOICE, INTEGER, OPTIONAL, TABLE_FIELDS, Option
from ledger.engine.variants.declaration import Table as DeclaredTable
from ledger.i18n import choice_word, label, prose
from ledger.i18n import field_label as declared_field_label

__all__ = ["SUIT_SYMBOLS"]


def bid_label(variant: str, bid: str) -> str:
    found = get_variant(variant).declaration.bid.get(bid) if variant in variant_names() else None
    return label(found.label) if found else bid.replace("_", " ")


def field_label(variant: str, name: str) -> str:
    return declared_field_label(get_variant(variant).declaration, name)


def pool_label(variant: str) -> str:
    if variant not in variant_names():
        return pgettext("the pot of counters", "Pool")
    declaration = get_variant(variant).declaration
    return prose(declaration.pool_label)


def one_pool(variant: str) -> bool:
    """Whether the game has a single pool (basket): its words say "the pool", not "the pools"."""
    return variant not in variant_names() or get_variant(variant).declaration.pools == 1


def variant_title(name: str) -> str:
    """The variant's title (American Boston …) in the request's language; an unknown code as it is."""
    if name not in variant_names():
        return name
    declaration = get_variant(name).declaration
    return prose(declaration.title)


def variant_short_title(name: str) -> str:
    """The variant's short title (American …) for a narrow column; an unknown code as it is."""
    if name not in variant_names():
        return name.capitalize()
    declaration = get_variant(name).declaration
    return prose(declaration.short_title or declaration.title)


def variant_choices() -> list[tuple[str, str]]:
    return [(name, variant_title(name)) for name in variant_names()]


# The parts of a structured option (French `neuf`, Russian `nine`).
PART_WORDS = {
    "base": pgettext_lazy("option part", "base"),
    "extra": pgettext_lazy("option part", "extra"),
    "made": pgettext_lazy("option part", "made"),  # Russian souverains (rules.md §0.11)
    "failed": pgettext_lazy("option part", "failed"),
}


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
    words: tuple[str, ...] = ()  # each choice in words (the declaration's `choice_labels`), or none

    def word(self, value: Any) -> str:
        """A value of this input in words: a choice's label, yes or no, none, or the number."""
        return value_text(value, dict(zip(self.choices, self.words, strict=False)))


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
        return self.inputs[0].word(self.default) if not self.nested else value_text(self.default)


def value_text(value: Any, words: dict[Any, str] | None = None) -> str:
    """A house rule's value in words; `words`: the rule's choices in words, by value."""
    if value is None:
        return pgettext("no value", "none")
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if words and isinstance(value, str) and value in words:
        return words[value]
    return str(value)


_KINDS = {CHOICE: "choice", BOOLEAN: "bool", INTEGER: "int"}


def _house_rule(option: Option) -> HouseRule:
    words, help_text = label(option.label), label(option.help)
    if option.type in _KINDS:
        optional = option.nullable or option.default is None
        choice_words = tuple(choice_word(word) for word in option.choice_labels)
        item = RuleInput(
            option.name,
            words,
            _KINDS[option.type],
            option.default,
            option.choices,
            option.minimum,
            optional,
            choice_words,
        )
        return HouseRule(option.name, option.default, (item,), help=help_text, label=words)
    inputs = []
    for part in option.parts:
        if option.per_suit:
            for suit in SUITS:
                path = f"{option.name}.{part}.{suit}"
                part_label = f"{PART_WORDS.get(part, part)} {SUIT_SYMBOLS[suit]}"
                inputs.append(RuleInput(path, part_label, "int", None, minimum=option.minimum))
        else:
            part_label = str(PART_WORDS.get(part, part))
            inputs.append(RuleInput(f"{option.name}.{part}", part_label, "int", None, minimum=option.minimum))
    return HouseRule(option.name, option.default, tuple(inputs), nested=True, help=help_text, label=words)


def house_rules(name: str) -> list[HouseRule]:
    """The variant's options, in the declaration's order, with their defaults and allowed values."""
    return [_house_rule(option) for option in get_variant(name).declaration.options]


@dataclass(frozen=True)
class Condition:
    """One house rule of a table as the players read it (issue 42): its label, its value in words,
    whether that is the declared default, and what it means."""

    name: str
    label: str
    value: str
    default: bool
    help: str


def _part(value: Any, path: str) -> Any:
    """The amount at `option.part[.suit]` inside a structured option's value."""
    node = value
    for key in path.split(".")[1:]:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def conditions(name: str, rules: dict[str, Any]) -> list[Condition]:
    """Every option of the variant with the value these rules give it (the declared default where they
    give none), in words, in the declaration's order: the §0.11 conditions are options like the others."""
    out = []
    for rule in house_rules(name):
        value = rules.get(rule.name, rule.default)
        if not rule.nested:
            words = rule.inputs[0].word(value)
        elif value is None:
            words = value_text(None)
        else:
            words = ", ".join(f"{item.label} {value_text(_part(value, item.path))}" for item in rule.inputs)
        out.append(Condition(rule.name, rule.label, words, value == rule.default, rule.help))
    return out


def option_codes(name: str) -> tuple[set[str], set[str]]:
    """What a variant's rules texts quote as typed in a sheet: (codes that are never words: option
    names with an underscore, choice values, parts; one-word option names, which may also be words)."""
    anywhere: set[str] = set()
    one_word: set[str] = set()
    if name not in variant_names():
        return anywhere, one_word
    for option in get_variant(name).declaration.options:
        (anywhere if "_" in option.name else one_word).add(option.name)
        anywhere.update(c for c in option.choices if isinstance(c, str))
        anywhere.update(option.parts)
    return anywhere, one_word


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
    """What the scorer's form needs: the bids in rank order (`all_pass` marks the deal nobody bid, set
    apart on the form; `pays_instead`, a bid whose bidder may pay instead of playing, the declaration's
    `conceded: "bidder"`, rules.md §0.11), each bid's field table, names."""
    variant = get_variant(name)
    declaration = variant.declaration
    return {
        "name": name,
        "title": variant_title(name),
        "bids": [
            {
                "code": bid.code,
                "label": label(bid.label),
                "all_pass": bid.kind == ALL_PASS,
                "pays_instead": bid.code in declaration.pays_instead,
            }
            for bid in declaration.bids
        ],
        "fields": variant.fields,
        "no_trump": variant.no_trump,
        "multi_pool": variant.multi_pool,
        "field_labels": {f: declared_field_label(declaration, f) for f in TABLE_FIELDS},
        "pool_label": pool_label(name),
        "suits": [{"code": s, "symbol": SUIT_SYMBOLS[s]} for s in SUITS],
    }


# --- the rules page ------------------------------------------------------------------------------------


@dataclass
class Table:
    """A table of the rules page, from a declared one, its words in the request's language: `grid`
    gives each cell with its † note."""

    table: DeclaredTable
    variant: str

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)

    @property
    def title(self) -> str:
        return prose(self.table.title)

    @property
    def caption(self) -> str:
        return prose(self.table.caption) if self.table.caption else ""

    @property
    def columns(self) -> list[str]:
        return [prose(c) for c in self.table.columns]

    @property
    def notes(self) -> dict[tuple[int, int], str]:
        return {cell: prose(note) for cell, note in self.table.notes.items()}

    @property
    def grid(self) -> list[tuple[str, list[dict[str, Any]]]]:
        """The rows with each cell as {value, note} (the note of a corrected cell, else "")."""
        notes = self.notes
        return [
            (prose(heading), [{"value": v, "note": notes.get((i, j), "")} for j, v in enumerate(cells)])
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
            "label": label(bid.label),
            "fields": [
                (declared_field_label(declaration, f), "optional" if mode == OPTIONAL else "required")
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
        variant_title(name),
        prose(declaration.source),
        [(prose(k), prose(v)) for k, v in declaration.facts],
        [Table(t, declaration.name) for t in declaration.tables],
        _bid_rows(name),
        house_rules(name),
    )
