"""A variant's rules as data: options, bids with their field table, deals and printed tables.

Each variant module builds one `Declaration`; the engine parses and validates by it, and the API
(`GET /api/v1/variants/`), the pages, the scorer form and the statistics read the same object, so
they cannot disagree. Labels and help are message ids (`ledger.engine.messages`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, make_dataclass, replace
from typing import Any, Literal

from ..cards import SUITS, is_int
from ..errors import INVALID_OPTION, EngineError
from ..messages import ENGLISH, Message, Words, text, words_or

REQUIRED, OPTIONAL, FORBIDDEN = "required", "optional", "forbidden"
R, O = REQUIRED, OPTIONAL  # a field a bid does not list is forbidden

# The fields of a hand that a bid's table rules on; `adjustments` and `number` are allowed everywhere.
TABLE_FIELDS = (
    "bidder",
    "trump",
    "partner",
    "turned",
    "tricks",
    "honours",
    "conceded",
    "jack",
    "revoke",
    "last_trick",
    "ace_turned",  # Russian «с ремизом»: the dealer turned an ace (rules.md §0.11)
)

# How "made" is judged (stats and engine alike).
TRICKS = "tricks"  # the bidder (or the pair) takes at least `tricks` (`pair_tricks`)
EXACT = "exact"  # the bidder takes exactly `tricks`: misères, spreads, piccolissimo
ALL_PASS = "pass"  # nobody bid
LAST_TRICK = "last_trick"  # the American 13th deal
MISDEAL = "misdeal"  # a misdeal that passes the deal: a hand of the sheet, not a deal of the game (§0.11)

# Which trumps a bid allows.
ANY_SUIT = "suit"
SUIT_OR_NONE = "suit_or_none"
BELLE_OR_PETITE = "belle_or_petite"  # the suit turned on deal 1, or this deal's turned suit

CHOICE, INTEGER, BOOLEAN, OBJECT = "choice", "integer", "boolean", "object"
# Who takes a seat's share of the division when the seat changed hands (docs/decisions.md, "A substitute
# mid-game"): whoever held it when the standing pools were formed, or whoever holds it at the close.
PoolShare = Literal["formed", "seated"]
_SUIT_SET = frozenset(SUITS)


@dataclass(frozen=True)
class Option:
    """One house rule of `rules.md` §n.1.

    `parts` (OBJECT only): the keys of the object, each a whole number >= `minimum`, or, with
    `per_suit`, an object of the four suits. `build` turns the checked object into the engine's value.
    `choice_labels` (CHOICE only): each choice in words, in the order of `choices` (English, translated
    with the variant's name as context); none: the choices are shown as they are written (1, 2).
    """

    name: str
    type: str
    default: Any
    label: str
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    nullable: bool = False
    parts: tuple[str, ...] = ()
    per_suit: bool = False
    build: Callable[..., Any] | None = None
    choice_labels: tuple[str, ...] = ()
    maximum: int | None = None  # INTEGER: the most it may be (none: no bound)

    def __post_init__(self) -> None:
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"option {self.name}: one label per choice")

    def parse(self, value: Any) -> Any:
        """The value the engine uses, or an `invalid_option` naming `rules.<name>`.

        The words of a refusal are built only for a refusal: a sheet's options are parsed once per
        settlement, and most are right.
        """
        if value is None and (self.nullable or self.default is None):
            return None
        if self.type == CHOICE:
            for choice in self.choices:
                if value == choice and type(value) is type(choice):
                    return value
            raise self._error("option.choice", choices=words_or([str(c) for c in self.choices]))
        if self.type == BOOLEAN:
            if type(value) is not bool:
                raise self._error("option.boolean")
            return value
        if self.type == INTEGER:
            if not is_int(value) or value < (self.minimum or 0):
                key = "option.integer_or_none" if self.nullable else "option.integer"
                if self.maximum is not None:
                    key = "option.integer_range"
                raise self._error(key, minimum=self.minimum or 0, maximum=self.maximum)
            if self.maximum is not None and value > self.maximum:
                raise self._error("option.integer_range", minimum=self.minimum or 0, maximum=self.maximum)
            return value
        return self._parse_object(value)

    def _parse_object(self, value: Any) -> Any:
        if not isinstance(value, dict) or value.keys() != set(self.parts):
            raise self._error("option.object", parts=self._shape())
        minimum = self.minimum or 0
        out: dict[str, Any] = {}
        for part in self.parts:
            item = value[part]
            if not self.per_suit:
                if type(item) is not int or item < minimum:  # a whole number, not a boolean
                    raise self._part_error(part)
                out[part] = item
                continue
            if not isinstance(item, dict) or item.keys() != _SUIT_SET:
                raise self._error("option.object", parts=self._shape())
            amounts = {}
            for suit in SUITS:
                amount = item[suit]
                if type(amount) is not int or amount < minimum:
                    raise self._part_error(f"{part} {suit}")
                amounts[suit] = amount
            out[part] = amounts
        return self.build(**out) if self.build else out

    def _shape(self) -> str:
        shape = words_or(list(self.parts))
        if self.per_suit:
            shape = text("option.per_suit", parts=shape, suits=words_or(list(SUITS)))
        return shape

    def named(self) -> Message:
        """The rule inside a sentence, as a player reads it: its label, quoted ("the house rule “Neuf amounts”")."""
        return text("option.named", label=text(self.label))

    def _part_error(self, part: str) -> EngineError:
        return self._error("option.part", part=part, minimum=self.minimum or 0)

    def _error(self, message_id: str, **params: Any) -> EngineError:
        message = text(message_id, label=text(self.label), **params)
        return EngineError(INVALID_OPTION, {f"rules.{self.name}": [message]})

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "label": ENGLISH[self.label],
            "help": ENGLISH[self.help],
        }
        if self.type == CHOICE:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.nullable or self.default is None:
            out["nullable"] = True
        if self.type == OBJECT:
            part = {"type": "object", "keys": list(SUITS), "minimum": self.minimum} if self.per_suit else None
            out["shape"] = {p: part or {"type": "integer", "minimum": self.minimum} for p in self.parts}
        return out


@dataclass(frozen=True)
class Bid:
    """One bid code of `rules.md` §n.2: its field table and how the engine and the statistics judge it.

    fields: hand field -> R or O; any other field of `TABLE_FIELDS` is forbidden.
    tricks: what the bidder alone must take (at least for TRICKS, exactly for EXACT).
    pair_tricks: what bidder and partner must take together, when a partner is given.
    needs_option: the house rule without which the bid cannot be played (`option_required`).
    field_options: an optional field that counts only while a boolean house rule is on.
    played_as: the bid inside a sentence, when it is not its label ("a little misère" is played
    without trumps); English, translated with the variant's name as context.
    """

    code: str
    label: str
    kind: str
    fields: Mapping[str, str]
    tricks: int | None = None
    pair_tricks: int | None = None
    trumps: str | None = None
    discard: bool = False
    needs_option: str | None = None
    field_options: Mapping[str, str] = field(default_factory=dict)
    played_as: str | None = None

    def mode(self, name: str, options: Any = None) -> str:
        mode = self.fields.get(name, FORBIDDEN)
        if not self.field_options:
            return mode
        needs = self.field_options.get(name)
        if needs is not None and (options is None or not getattr(options, needs)):
            return FORBIDDEN
        return mode

    def made(self, taken: int, pair: bool) -> bool:
        """Whether `taken` tricks (the pair's, when `pair`) make this contract."""
        if self.kind == EXACT:
            return taken == self.tricks
        need = self.pair_tricks if pair else self.tricks
        assert need is not None
        return taken >= need

    def as_json(self, options: Any = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "label": ENGLISH[self.label],
            "kind": self.kind,
            "fields": {name: self.mode(name, options) for name in TABLE_FIELDS},
        }
        if self.trumps is not None:
            out["trumps"] = list(SUITS) + (["none"] if self.trumps == SUIT_OR_NONE else [])
            if self.trumps == BELLE_OR_PETITE:
                out["trumps_rule"] = BELLE_OR_PETITE
        if self.tricks is not None:
            out["tricks"] = self.tricks
        if self.pair_tricks is not None:
            out["pair_tricks"] = self.pair_tricks
        if self.discard:
            out["discard"] = True
        if self.needs_option:
            out["needs_option"] = self.needs_option
        if self.field_options:
            out["field_options"] = dict(self.field_options)
        return out


@dataclass(frozen=True)
class Deals:
    """The game's deals (`rules.md` §0.2, §0.3).

    limit: the last deal (None: no limit). extra_option / extra_bid: a house rule that allows one deal
    more, which must be that bid (and only it). doubles: the first and last double deal. step: 1 when
    the deal passes to the left, 3 to the right. ante: the message saying who antes what.
    """

    limit: int | None
    step: int
    ante: str
    doubles: tuple[int, int] | None = None
    extra_option: str | None = None
    extra_bid: str | None = None

    def last(self, options: Any) -> int | None:
        if self.limit is None:
            return None
        return self.limit + (1 if self.extra_option and getattr(options, self.extra_option) else 0)

    @property
    def double_deals(self) -> range:
        """The numbers of the double deals (none: an empty range)."""
        if self.doubles is None:
            return range(0)
        first, last = self.doubles
        return range(first, last + 1)

    def is_double(self, number: int) -> bool:
        return number in self.double_deals

    def as_json(self) -> dict[str, Any]:
        return {
            "limit": self.limit,
            "extra_deal": {"option": self.extra_option, "bid": self.extra_bid} if self.extra_option else None,
            "doubles": list(self.doubles) if self.doubles else None,
            "direction": "left" if self.step == 1 else "right",
            "ante": ENGLISH[self.ante],
        }


@dataclass(frozen=True)
class Table:
    """A printed payment table: rows of (heading, cells), a cell a number or None (blank).

    notes: (row, column) -> why a cell reads differently from the source's print.
    """

    id: str
    title: str
    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Any, ...]], ...]
    notes: Mapping[tuple[int, int], str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "caption": self.caption,
            "columns": list(self.columns),
            "rows": [{"heading": heading, "cells": list(cells)} for heading, cells in self.rows],
            "notes": [{"row": r, "column": c, "note": note} for (r, c), note in self.notes.items()],
        }


