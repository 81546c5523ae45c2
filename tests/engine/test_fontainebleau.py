"""Boston de Fontainebleau (`rules.md` §2): tables, payments, partners, the pool, deal 12, validation.

The tables and the pairing rule are read from the spec's `rules.md` (`tests.conftest.RULES_MD`), not from the
variant module, so a transcription error in the module cannot hide behind the same error in a test.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.engine import EngineError, settle
from ledger.engine.variants import get_variant
from ledger.engine.variants.fontainebleau import TABLE_NO_1, TABLE_NO_2, TABLES
from tests.conftest import EXAMPLES, example_names, load_json
from tests.engine.helpers import sheet
from tests.engine.spec_tables import int_cell, table_after

SUITS = ("clubs", "diamonds", "hearts", "spades")
TRICK_BIDS = {
    "boston": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "slam": 13,
    "spread_slam": 13,
}
PARTNER_BIDS = ("boston", "six", "seven", "eight", "nine", "ten")
MISERE_BIDS = {"little_misere": 0, "piccolissimo": 1, "grand_misere": 0, "little_spread": 0, "grand_spread": 0}
DISCARD_BIDS = ("little_misere", "little_spread", "piccolissimo")
REASONS = ("ante", "contract", "overtricks", "honours", "pool", "division", "jack", "penalty", "adjustment")


# --- helpers ---------------------------------------------------------------------------------------


def make_sheet(hands: list[dict[str, Any]], rules: dict[str, Any] | None = None, **top: Any) -> dict[str, Any]:
    return sheet("fontainebleau", hands, rules=rules or {}, **{"pools": [], **top})


def settle_at(
    hand: dict[str, Any], *, number: int = 1, dealer: int = 0, pool_before: int = 0, rules: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Settle `hand` as deal `number`, dealt by `dealer`, with `pool_before` in the pool before its ante.

    Earlier deals are padded with misère partout hands that seat 3 wins alone (so the pool ends each at
    0); the last pad puts `pool_before` into the pool by an adjustment. Returns the settled hand.
    """
    pads: list[dict[str, Any]] = [{"bid": "pass", "tricks": [4, 4, 4, 1]} for _ in range(number - 1)]
    carried = [pool_before]
    if pads and pool_before:
        pads[-1]["adjustments"] = [{"from": 0, "to": "pool", "counters": pool_before, "note": "pool before"}]
        carried = []
    result = settle(make_sheet([*pads, hand], rules, first_dealer=(dealer - (number - 1)) % 4, pools=carried))
    settled = result["hands"][-1]
    assert settled["number"] == number
    assert settled["dealer"] == dealer
    if pads:
        assert result["hands"][-2]["pools"] == [pool_before]
    return settled


def moves(settled: dict[str, Any]) -> list[tuple[Any, Any, int, str]]:
    return [(t["from"], t["to"], t["counters"], t["reason"]) for t in settled["transfers"]]


def refusal(hands: list[dict[str, Any]], rules: dict[str, Any] | None = None, **top: Any) -> EngineError:
    with pytest.raises(EngineError) as caught:
        settle(make_sheet(hands, rules, **top))
    return caught.value


def tricks_with(bidder: int, taken: int, total: int = 13, partner: int | None = None, partner_taken: int = 0) -> list:
    """Four seats' tricks: the bidder (and partner) take what is given, the rest go to the first other seats."""
    tricks = [0, 0, 0, 0]
    tricks[bidder] = taken
    if partner is not None:
        tricks[partner] = partner_taken
    rest = total - sum(tricks)
    for seat in range(4):
        if seat not in (bidder, partner):
            tricks[seat] = min(rest, 13)
            rest -= tricks[seat]
    assert rest == 0 and sum(tricks) == total
    return tricks


def markdown_table(marker: str) -> list[dict[str, str]]:
    """The first markdown table of rules.md after `marker`, as dicts keyed by its header."""
    header, *body = table_after(marker)
    return [dict(zip(header, row, strict=True)) for row in body]


# --- Tables No. 1 and No. 2, cell by cell against rules.md §2.3 ------------------------------------

COLUMNS = {
    "No trump": "no_trump",
    "♣ or ♠": "clubs_spades",
    "♥": "hearts",
    "♦": "diamonds",
    "Each extra trick": "extra_trick",
}


def printed_rows() -> list[tuple[tuple[int, ...], str, dict[str, int | None]]]:
    """(tables the row belongs to, row code, {column: amount or None}) for every row of §2.3."""
    out = []
    for row in markdown_table("### 2.3 Tables No. 1 and No. 2"):
        label = row["Row"]
        tables: tuple[int, ...] = (1, 2)
        found = re.fullmatch(r"(.*), Table No\. (\d)", label)
        if found:
            label, tables = found.group(1), (int(found.group(2)),)
        code = re.sub(r"\s*\(\d+\)", "", label).lower().replace("è", "e").replace(" ", "_")
        cells = {field: int_cell(row[column]) for column, field in COLUMNS.items()}
        out.append((tables, code, cells))
    return out


PRINTED = printed_rows()
PRINTED_CELLS = [
    pytest.param(table, code, field, amount, id=f"T{table}-{code}-{field}")
    for tables, code, cells in PRINTED
    for table in tables
    for field, amount in cells.items()
]


