"""The engine's variant data, presented for the pages: bid and field names, house rules with their
defaults, the deal order, and each variant's tables for the rules page.

Nothing here computes a payment. The tables are read from the variant modules' own constants, so what a
club reads on the rules page is what the engine pays; the house rules are read from each variant's
options dataclass and its `OPTION_CHECKS` (the defaults and the allowed values the engine enforces).
"""

from __future__ import annotations

import dataclasses
import sys
import typing
from dataclasses import dataclass, field
from typing import Any

from ledger.engine.sheet import SUITS
from ledger.engine.variants import get_variant, variant_names
from ledger.engine.variants.base import TABLE_FIELDS, Variant

SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠", "none": "NT"}

# Bid codes as a club says them; a code not listed reads as itself with spaces.
BID_LABELS = {
    "little_misere": "little misère",
    "grand_misere": "grand misère",
    "misere_four_aces": "misère of four aces",
    "misere": "misère",
    "little_spread": "little spread",
    "grand_spread": "grand spread",
    "spread_slam": "spread slam",
    "independence_six": "independence (6)",
    "independence_eight": "independence (8)",
    "last_trick": "last trick",
    "pass": "all pass",
}
RUSSIAN_BID_LABELS = {
    "simple": "simple (прикуп)",
    "solo": "solo (соло)",
    "nine": "nine (девять)",
    "misere": "misère (мизер)",
    "pass": "all pass (пас)",
}
FIELD_LABELS = {
    "bid": "Bid",
    "bidder": "Bidder",
    "trump": "Trump",
    "partner": "Partner",
    "turned": "Turned card",
    "tricks": "Tricks",
    "honours": "Honours",
    "conceded": "Conceded",
    "jack": "Bonus jack",
    "revoke": "Revoke",
    "last_trick": "Last trick",
}
VARIANT_FIELD_LABELS = {
    "french": {"jack": "♦J", "partner": "Partner"},
    "russian": {"jack": "Бостон (♦J / ♥J)", "partner": "Partner", "turned": "Turned card", "bidder": "Buyer"},
    "american": {"turned": "First-preference suit"},
}
# What each house rule means, in a line (rules.md, the options tables); the values and defaults are the engine's.
RULE_HELP = {
    "american": {
        "table": "decimal: one amount per bid, no over-tricks; classic: Foster's tables, over-tricks paid",
        "ante": "the dealer pays it into the pools at the start of every deal",
        "pool_limit": "the most one pool may hold; empty for no limit",
        "last_trick_hand": "allow a 13th deal played for all the pools",
    },
    "fontainebleau": {
        "ante": "the dealer pays it into the pool at the start of every deal",
        "honours": "count honours on made contracts with a trump suit",
        "grand_column": "the printed column a no-trump bid pays",
        "suit_order": "french swaps the ♥ and ♦ columns",
        "slam_table": "Table No. 1, or Table No. 2 with the lower slam rows",
    },
    "french": {
        "neuf": "counters per adversary for a neuf, per trump suit: base for nine tricks, extra per trick "
        "over or short; needed only if a neuf is played",
    },
    "russian": {
        "basket": "what each of the four puts in when the basket is formed",
        "third_suit_rate": "the rate of a solo or nine in a suit that is neither старшая nor младшая",
        "nine": "chips per opponent at the младшая rate: base for nine tricks, extra per trick; needed only "
        "if a nine is played",
        "misere": "chips per opponent for a misère; needed only if a misère is played",
    },
}
POOL_LABELS = {"american": "Pools", "fontainebleau": "Pool", "french": "Pool", "russian": "Basket"}


def bid_label(variant: str, bid: str) -> str:
    if variant == "russian" and bid in RUSSIAN_BID_LABELS:
        return RUSSIAN_BID_LABELS[bid]
    return BID_LABELS.get(bid, bid.replace("_", " "))


def field_label(variant: str, name: str) -> str:
    return VARIANT_FIELD_LABELS.get(variant, {}).get(name, FIELD_LABELS.get(name, name))


def variant_choices() -> list[tuple[str, str]]:
    return [(name, get_variant(name).title) for name in variant_names()]


def _module(variant: Variant) -> Any:
    return sys.modules[type(variant).__module__]


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

    @property
    def default_text(self) -> str:
        return value_text(self.default)


def value_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _closure(check: Any) -> dict[str, Any]:
    """The values a check built by `one_of`/`int_at_least` closed over (`allowed`, `low`), read-only."""
    code = getattr(check, "__code__", None)
    cells = getattr(check, "__closure__", None) or ()
    if code is None:
        return {}
    return {name: cell.cell_contents for name, cell in zip(code.co_freevars, cells, strict=False)}