@dataclass(frozen=True)
class Declaration:
    """One variant, as data. `facts`: (label, text) lines of the rules page.

    all_pass: how a misère partout's losers are told, for the statistics ("paid": who paid it;
    "no_share": who took no share of the pool; None: an all-pass deal is not a misère partout).
    short_title: the title in a narrow column ("American"). playable_rules: house rules under which
    every bid may be played (the samples, the property tests and the benchmarks use them).
    sample_deals: how many deals a sample evening has (0: the game's limit). aliases: other names a
    sheet or the API may give it (its French and Russian names), resolved by `find_variant`.
    pool_share: who takes a seat's share of the pools divided at the close when the seat changed hands
    (`engine/stints.share_owners`): "formed", whoever held it when the standing pools were formed;
    "seated", whoever holds it at the close.

    A variant that builds on another declares `PARENT.derive(name=..., ...)`: what differs, the rest
    inherited (`derive`).
    """

    name: str
    title: str
    source: str
    options: tuple[Option, ...]
    bids: tuple[Bid, ...]
    deals: Deals
    tables: tuple[Table, ...]
    facts: tuple[tuple[str, str], ...] = ()
    pools: int = 1  # 1: one pool; 0: a list of pools
    pool_label: str = "Pool"
    field_labels: Mapping[str, str] = field(default_factory=dict)
    all_pass: str | None = None
    belle_words: tuple[str, str] = ("belle", "petite")  # the names of deal 1's suit and a later deal's
    short_title: str = ""
    playable_rules: Mapping[str, Any] = field(default_factory=dict)
    sample_deals: int = 0
    aliases: tuple[str, ...] = ()
    pool_share: PoolShare = "seated"

    def __post_init__(self) -> None:
        fields = [(o.name, Any, field(default=o.default)) for o in self.options]
        cls = make_dataclass(f"{self.name.title()}Options", fields, frozen=True, slots=True)
        object.__setattr__(self, "options_class", cls)
        object.__setattr__(self, "default_options", cls())
        object.__setattr__(self, "option", {o.name: o for o in self.options})
        object.__setattr__(self, "bid", {b.code: b for b in self.bids})

    options_class: Any = field(init=False, repr=False, compare=False)
    default_options: Any = field(init=False, repr=False, compare=False)
    option: Mapping[str, Option] = field(init=False, repr=False, compare=False)
    bid: Mapping[str, Bid] = field(init=False, repr=False, compare=False)

    def derive(self, **changes: Any) -> Declaration:
        """This declaration with `changes`, the rest inherited ("American, but"; docs/variants.md).

        A field takes its new value. `options` and `bids` take a tuple (all of them anew) or a mapping
        from a name (a bid's code) to: a dict of that one's field changes; an `Option` / `Bid` that
        replaces it, or comes last when the name is new; None, which drops it. A derived variant has a
        name of its own and none of its parent's `aliases` unless it says so.
        """
        if "name" not in changes:
            raise ValueError("a derived declaration has a name of its own")
        changes.setdefault("aliases", ())
        for key, name_of in (("options", "name"), ("bids", "code")):
            edits = changes.get(key)
            if isinstance(edits, Mapping):
                changes[key] = _edited(getattr(self, key), edits, name_of)
        return replace(self, **changes)

    @property
    def misere_partout(self) -> bool:
        """Whether an all-pass deal is played as a misère partout (the statistics count its losers)."""
        return self.all_pass is not None

    @property
    def evening(self) -> int:
        """The deals of a sample evening: `sample_deals`, else the game's limit."""
        deals = self.sample_deals or self.deals.limit
        if not deals:
            raise ValueError(f"{self.name}: a game with no limit declares its sample_deals")
        return deals

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(b.code for b in self.bids)

    def parse_options(self, raw: Mapping[str, Any]) -> Any:
        """The options of a sheet's `rules`; the defaults are one shared instance (it is frozen)."""
        if not raw:
            return self.default_options
        known = self.option
        for name in raw:
            if name not in known:
                rules = Words(option.named() for option in self.options)
                raise EngineError(INVALID_OPTION, {f"rules.{name}": [text("option.unknown", name=name, known=rules)]})
        return self.options_class(**{o.name: o.parse(raw[o.name]) for o in self.options if o.name in raw})

    def field_label(self, name: str) -> str:
        return self.field_labels.get(name) or ENGLISH[f"field.{name}"]

    @property
    def pays_instead(self) -> frozenset[str]:
        """The bids whose bidder may pay instead of playing (`conceded: "bidder"`, rules.md §0.11): the
        trick contracts of a variant that declares the option `pay_instead_short`."""
        if "pay_instead_short" not in self.option:
            return frozenset()
        return frozenset(b.code for b in self.bids if b.kind == TRICKS)

    def as_json(self) -> dict[str, Any]:
        """The shape of `GET /api/v1/variants/{name}/` (`api.md`, "Additions")."""
        bids = [b.as_json(self.options_class()) for b in self.bids]
        for bid in bids:
            if bid["code"] in self.pays_instead:
                bid["conceded"] = [False, True, "bidder"]  # "bidder": he pays instead of playing
        return {
            "name": self.name,
            "title": self.title,
            "source": self.source,
            "options": [o.as_json() for o in self.options],
            "bids": bids,
            "deals": self.deals.as_json(),
            "tables": [t.as_json() for t in self.tables],
            "pools": "one" if self.pools == 1 else "many",
            "pool_label": self.pool_label,
            "field_labels": {name: self.field_label(name) for name in TABLE_FIELDS},
        }


def _edited(items: tuple[Any, ...], edits: Mapping[str, Any], name_of: str) -> tuple[Any, ...]:
    """`items` (options or bids) with `edits` by name, in their order, new ones at the end (`derive`)."""
    names = [getattr(item, name_of) for item in items]
    out = []
    for item, name in zip(items, names, strict=True):
        edit = edits.get(name, {})
        if edit is None:
            continue
        out.append(replace(item, **edit) if isinstance(edit, Mapping) else edit)
    for name, edit in edits.items():
        if name not in names:
            if isinstance(edit, Mapping) or edit is None:
                raise ValueError(f"{name}: nothing to change or drop, it is not declared; give it whole")
            out.append(edit)
    return tuple(out)