def test_the_printed_table_was_read_whole():
    assert len(PRINTED) == 17
    assert {code for tables, code, _ in PRINTED if 1 in tables} == set(TABLE_NO_1)
    assert {code for tables, code, _ in PRINTED if 2 in tables} == set(TABLE_NO_2)


@pytest.mark.parametrize(("table", "code", "field", "amount"), PRINTED_CELLS)
def test_every_cell_of_the_module_tables_is_the_printed_one(table, code, field, amount):
    assert getattr(TABLES[table][code], field) == amount


def _made_solo(code: str, trump: str, table: int, over: int = 0) -> dict[str, Any]:
    bidder = 2
    needed = TRICK_BIDS[code]
    hand = {"bid": code, "bidder": bidder, "trump": trump, "tricks": tricks_with(bidder, needed + over)}
    return settle_at(hand, rules={"ante": 0, "slam_table": table})


TRICK_CELLS = [
    pytest.param(table, code, trump, cells[column], id=f"T{table}-{code}-{trump}")
    for tables, code, cells in PRINTED
    if code in TRICK_BIDS
    for table in tables
    for column, trumps in (("clubs_spades", ("clubs", "spades")), ("hearts", ("hearts",)), ("diamonds", ("diamonds",)))
    for trump in trumps
]


@pytest.mark.parametrize(("table", "code", "trump", "amount"), TRICK_CELLS)
def test_every_trick_cell_is_what_a_made_solo_collects(table, code, trump, amount):
    settled = _made_solo(code, trump, table)
    assert moves(settled) == [(seat, 2, amount, "contract") for seat in (0, 1, 3)]
    assert settled["deltas"] == [-amount, -amount, 3 * amount, -amount]


@pytest.mark.parametrize(
    ("code", "extra"), [(code, cells["extra_trick"]) for _, code, cells in PRINTED if cells["extra_trick"]]
)
def test_the_extra_trick_column_is_what_one_over_trick_pays(code, extra):
    settled = _made_solo(code, "clubs", 1, over=1)
    assert (0, 2, extra, "overtricks") in moves(settled)


@pytest.mark.parametrize(("code", "amount"), [(c, cells["no_trump"]) for _, c, cells in PRINTED if cells["no_trump"]])
def test_every_no_trump_cell_is_what_a_made_misere_collects(code, amount):
    bidder = 1
    total = 12 if code in DISCARD_BIDS else 13
    hand = {"bid": code, "bidder": bidder, "tricks": tricks_with(bidder, MISERE_BIDS[code], total)}
    settled = settle_at(hand, rules={"ante": 0})
    assert moves(settled) == [(seat, 1, amount, "contract") for seat in (0, 2, 3)]


def _printed(code: str, field: str, table: int = 1) -> int:
    return next(cells[field] for tables, c, cells in PRINTED if c == code and table in tables)


@pytest.mark.parametrize("code", list(TRICK_BIDS))
@pytest.mark.parametrize("suit_order", ["american", "french"])
def test_a_no_trump_bid_pays_the_printed_diamond_column(code, suit_order):
    settled = settle_at(
        {"bid": code, "bidder": 0, "trump": "none", "tricks": tricks_with(0, TRICK_BIDS[code])},
        rules={"ante": 0, "suit_order": suit_order, "grand_column": "diamonds"},
    )
    assert settled["deltas"][1] == -_printed(code, "diamonds")


@pytest.mark.parametrize(
    ("trump", "column"),
    [("hearts", "diamonds"), ("diamonds", "hearts"), ("clubs", "clubs_spades"), ("spades", "clubs_spades")],
)
def test_the_french_suit_order_swaps_hearts_and_diamonds(trump, column):
    settled = settle_at(
        {"bid": "seven", "bidder": 3, "trump": trump, "tricks": tricks_with(3, 7)}, rules={"suit_order": "french"}
    )
    assert moves(settled)[1:-1] == [(seat, 3, _printed("seven", column), "contract") for seat in (0, 1, 2)]


# --- §5.2 worked examples ---------------------------------------------------------------------------


def test_b1_a_failed_partnership_pays_by_pairing_and_splits_the_pool_pay_in():
    hand = {"bid": "seven", "bidder": 0, "partner": 1, "trump": "diamonds", "tricks": [5, 4, 2, 2]}
    settled = settle_at(hand, number=8, dealer=3, pool_before=20)
    assert moves(settled) == [
        (3, "pool", 5, "ante"),
        (0, 3, 135, "contract"),
        (1, 2, 135, "contract"),
        (0, "pool", 68, "pool"),
        (1, "pool", 67, "pool"),
    ]
    assert settled["deltas"] == [-203, -202, 135, 130]
    assert (settled["pools"], settled["pool_delta"]) == ([160], 140)


def test_b2_a_made_partnership_is_paid_by_pairing_and_shares_the_pool():
    hand = {"bid": "six", "bidder": 0, "partner": 2, "trump": "hearts", "tricks": [6, 1, 4, 2]}
    settled = settle_at(hand, number=4, dealer=3, pool_before=15)
    assert moves(settled) == [
        (3, "pool", 5, "ante"),
        (1, 0, 100, "contract"),
        (1, 0, 5, "overtricks"),
        (3, 2, 100, "contract"),
        (3, 2, 5, "overtricks"),
        ("pool", 0, 10, "pool"),
        ("pool", 2, 10, "pool"),
    ]
    assert settled["deltas"] == [115, -105, 115, -110]
    assert (settled["pools"], settled["pool_delta"]) == ([0], -15)