def _scalar_input(path: str, label: str, hint: Any, default: Any, check: Any) -> RuleInput:
    closed = _closure(check)
    optional = type(None) in typing.get_args(hint)
    base = next((a for a in typing.get_args(hint) if a is not type(None)), hint)
    if "allowed" in closed:
        return RuleInput(path, label, "choice", default, tuple(closed["allowed"]), optional=optional)
    if base is bool:
        return RuleInput(path, label, "bool", default)
    if base is int:
        return RuleInput(path, label, "int", default, minimum=closed.get("low"), optional=optional)
    return RuleInput(path, label, "text", default, optional=optional)


def house_rules(name: str) -> list[HouseRule]:
    """The variant's options, in the dataclass's order, with their defaults and allowed values."""
    variant = get_variant(name)
    options_cls = type(variant.parse_options({}))
    checks = getattr(_module(variant), "OPTION_CHECKS", {})
    hints = typing.get_type_hints(options_cls, vars(_module(variant)))
    rules = []
    for f in dataclasses.fields(options_cls):
        hint = hints[f.name]
        check = checks.get(f.name, (None, None))[0]
        inner = next((a for a in typing.get_args(hint) if dataclasses.is_dataclass(a)), None)
        if inner is None:
            scalar = _scalar_input(f.name, f.name, hint, f.default, check)
            rules.append(HouseRule(f.name, f.default, (scalar,), help=RULE_HELP.get(name, {}).get(f.name, "")))
            continue
        inputs = []
        inner_hints = typing.get_type_hints(inner, vars(sys.modules[inner.__module__]))
        for part in dataclasses.fields(inner):
            part_hint = inner_hints[part.name]
            if typing.get_origin(part_hint) is dict:  # one amount per suit
                for suit in SUITS:
                    inputs.append(
                        RuleInput(
                            f"{f.name}.{part.name}.{suit}", f"{part.name} {SUIT_SYMBOLS[suit]}", "int", None, minimum=0
                        )
                    )
            else:
                inputs.append(RuleInput(f"{f.name}.{part.name}", part.name, "int", None, minimum=0))
        rules.append(
            HouseRule(f.name, f.default, tuple(inputs), nested=True, help=RULE_HELP.get(name, {}).get(f.name, ""))
        )
    return rules


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
    return {
        "name": name,
        "title": variant.title,
        "bids": [{"code": bid, "label": bid_label(name, bid)} for bid in variant.bids],
        "fields": {bid: dict(table) for bid, table in variant.fields.items()},
        "no_trump": variant.no_trump,
        "multi_pool": variant.multi_pool,
        "field_labels": {f: field_label(name, f) for f in TABLE_FIELDS},
        "pool_label": POOL_LABELS.get(name, "Pool"),
        "suits": [{"code": s, "symbol": SUIT_SYMBOLS[s]} for s in SUITS],
    }


# --- the rules page ------------------------------------------------------------------------------------