def test_b3_a_failure_on_deal_12_lets_the_adversaries_divide_the_pool():
    hand = {"bid": "six", "bidder": 3, "trump": "clubs", "tricks": [3, 3, 2, 5]}
    settled = settle_at(hand, number=12, dealer=3, pool_before=35)
    assert moves(settled) == [
        (3, "pool", 5, "ante"),
        (3, 0, 35, "contract"),
        (3, 1, 35, "contract"),
        (3, 2, 35, "contract"),
        (3, "pool", 35, "pool"),
        ("pool", 0, 25, "division"),
        ("pool", 1, 25, "division"),
        ("pool", 2, 25, "division"),
    ]
    assert settled["deltas"] == [60, 60, 60, -145]
    assert (settled["pools"], settled["pool_delta"]) == ([0], -35)


def test_b3_on_deal_11_the_pool_stays():
    hand = {"bid": "six", "bidder": 3, "trump": "clubs", "tricks": [3, 3, 2, 5]}
    settled = settle_at(hand, number=11, dealer=3, pool_before=35)
    assert settled["deltas"] == [35, 35, 35, -145]
    assert settled["pools"] == [75]


# --- the examples of the spec -----------------------------------------------------------------------


@pytest.mark.parametrize("name", example_names("fontainebleau"))
def test_example_settles_exactly(name):
    expected = load_json(EXAMPLES / f"{name}.settlement.json")
    assert settle(load_json(EXAMPLES / f"{name}.sheet.json")) == expected


@pytest.mark.parametrize("name", example_names("fontainebleau", kind="error"))
def test_example_is_refused_the_same_way(name):
    expected = load_json(EXAMPLES / f"{name}.error.json")["error"]
    with pytest.raises(EngineError) as caught:
        settle(load_json(EXAMPLES / f"{name}.sheet.json"))
    error = caught.value
    assert (error.code, error.hand, set(error.fields)) == (expected["code"], expected["hand"], set(expected["fields"]))
    assert error.message.startswith(f"hand {error.hand}: ") and "`" not in error.message


def test_the_examples_cover_both_kinds():
    assert len(example_names("fontainebleau")) >= 5
    assert example_names("fontainebleau", kind="error")


# --- solo payments (§2.4) ---------------------------------------------------------------------------


def test_a_made_solo_takes_value_over_tricks_honours_and_the_pool():
    hand = {"bid": "eight", "bidder": 1, "trump": "hearts", "honours": 4, "tricks": [1, 10, 1, 1]}
    settled = settle_at(hand, dealer=2, pool_before=7, rules={"honours": True})
    # eight hearts 80, two over-tricks 10, four honours 20, from each; the pool of 7 + 5.
    assert settled["deltas"] == [-110, 3 * 110 + 12, -110 - 5, -110]
    assert (settled["pools"], settled["pool_delta"]) == ([0], -7)


def test_transfers_follow_the_order_of_rules_0_9():
    hand = {"bid": "eight", "bidder": 1, "trump": "hearts", "honours": 3, "tricks": [1, 9, 2, 1]}
    settled = settle_at(hand, dealer=2, rules={"honours": True})
    assert moves(settled) == [
        (2, "pool", 5, "ante"),
        (0, 1, 80, "contract"),
        (0, 1, 5, "overtricks"),
        (0, 1, 10, "honours"),
        (2, 1, 80, "contract"),
        (2, 1, 5, "overtricks"),
        (2, 1, 10, "honours"),
        (3, 1, 80, "contract"),
        (3, 1, 5, "overtricks"),
        (3, 1, 10, "honours"),
        ("pool", 1, 5, "pool"),
    ]


@pytest.mark.parametrize(("honours", "bonus"), [(0, 0), (3, 10), (4, 20)])
def test_honours_count_as_two_or_four_over_tricks(honours, bonus):
    hand = {"bid": "boston", "bidder": 0, "trump": "spades", "honours": honours, "tricks": [5, 3, 3, 2]}
    settled = settle_at(hand, rules={"honours": True, "ante": 0})
    assert settled["deltas"] == [3 * (10 + bonus), -10 - bonus, -10 - bonus, -10 - bonus]


def test_honours_count_on_a_slam():
    hand = {"bid": "slam", "bidder": 0, "trump": "clubs", "honours": 4, "tricks": [13, 0, 0, 0]}
    settled = settle_at(hand, rules={"honours": True, "ante": 0})
    assert (1, 0, 20, "honours") in moves(settled)
    assert settled["deltas"][0] == 3 * (400 + 20)


def test_honours_never_count_on_a_failure():
    hand = {"bid": "nine", "bidder": 0, "trump": "hearts", "honours": 4, "tricks": [6, 3, 2, 2]}
    settled = settle_at(hand, rules={"honours": True, "ante": 0})
    # Foster's example: nine hearts, six tricks, 115 to each adversary; the same again into the pool.
    assert moves(settled) == [
        (0, 1, 115, "contract"),
        (0, 2, 115, "contract"),
        (0, 3, 115, "contract"),
        (0, "pool", 115, "pool"),
    ]
    assert settled["pools"] == [115]