@dataclass
class Table:
    """A table of the rules page: `rows` are (heading, cells); a cell is an int, a str or None (blank)."""

    id: str
    title: str
    caption: str
    columns: list[str]
    rows: list[tuple[str, list[Any]]]
    notes: dict[tuple[int, int], str] = field(default_factory=dict)  # (row, column) -> a † note

    @property
    def grid(self) -> list[tuple[str, list[dict[str, Any]]]]:
        """The rows with each cell as {value, note} (the note of a corrected cell, else "")."""
        return [
            (heading, [{"value": v, "note": self.notes.get((i, j), "")} for j, v in enumerate(cells)])
            for i, (heading, cells) in enumerate(self.rows)
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
    variant = get_variant(name)
    rows = []
    for bid in variant.bids:
        table = variant.fields[bid]
        rows.append(
            {
                "code": bid,
                "label": bid_label(name, bid),
                "fields": [
                    (field_label(name, f), {"R": "required", "O": "optional"}[table[f]])
                    for f in TABLE_FIELDS
                    if f in table
                ],
            }
        )
    return rows


def _american() -> tuple[list[tuple[str, str]], list[Table]]:
    from ledger.engine.variants import american as a

    bids = list(a.TRICK_BIDS.items())
    most = max(n for _, n in bids)
    tables = [
        Table(
            "a-t2",
            "Made trick bids, decimal table (A-T2)",
            "Counters each adversary pays the bidder; the same whatever the over-tricks.",
            ["bid", "tricks", "each adversary pays"],
            [(bid_label("american", b), [n, a.DECIMAL_SUCCESS[n]]) for b, n in bids],
        ),
        Table(
            "a-t1",
            "Made trick bids, classic table (A-T1)",
            "Counters each adversary pays the bidder, by the tricks taken.",
            [str(t) for t in range(5, 14)],
            [(bid_label("american", b), [a.CLASSIC_SUCCESS[n].get(t) for t in range(5, 14)]) for b, n in bids],
        ),
        Table(
            "a-t4",
            "Failed trick bids, decimal table (A-T4)",
            "Counters the bidder pays each adversary, by the tricks short; he also doubles the pool.",
            [str(s) for s in range(1, most + 1)],
            [
                (
                    bid_label("american", b),
                    [a.DECIMAL_FAILURE[n][s - 1] if s <= n else None for s in range(1, most + 1)],
                )
                for b, n in bids
            ],
        ),
        Table(
            "a-t3",
            "Failed trick bids, classic table (A-T3)",
            "Counters the bidder pays each adversary, by the tricks short; he also doubles the pool.",
            [str(s) for s in range(1, most + 1)],
            [
                (
                    bid_label("american", b),
                    [a.CLASSIC_FAILURE[n][s - 1] if s <= n else None for s in range(1, most + 1)],
                )
                for b, n in bids
            ],
        ),
        Table(
            "a-t5",
            "Misères and spreads (A-T5), both tables",
            "Made (no trick taken, or conceded): each adversary pays the bidder. Failed: the bidder pays each.",
            ["counters"],
            [(bid_label("american", b), [v]) for b, v in a.MISERES.items()],
        ),
    ]
    facts = [
        ("Pool bids", ", ".join(bid_label("american", b) for b in a.BIDS if b in a.POOL_BIDS)),
        (
            "All pass (misère partout)",
            f"the players with the most tricks pay each other player {a.RED_COUNTER} per trick of difference",
        ),
        ("Deals", "12, and a 13th last-trick hand with the house rule last_trick_hand"),
    ]
    return facts, tables


def _fontainebleau() -> tuple[list[tuple[str, str]], list[Table]]:
    from ledger.engine.variants import fontainebleau as f

    columns = ["no trump", "♣ or ♠", "♥", "♦", "each extra trick"]

    def rows(table: dict[str, Any]) -> list[tuple[str, list[Any]]]:
        return [
            (bid_label("fontainebleau", bid), [r.no_trump, r.clubs_spades, r.hearts, r.diamonds, r.extra_trick])
            for bid, r in table.items()
        ]

    tables = [
        Table(
            "table-no-1",
            "Table No. 1",
            "White counters each adversary pays on a made contract.",
            columns,
            rows(f.TABLE_NO_1),
        ),
        Table(
            "table-no-2",
            "Table No. 2 (house rule slam_table = 2)",
            "The American reduction: every other row is Table No. 1's.",
            columns,
            [
                r
                for r in rows(f.TABLE_NO_2)
                if r[0] in (bid_label("fontainebleau", "slam"), bid_label("fontainebleau", "spread_slam"))
            ],
        ),
        Table(
            "honours",
            "Honours (house rule honours)",
            "Per paying adversary, on a made contract with a trump suit.",
            ["counters"],
            [(f"{held} honours", [bonus]) for held, bonus in f.HONOURS_BONUS.items() if held],
        ),
    ]
    facts = [
        ("Extra tricks and tricks short", f"{f.EXTRA_TRICK} counters each"),
        ("Partners", f"on {', '.join(f.PARTNER_BIDS)}: the pair must win the bid and {f.PARTNER_EXTRA} tricks more"),
        ("Deals", f"{f.GAME}; on the {f.GAME}th a failure pays the pool, which the adversaries divide"),
        ("No trump", "paid in the ♦ column (house rule grand_column)"),
    ]
    return facts, tables


def _french() -> tuple[list[tuple[str, str]], list[Table]]:
    from ledger.engine.variants import french as fr

    suits = sorted(fr.SUIT_FACTOR, key=fr.SUIT_FACTOR.get)
    columns = [f"{SUIT_SYMBOLS[s]} (×{fr.SUIT_FACTOR[s]})" for s in suits]
    rows: list[tuple[str, list[Any]]] = []
    for title, row in (
        ("Five tricks alone, or partners' eight", fr.FIVE_ALONE_OR_PARTNERS_EIGHT),
        ("Six tricks, or petite independence", fr.PETITE_INDEPENDENCE),
        ("Eight tricks, or grand independence", fr.GRAND_INDEPENDENCE),
    ):
        for part, value in (
            ("", row.base),
            (" — three honours", row.three_honours),
            (" — four honours", row.four_honours),
            (" — each extra trick", row.extra),
        ):
            rows.append((title + part, [value * fr.SUIT_FACTOR[s] for s in suits]))
    for title, value in (
        ("Petite misère", fr.PETITE_MISERE),
        ("Grand misère", fr.GRAND_MISERE),
        ("Misère of four aces", fr.MISERE_DES_QUATRE_AS),
        ("Misère sur table (both spreads)", fr.MISERE_SUR_TABLE),
        ("Slam alone (an independence taking 13)", fr.SLAM_SEUL),
    ):
        rows.append((title, [value * fr.SUIT_FACTOR[s] for s in suits]))
    tables = [
        Table(
            "table-of-payments",
            "The table of payments",
            "Counters each adversary pays in a simple deal, by the trump suit (misères: the turned suit).",
            columns,
            rows,
        ),
        Table(
            "flat-slams",
            "Flat slams",
            "A forced solo taking 8 or more, or partners taking 13, whatever the suit.",
            ["counters"],
            [("in petite", [fr.FLAT_SLAM_PETITE]), ("in belle", [fr.FLAT_SLAM_BELLE])],
        ),
    ]
    facts = [
        ("Ante", f"{fr.ANTE} from the dealer; {fr.DOUBLES_ANTE} in the doubles"),
        ("Doubles", f"deals {fr.FIRST_DOUBLE}-{fr.LAST_DOUBLE}: every table amount twice"),
        ("♦J", f"{fr.JACK_BONUS} from each other player (twice in the doubles)"),
        ("Partners' eight", f"the demander must take {fr.DEMANDER_QUOTA}, the acceptor {fr.ACCEPTOR_QUOTA}"),
        ("Deal order", "the deal passes to the right"),
    ]
    return facts, tables


RUSSIAN_TARIFF_TITLES = {
    "R-T1": (
        "прикуп купленный и выигранный",
        "Supported simple, made: from each paired opponent, by the pair's tricks.",
    ),
    "R-T2": ("прикуп купленный и проигранный", "Supported simple, failed: to each opponent, by the pair's tricks."),
    "R-T3": ("выигранная самостоятельная игра", "Solo, made: from each opponent, by the tricks taken."),
    "R-T4": ("проигранная самостоятельная игра", "Solo, failed: to each opponent, by the tricks taken."),
    "R-T5": ("прикуп не купленный и выигранный", "Unsupported simple, made: from each opponent, by the tricks taken."),
    "R-T6": ("прикуп не купленный и проигранный", "Unsupported simple, failed: to each opponent, by the tricks taken."),
}


def _russian() -> tuple[list[tuple[str, str]], list[Table]]:
    from ledger.engine.variants import russian as r

    tables = []
    for code, table in r.TARIFF.items():
        tricks = sorted({t for row in table.values() for t in row})
        row_names = [r.MLADSHAYA, r.STARSHAYA]
        notes = {
            (i, tricks.index(t)): why
            for (tc, row, t), why in r.CORRECTED.items()
            if tc == code
            for i, name in enumerate(row_names)
            if name == row
        }
        russian, caption = RUSSIAN_TARIFF_TITLES[code]
        tables.append(
            Table(
                code.lower(),
                f"{code} {russian}",
                caption,
                [str(t) for t in tricks],
                [
                    (
                        {"mladshaya": "младшая (petite)", "starshaya": "старшая (belle)"}[name],
                        [table[name].get(t) for t in tricks],
                    )
                    for name in row_names
                ],
                notes,
            )
        )
    facts = [
        ("Basket", f"formed by each of the four when empty ({r.Options().basket} each by default, house rule basket)"),
        ("Бостон", f"{r.BOSTON_BONUS} from each other player"),
        ("Supported failure, both short", f"{r.KONSOLYATSIYA} + {r.SHORT_TRICK} per trick short of each one's quota"),
        ("Double tours", f"deals {r.DOUBLE_TOURS.start}-{r.DOUBLE_TOURS.stop - 1}: every amount twice"),
        ("Deal order", "the deal passes to the right"),
    ]
    return facts, tables


_BUILDERS = {"american": _american, "fontainebleau": _fontainebleau, "french": _french, "russian": _russian}


def rules_page(name: str) -> RulesPage:
    variant = get_variant(name)
    module = _module(variant)
    facts, tables = _BUILDERS[name]()
    source = (module.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
    return RulesPage(name, variant.title, source, facts, tables, _bid_rows(name), house_rules(name))