def test_a_conceded_contract_saves_only_the_over_tricks():
    hand = {"bid": "seven", "bidder": 2, "trump": "clubs", "honours": 3, "conceded": True, "tricks": [0, 0, 1, 0]}
    settled = settle_at(hand, pool_before=10, rules={"honours": True, "ante": 0})
    assert Counter(moves(settled)) == Counter(
        [(s, 2, 50, "contract") for s in (0, 1, 3)]
        + [(s, 2, 10, "honours") for s in (0, 1, 3)]
        + [("pool", 2, 10, "pool")]
    )


def test_a_failed_slam_pays_five_per_trick_short_and_the_same_into_the_pool():
    hand = {"bid": "spread_slam", "bidder": 1, "trump": "diamonds", "tricks": [0, 11, 1, 1]}
    settled = settle_at(hand, rules={"ante": 0, "slam_table": 2})
    assert settled["deltas"] == [460, -4 * 460, 460, 460]
    assert settled["pools"] == [460]


@pytest.mark.parametrize(("taken", "made"), [(0, False), (1, True), (2, False), (5, False)])
def test_piccolissimo_is_made_with_exactly_one_trick(taken, made):
    hand = {"bid": "piccolissimo", "bidder": 0, "tricks": tricks_with(0, taken, 12)}
    settled = settle_at(hand, pool_before=20, rules={"ante": 0})
    if made:
        assert settled["deltas"] == [320, -100, -100, -100]
        assert settled["pools"] == [0]
    else:
        assert settled["deltas"] == [-400, 100, 100, 100]
        assert settled["pools"] == [120]


def test_a_failed_misere_pays_its_amount_and_nothing_per_trick():
    hand = {"bid": "grand_spread", "bidder": 3, "tricks": [4, 4, 1, 4]}
    settled = settle_at(hand, rules={"ante": 0})
    assert settled["deltas"] == [250, 250, 250, -1000]
    assert settled["pools"] == [250]


def test_a_conceded_misere_is_made():
    hand = {"bid": "little_misere", "bidder": 3, "conceded": True, "tricks": [0, 0, 0, 0]}
    settled = settle_at(hand, pool_before=30, rules={"ante": 0})
    assert settled["deltas"] == [-75, -75, -75, 255]


def test_the_dealer_antes_and_the_deal_passes_to_the_left():
    hands = [{"bid": "pass", "tricks": [4, 4, 4, 1]} for _ in range(6)]
    result = settle(make_sheet(hands, {"ante": 7}, first_dealer=2))
    assert [h["dealer"] for h in result["hands"]] == [2, 3, 0, 1, 2, 3]
    assert [moves(h)[0] for h in result["hands"]] == [(d, "pool", 7, "ante") for d in (2, 3, 0, 1, 2, 3)]
    assert all(h["double"] is False for h in result["hands"])


def test_no_ante_is_no_transfer():
    settled = settle_at({"bid": "pass", "tricks": [4, 4, 4, 1]}, pool_before=3, rules={"ante": 0})
    assert moves(settled) == [("pool", 3, 3, "division")]


def test_the_pool_has_no_limit():
    settled = settle_at({"bid": "six", "bidder": 0, "trump": "clubs", "tricks": [0, 5, 4, 4]}, pool_before=10_000)
    assert settled["pools"] == [10_005 + 30 + 5 * 6]


# --- partnerships (§2.5) ----------------------------------------------------------------------------


def _pairs(cell: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in re.findall(r"(\d)→(\d)", cell)]


PAIRING = [
    (
        tuple(int(s) for s in re.findall(r"\d", row["Partners"])),
        _pairs(row["The pair pays"]),
        _pairs(row["The opponents pay"]),
    )
    for row in markdown_table("### 0.7 The pairing rule")
]


def test_the_pairing_table_was_read_whole():
    assert len(PAIRING) == 6


@pytest.mark.parametrize(("partners", "pair_pays", "opponents_pay"), PAIRING)
@pytest.mark.parametrize("caller_first", [True, False])
def test_partners_pay_and_are_paid_by_pairing(partners, pair_pays, opponents_pay, caller_first):
    bidder, partner = partners if caller_first else partners[::-1]
    base = {"bid": "boston", "bidder": bidder, "partner": partner, "trump": "clubs"}
    made = settle_at({**base, "tricks": tricks_with(bidder, 4, partner=partner, partner_taken=4)}, rules={"ante": 0})
    failed = settle_at({**base, "tricks": tricks_with(bidder, 4, partner=partner, partner_taken=3)}, rules={"ante": 0})
    # boston + partner: eight tricks in clubs, 70; one short, 75.
    assert sorted(m for m in moves(made) if m[3] == "contract") == sorted(
        (a, b, 70, "contract") for a, b in opponents_pay
    )
    assert sorted(m for m in moves(failed) if m[3] == "contract") == sorted(
        (a, b, 75, "contract") for a, b in pair_pays
    )


@pytest.mark.parametrize(("bid", "row"), [("boston", "eight"), ("seven", "ten"), ("nine", "twelve")])
def test_a_pair_is_valued_at_bid_plus_three_in_the_same_suit(bid, row):
    needed = TRICK_BIDS[bid] + 3
    hand = {
        "bid": bid,
        "bidder": 0,
        "partner": 2,
        "trump": "hearts",
        "tricks": tricks_with(0, needed - 3, partner=2, partner_taken=3),
    }
    settled = settle_at(hand, rules={"ante": 0})
    assert moves(settled) == [(1, 0, _printed(row, "hearts"), "contract"), (3, 2, _printed(row, "hearts"), "contract")]


@pytest.mark.parametrize("table", [1, 2])
def test_ten_with_a_partner_is_valued_on_the_slam_row_of_the_slam_table(table):
    hand = {"bid": "ten", "bidder": 1, "partner": 3, "trump": "diamonds", "tricks": [0, 9, 0, 4]}
    settled = settle_at(hand, rules={"ante": 0, "slam_table": table})
    slam = _printed("slam", "diamonds", table)
    assert moves(settled) == [(0, 3, slam, "contract"), (2, 1, slam, "contract")]


def test_a_pair_over_tricks_and_honours_are_counted_against_bid_plus_three():
    hand = {"bid": "six", "bidder": 2, "partner": 3, "trump": "spades", "honours": 3, "tricks": [1, 1, 6, 5]}
    settled = settle_at(hand, rules={"ante": 0, "honours": True})
    # nine spades 90; two over-tricks 10; three honours 10. Adjacent partners 2 and 3: 1→2 and 0→3.
    assert moves(settled) == [
        (0, 3, 90, "contract"),
        (0, 3, 10, "overtricks"),
        (0, 3, 10, "honours"),
        (1, 2, 90, "contract"),
        (1, 2, 10, "overtricks"),
        (1, 2, 10, "honours"),
    ]


def test_a_conceded_pair_is_paid_without_over_tricks_and_shares_the_pool():
    hand = {"bid": "boston", "bidder": 0, "partner": 2, "trump": "diamonds", "conceded": True, "tricks": [1, 0, 0, 0]}
    settled = settle_at(hand, pool_before=6, rules={"ante": 0})
    assert moves(settled) == [
        (1, 0, 90, "contract"),
        (3, 2, 90, "contract"),
        ("pool", 0, 3, "pool"),
        ("pool", 2, 3, "pool"),
    ]


def test_partners_share_the_pool_equally_and_the_remainder_stays():
    hand = {"bid": "boston", "bidder": 3, "partner": 1, "trump": "clubs", "tricks": [2, 4, 3, 4]}
    settled = settle_at(hand, dealer=0, pool_before=0)
    assert ("pool", 1, 2, "pool") in moves(settled)
    assert ("pool", 3, 2, "pool") in moves(settled)
    assert settled["pools"] == [1]


def test_the_caller_pays_the_odd_counter_of_the_pool_pay_in():
    hand = {"bid": "seven", "bidder": 1, "partner": 0, "trump": "hearts", "tricks": [4, 5, 2, 2]}
    settled = settle_at(hand, rules={"ante": 0})
    # ten hearts 120, one short: 125 to one adversary each, 125 into the pool: caller 63, partner 62.
    assert (1, "pool", 63, "pool") in moves(settled)
    assert (0, "pool", 62, "pool") in moves(settled)
    assert settled["pools"] == [125]


# --- misère partout and deal 12 (§2.6) --------------------------------------------------------------


def test_misere_partout_the_fewest_tricks_divide_the_pool_and_the_remainder_stays():
    settled = settle_at({"bid": "pass", "tricks": [2, 2, 4, 5]}, dealer=1, pool_before=2)
    assert moves(settled) == [(1, "pool", 5, "ante"), ("pool", 0, 3, "division"), ("pool", 1, 3, "division")]
    assert settled["pools"] == [1]


def test_a_pair_failing_on_deal_12_lets_its_two_opponents_divide_the_pool():
    hand = {"bid": "boston", "bidder": 0, "partner": 1, "trump": "spades", "tricks": [3, 3, 4, 3]}
    settled = settle_at(hand, number=12, dealer=3, pool_before=0)
    # eight spades 70, two short: 80 each to 3 and 2, 80 into the pool (40/40); 85 divided by 2 and 3.
    assert moves(settled) == [
        (3, "pool", 5, "ante"),
        (0, 3, 80, "contract"),
        (1, 2, 80, "contract"),
        (0, "pool", 40, "pool"),
        (1, "pool", 40, "pool"),
        ("pool", 2, 42, "division"),
        ("pool", 3, 42, "division"),
    ]
    assert settled["pools"] == [1]


def test_a_misere_failing_on_deal_12_lets_the_adversaries_divide_the_pool():
    settled = settle_at({"bid": "little_misere", "bidder": 2, "tricks": [3, 3, 3, 3]}, number=12, dealer=3)
    assert settled["deltas"] == [75 + 26, 75 + 26, -4 * 75, 75 + 26 - 5]
    assert settled["pools"] == [2]


def test_a_made_contract_on_deal_12_is_settled_as_on_any_deal():
    hand = {"bid": "six", "bidder": 3, "trump": "clubs", "tricks": [3, 2, 2, 6]}
    settled = settle_at(hand, number=12, dealer=3, pool_before=35)
    assert settled["deltas"] == [-30, -30, -30, 90 + 40 - 5]


def test_a_pass_on_deal_12_is_settled_as_on_any_deal():
    settled = settle_at({"bid": "pass", "tricks": [1, 4, 4, 4]}, number=12, dealer=3, pool_before=35)
    assert moves(settled) == [(3, "pool", 5, "ante"), ("pool", 0, 40, "division")]


# --- options ----------------------------------------------------------------------------------------


def test_the_defaults_are_the_spec_defaults():
    hands = load_json(EXAMPLES / "fontainebleau-evening-defaults.sheet.json")["hands"]
    explicit = {"ante": 5, "honours": False, "grand_column": "diamonds", "suit_order": "american", "slam_table": 1}
    assert settle(make_sheet(hands, explicit))["hands"] == settle(make_sheet(hands))["hands"]


@pytest.mark.parametrize(
    ("name", "value", "fragment"),
    [
        ("ante", -1, "0 or more"),
        ("ante", 2.5, "whole number"),
        ("ante", True, "whole number"),
        ("honours", "yes", "Count honours: say yes or no"),
        ("honours", 1, "Count honours: say yes or no"),
        ("grand_column", "hearts", "No-trump column: choose one of diamonds"),
        ("suit_order", "russian", "Suit order: choose one of american or french"),
        ("slam_table", 3, "Slam table: choose one of 1 or 2"),
        ("slam_table", "2", "Slam table: choose one of 1 or 2"),
        ("slam_table", True, "Slam table: choose one of 1 or 2"),
        ("slam_table", 1.0, "Slam table: choose one of 1 or 2"),
        ("pool_limit", 100, "not a house rule"),
    ],
)
def test_a_bad_house_rule_is_refused(name, value, fragment):
    error = refusal([], {name: value})
    assert error.code == "invalid_option"
    assert error.hand is None
    assert fragment in " ".join(error.fields[f"rules.{name}"])


@pytest.mark.parametrize(
    "rules", [{"slam_table": 2}, {"slam_table": 1}, {"suit_order": "french"}, {"honours": True}, {"ante": 0}]
)
def test_each_allowed_house_rule_value_is_accepted(rules):
    assert settle(make_sheet([], rules))["pools"] == [0]


def test_one_pool_only():
    error = refusal([], pools=[5, 5])
    assert (error.code, list(error.fields)) == ("invalid_sheet", ["pools"])
    assert "one pool" in error.fields["pools"][0]


# --- hand validation (§0.10, §2.2, §2.7) ------------------------------------------------------------

SIX = {"bid": "six", "bidder": 0, "trump": "clubs", "tricks": [6, 3, 2, 2]}
MISERE = {"bid": "grand_misere", "bidder": 1, "tricks": [4, 0, 4, 5]}
PASS = {"bid": "pass", "tricks": [4, 4, 4, 1]}
FAILED_SIX = {**SIX, "tricks": [5, 4, 2, 2]}  # 35 to each and 35 into the pool: it holds 40 after the ante

REFUSED_HANDS = [
    # (id, hand, rules, field, part of the message)
    ("unknown bid", {**SIX, "bid": "misere"}, {}, "bid", "choose a bid: boston, six"),
    ("bidder missing", {k: v for k, v in SIX.items() if k != "bidder"}, {}, "bidder", "choose who bid"),
    ("trump missing", {k: v for k, v in SIX.items() if k != "trump"}, {}, "trump", "spades or no trump"),
    ("tricks missing", {k: v for k, v in SIX.items() if k != "tricks"}, {}, "tricks", "enter the tricks"),
    ("bidder boolean", {**SIX, "bidder": True}, {}, "bidder", "choose one of the four players"),
    ("bidder past 3", {**SIX, "bidder": 4}, {}, "bidder", "choose one of the four players"),
    ("partner is bidder", {**SIX, "partner": 0}, {}, "partner", "another player than the bidder"),
    ("partner not a seat", {**SIX, "partner": "2"}, {}, "partner", "choose one of the four players"),
    ("trump grand", {**SIX, "trump": "grand"}, {}, "trump", "spades or no trump"),
    ("tricks three seats", {**SIX, "tricks": [6, 3, 4]}, {}, "tricks", "each from 0 to 13"),
    ("tricks over 13", {**SIX, "tricks": [14, 0, 0, 0]}, {}, "tricks", "each from 0 to 13"),
    ("trick contract sum", {**SIX, "tricks": [6, 3, 2, 1]}, {}, "tricks", "must add up to 13, not 12"),
    ("discard bid sum", {**MISERE, "bid": "little_misere", "tricks": [4, 0, 4, 5]}, {}, "tricks", "at most 12"),
    ("piccolissimo sum", {**MISERE, "bid": "piccolissimo", "tricks": [4, 1, 4, 4]}, {}, "tricks", "at most 12"),
    ("misere sum", {**MISERE, "tricks": [4, 1, 4, 5]}, {}, "tricks", "at most 13, not 14"),
    ("pass sum", {**PASS, "tricks": [4, 4, 3, 1]}, {}, "tricks", "must add up to 13, not 12"),
    ("honours 2", {**SIX, "honours": 2}, {"honours": True}, "honours", "0, 3 or 4"),
    ("honours option off", {**SIX, "honours": 3}, {}, "honours", "only with the house rule “Count honours”"),
    ("honours no trump", {**SIX, "trump": "none", "honours": 4}, {"honours": True}, "honours", "a trump suit"),
    ("honours on a misere", {**MISERE, "honours": 3}, {"honours": True}, "honours", "played without trumps"),
    ("conceded bidder on a misere", {**MISERE, "conceded": "bidder"}, {}, "conceded",
     "say yes or no: did the adversaries concede?"),
    ("conceded bidder with a partner", {**SIX, "partner": 2, "conceded": "bidder"}, {}, "conceded",
     "only a bidder playing alone may pay instead of playing"),
    ("conceded 1", {**SIX, "conceded": 1}, {}, "conceded", "or bidder when the bidder paid instead of playing"),
    ("conceded on pass", {**PASS, "conceded": True}, {}, "conceded", "nobody concedes misère partout"),
    ("number", {**SIX, "number": 2}, {}, "number", "this is deal 1: correct the deal number or leave it out"),
    ("partner on eleven", {**SIX, "bid": "eleven", "partner": 2}, {}, "partner", "on boston to ten only"),
    ("partner on a misere", {**MISERE, "partner": 3}, {}, "partner", "a grand misère is played alone"),
    ("partner on pass", {**PASS, "partner": 3}, {}, "partner", "misère partout is played alone"),
    ("trump on piccolissimo", {**MISERE, "bid": "piccolissimo", "trump": "hearts", "tricks": [4, 1, 4, 3]}, {},
     "trump", "piccolissimo is played without trumps: leave the trump empty"),
    ("trump on a spread", {**MISERE, "bid": "grand_spread", "trump": "none"}, {},
     "trump", "a grand spread is played without trumps"),
    ("trump on pass", {**PASS, "trump": "clubs"}, {}, "trump", "misère partout is played without trumps"),
    ("bidder on pass", {**PASS, "bidder": 2}, {}, "bidder", "nobody bid"),
    ("revoke on pass", {**PASS, "revoke": 1}, {}, "revoke", "does not use the revoke: leave it empty"),
    ("jack", {**SIX, "jack": 1}, {}, "jack", "no jack earns a bonus"),
    ("turned", {**SIX, "turned": "hearts"}, {}, "turned", "no trump is turned"),
    ("last trick", {**PASS, "last_trick": 1}, {}, "last_trick", "no last-trick hand"),
    ("unknown field", {**SIX, "doubled": True}, {}, "doubled", "doubled is not part of a hand: leave it out"),
    ("adjustment without note", {**SIX, "adjustments": [{"from": 0, "to": 1, "counters": 5, "note": ""}]}, {},
     "adjustments", "say why in the note"),
    ("adjustment with a reason",
     {**SIX, "adjustments": [{"from": 0, "to": 1, "counters": 5, "note": "x", "reason": "y"}]}, {},
     "adjustments", "adjustment 1 needs exactly who pays, who receives, how many counters"),
    ("adjustment beyond the pool",
     {**FAILED_SIX, "adjustments": [{"from": "pool", "to": 1, "counters": 41, "note": "ruling"}]}, {},
     "adjustments", "takes 41 from the pool, which holds 40"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("hand", "rules", "field", "fragment"), [pytest.param(*case[1:], id=case[0]) for case in REFUSED_HANDS]
)
def test_a_broken_hand_is_refused_naming_the_field(hand, rules, field, fragment):
    error = refusal([hand], rules)
    assert error.code == "invalid_hand"
    assert error.hand == 1
    assert list(error.fields) == [field]
    assert fragment in " ".join(error.fields[field])
    assert error.message.startswith("hand 1: ")


def test_the_broken_hands_above_are_valid_once_mended():
    for hand in (SIX, MISERE, PASS):
        settle(make_sheet([hand]))
    settle(make_sheet([{**SIX, "honours": 3}], {"honours": True}))
    settle(make_sheet([{**SIX, "partner": 2, "tricks": [6, 1, 3, 3]}]))
    ruling = [{"from": "pool", "to": 1, "counters": 40, "note": "ruling"}]
    assert settle(make_sheet([{**FAILED_SIX, "adjustments": ruling}]))["pools"] == [0]


def test_a_thirteenth_deal_is_refused_whatever_its_bid():
    hands = [PASS] * 12 + [{"bid": "slam_of_slams", "revoke": 9}]
    error = refusal(hands)
    assert (error.code, error.hand, list(error.fields)) == ("invalid_hand", 13, ["hands"])
    assert "12 deals" in error.fields["hands"][0]
    assert settle(make_sheet([PASS] * 12))["hands"][-1]["number"] == 12


def test_every_broken_field_of_the_hand_is_listed():
    error = refusal([PASS, {**SIX, "revoke": 9, "jack": 1, "trump": "grand", "number": 1}])
    assert error.hand == 2
    assert set(error.fields) == {"revoke", "jack", "trump", "number"}


def test_the_first_broken_hand_is_the_one_reported():
    error = refusal([PASS, {**SIX, "jack": 1}, {**SIX, "revoke": 1}])
    assert (error.hand, list(error.fields)) == (2, ["jack"])


def test_fields_are_checked_before_the_adjustments_against_the_pool():
    overdraw = [{"from": "pool", "to": 1, "counters": 99, "note": "ruling"}]
    error = refusal([{**SIX, "honours": 4, "adjustments": overdraw}])
    assert list(error.fields) == ["honours"]


@pytest.mark.parametrize(
    "hand",
    [
        {**SIX, "conceded": True, "tricks": [0, 1, 0, 0]},
        {**SIX, "conceded": False},
        {**SIX, "honours": 0, "partner": None, "jack": None, "turned": None, "revoke": None},
        {**MISERE, "conceded": True, "tricks": [0, 0, 0, 0]},
        {**PASS, "conceded": False, "honours": 0, "adjustments": []},
        {**SIX, "trump": "none", "number": 1},
    ],
)
def test_allowed_hands_are_accepted(hand):
    assert settle(make_sheet([hand]))["hands"][0]["number"] == 1


def test_the_variant_declares_what_the_spec_says():
    variant = get_variant("fontainebleau")
    assert variant.no_trump is True
    assert variant.trick_bids == frozenset(TRICK_BIDS)
    assert set(variant.bids) == set(TRICK_BIDS) | set(MISERE_BIDS) | {"pass", "misdeal"}
    assert variant.title == "Boston de Fontainebleau"


# --- random sessions --------------------------------------------------------------------------------

seats = st.integers(0, 3)


@st.composite
def split_tricks(draw: st.DrawFn, total: int, fixed: dict[int, int]) -> list[int]:
    """Four seats' tricks adding up to `total`, the seats in `fixed` taking what they are given."""
    free = [s for s in range(4) if s not in fixed]
    rest = total - sum(fixed.values())
    cuts = sorted(draw(st.lists(st.integers(0, rest), min_size=len(free) - 1, max_size=len(free) - 1)))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, rest], strict=True)]
    tricks = [0, 0, 0, 0]
    for seat, taken in [*fixed.items(), *zip(free, parts, strict=True)]:
        tricks[seat] = taken
    return tricks


@st.composite
def fontainebleau_hand(draw: st.DrawFn, count_honours: bool) -> dict[str, Any]:
    bid = draw(st.sampled_from([*TRICK_BIDS, *MISERE_BIDS, "pass"]))
    if bid == "pass":
        return {"bid": "pass", "tricks": draw(split_tricks(13, {}))}
    bidder = draw(seats)
    hand: dict[str, Any] = {"bid": bid, "bidder": bidder}
    conceded = draw(st.booleans())
    if conceded:
        hand["conceded"] = True
    if bid in MISERE_BIDS:
        total = draw(st.integers(0, 12 if bid in DISCARD_BIDS else 13))
        taken = draw(st.integers(0, total))
        hand["tricks"] = draw(split_tricks(total, {bidder: taken}))
    else:
        trump = draw(st.sampled_from([*SUITS, "none"]))
        hand["trump"] = trump
        total = draw(st.integers(0, 13)) if conceded else 13
        fixed = {bidder: draw(st.integers(0, total))}
        if bid in PARTNER_BIDS and draw(st.booleans()):
            partner = draw(st.sampled_from([s for s in range(4) if s != bidder]))
            hand["partner"] = partner
            fixed[partner] = draw(st.integers(0, total - fixed[bidder]))
        hand["tricks"] = draw(split_tricks(total, fixed))
        if count_honours and trump != "none":
            hand["honours"] = draw(st.sampled_from([0, 3, 4]))
    adjustment = st.fixed_dictionaries(
        {
            "from": seats,
            "to": st.sampled_from([0, 1, 2, 3, "pool"]),
            "counters": st.integers(1, 50),
            "note": st.just("ruling"),
        }
    ).filter(lambda a: a["from"] != a["to"])
    hand["adjustments"] = draw(st.lists(adjustment, max_size=2))
    return hand


@st.composite
def fontainebleau_sheet(draw: st.DrawFn) -> dict[str, Any]:
    rules: dict[str, Any] = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "ante": st.integers(0, 25),
                "honours": st.booleans(),
                "grand_column": st.just("diamonds"),
                "suit_order": st.sampled_from(["american", "french"]),
                "slam_table": st.sampled_from([1, 2]),
            },
        )
    )
    hands = draw(st.lists(fontainebleau_hand(rules.get("honours", False)), max_size=12))
    pools = draw(st.sampled_from([[], [0]]) | st.lists(st.integers(0, 400), min_size=1, max_size=1))
    close = draw(st.sampled_from([None, {}, {"pools": "divide"}, {"pools": "carry"}]))
    top: dict[str, Any] = {"first_dealer": draw(seats), "pools": pools}
    if close is not None:
        top["close"] = close
    return make_sheet(hands, rules, **top)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fontainebleau_sheet())
def test_random_sessions_conserve_counters_and_settle_the_same_twice(raw_sheet):
    original = copy.deepcopy(raw_sheet)
    result = settle(raw_sheet)
    assert raw_sheet == original  # the engine does not touch its input
    carried_in = sum(raw_sheet["pools"])
    assert len(result["hands"]) == len(raw_sheet["hands"])
    for i, hand in enumerate(result["hands"]):
        assert hand["number"] == i + 1
        assert hand["dealer"] == (raw_sheet["first_dealer"] + i) % 4
        assert hand["double"] is False
        assert sum(hand["balances"]) + sum(hand["pools"]) == carried_in
        assert len(hand["pools"]) == 1 and hand["pools"][0] >= 0
        keys = [(t["from"], t["to"], t["reason"]) for t in hand["transfers"]]
        assert len(keys) == len(set(keys))
        assert all(type(t["counters"]) is int and t["counters"] > 0 for t in hand["transfers"])
        assert all(t["reason"] in REASONS and t["from"] != t["to"] for t in hand["transfers"])
    if result["hands"]:
        assert result["balances"] == result["hands"][-1]["balances"]
        assert result["pools"] == result["hands"][-1]["pools"]
    if "close" in result:
        close = result["close"]
        assert sum(close["final"]) + sum(close["carried"]) == carried_in
    assert settle(copy.deepcopy(raw_sheet)) == result
    shorter = {**raw_sheet, "hands": raw_sheet["hands"][:-1]}
    assert settle(shorter)["hands"] == result["hands"][:-1]
