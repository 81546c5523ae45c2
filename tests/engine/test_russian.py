"""Russian Boston (`rules.md` §4): the tariff cell by cell, the worked examples, the spec's examples,
every validation rule, and random parties that must conserve every chip."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.engine import EngineError, settle
from ledger.engine.variants.russian import CORRECTED, MLADSHAYA, STARSHAYA, TARIFF, VARIANT
from tests.conftest import EXAMPLES, RULES_MD, example_names, load_json

ROOT = Path(__file__).resolve().parents[2]
SUITS = ("clubs", "diamonds", "hearts", "spades")
PLAYERS = ["Анна", "Борис", "Вера", "Глеб"]
REASONS = ("ante", "contract", "overtricks", "honours", "pool", "division", "jack", "penalty", "adjustment")


# --- helpers ------------------------------------------------------------------------------------
def sheet(hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "format": "clubscore-sheet/1",
        "variant": "russian",
        "players": list(PLAYERS),
        "first_dealer": 0,
        "hands": hands,
    }
    raw.update(extra)
    return raw


def refused(raw: dict[str, Any]) -> dict[str, Any]:
    with pytest.raises(EngineError) as caught:
        settle(raw)
    return caught.value.as_json()["error"]


def last(raw: dict[str, Any]) -> dict[str, Any]:
    return settle(raw)["hands"][-1]


def moves(hand: dict[str, Any], reason: str | None = None) -> set[tuple[Any, Any, int]]:
    return {(t["from"], t["to"], t["counters"]) for t in hand["transfers"] if reason in (None, t["reason"])}


def spread(total: int, seats: tuple[int, ...]) -> dict[int, int]:
    """`total` tricks spread over `seats` as evenly as can be."""
    share, rest = divmod(total, len(seats))
    return {seat: share + (1 if i < rest else 0) for i, seat in enumerate(seats)}


def tricks_for(fixed: dict[int, int]) -> list[int]:
    """Four seats' tricks: the `fixed` ones, the rest of 13 spread over the other seats."""
    rest = spread(13 - sum(fixed.values()), tuple(s for s in range(4) if s not in fixed))
    return [fixed.get(s, rest.get(s, 0)) for s in range(4)]


VOID = {
    "bid": "solo",
    "bidder": 0,
    "trump": "spades",
    "turned": "spades",
    "jack": 0,
    "revoke": 0,
    "tricks": [13, 0, 0, 0],
}


def padded(deal: int, hand: dict[str, Any], pad: dict[str, Any] = VOID) -> list[dict[str, Any]]:
    """`hand` as deal number `deal`, after deals that leave the basket alone (made and voided by a
    revoke of the buyer: only the бостон moves); deal 1 turns ♠, so старшая is spades."""
    return [dict(pad) for _ in range(deal - 1)] + [hand]


def in_rate(rate: str) -> tuple[list[dict[str, Any]], str]:
    """(earlier hands, suit) for a deal whose trump is played at `rate`: deal 1 in старшая ♠, or
    deal 2 turning ♥ (младшая) after an all-pass deal 1 that turned ♠."""
    if rate == STARSHAYA:
        return [], "spades"
    return [{"bid": "pass", "turned": "spades"}], "hearts"


# --- the tariff, held against rules.md §4.4 -------------------------------------------------------
ROW_LABELS = {"младшая": MLADSHAYA, "старшая": STARSHAYA}


def printed_tariff() -> dict[tuple[str, str, int], tuple[int, bool]]:
    """Every cell of R-T1..R-T6 in the spec's rules.md: (table, row, tricks) -> (value, †)."""
    text = RULES_MD.read_text(encoding="utf-8")
    section = text[text.index("### 4.4 Tariff") : text.index("### 4.5")]
    cells: dict[tuple[str, str, int], tuple[int, bool]] = {}
    for name in TARIFF:
        lines = section[section.index(f"**{name},") :].splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("|"))
        table = []
        for line in lines[start:]:
            if not line.startswith("|"):
                break
            table.append([c.strip() for c in line.strip().strip("|").split("|")])
        header, rows = table[0], table[2:]  # table[1] is the |---| line
        columns = [int(re.match(r"\d+", h).group()) for h in header[1:]]  # "13 (шлем)" -> 13
        for row in rows:
            for tricks, cell in zip(columns, row[1:], strict=True):
                cells[(name, ROW_LABELS[row[0]], tricks)] = (int(cell.rstrip("†")), cell.endswith("†"))
    return cells


PRINTED = printed_tariff()


def test_rules_md_tariff_is_all_there() -> None:
    sizes = {name: sum(1 for key in PRINTED if key[0] == name) for name in TARIFF}
    assert sizes == {"R-T1": 12, "R-T2": 16, "R-T3": 12, "R-T4": 16, "R-T5": 18, "R-T6": 10}


@pytest.mark.parametrize(("table", "row", "tricks"), sorted(PRINTED))
def test_tariff_cell_is_transcribed_as_printed(table: str, row: str, tricks: int) -> None:
    assert TARIFF[table][row][tricks] == PRINTED[(table, row, tricks)][0]


def test_tariff_has_no_cell_that_rules_md_lacks() -> None:
    mine = {(name, row, t) for name, rows in TARIFF.items() for row, cells in rows.items() for t in cells}
    assert mine == set(PRINTED)


def test_corrected_cells_are_the_daggered_ones() -> None:
    daggers = {key for key, (_, dagger) in PRINTED.items() if dagger}
    assert set(CORRECTED) == daggers == {("R-T1", STARSHAYA, 9), ("R-T3", MLADSHAYA, 12), ("R-T3", STARSHAYA, 12)}


@pytest.mark.parametrize("table", sorted(TARIFF))
def test_starshaya_pays_double(table: str) -> None:
    for tricks, value in TARIFF[table][MLADSHAYA].items():
        assert TARIFF[table][STARSHAYA][tricks] == 2 * value


def test_loss_tables_follow_their_formulas_except_at_zero() -> None:
    """R-T2: 2 (консоляция) + 2 × (8 − T); R-T4: 16 + 4 × (8 − t); at 0 tricks the printed value."""
    for t in range(1, 8):
        assert TARIFF["R-T2"][MLADSHAYA][t] == 2 + 2 * (8 - t)
        assert TARIFF["R-T4"][MLADSHAYA][t] == 16 + 4 * (8 - t)
    assert (TARIFF["R-T2"][MLADSHAYA][0], TARIFF["R-T4"][MLADSHAYA][0], TARIFF["R-T6"][MLADSHAYA][0]) == (56, 136, 24)


def _cell_case(table: str, row: str, tricks: int) -> tuple[list[dict[str, Any]], dict[str, Any], set]:
    """A sheet whose last deal pays cell (table, row, tricks), and the contract payments expected."""
    before, suit = in_rate(row)
    value = PRINTED[(table, row, tricks)][0]
    hand: dict[str, Any] = {"bidder": 0, "trump": suit, "turned": suit, "jack": 1}
    if table in ("R-T1", "R-T2"):  # buyer 0, supporter 2 (opposite): paired 1->0 and 3->2
        hand |= {"bid": "simple", "partner": 2}
        if table == "R-T1":
            hand["tricks"] = tricks_for({0: tricks - 3, 2: 3})
            expected = {(1, 0, value), (3, 2, value)}
        elif tricks == 0:
            hand["tricks"] = tricks_for({0: 0, 2: 0})
            expected = {(0, 1, value - value // 2), (0, 3, value - value // 2), (2, 1, value // 2), (2, 3, value // 2)}
        else:  # the buyer alone is short; the supporter made his 3
            hand["tricks"] = tricks_for({0: tricks - 3, 2: 3})
            expected = {(0, 1, value), (0, 3, value)}
    else:
        hand |= {"bid": "solo" if table in ("R-T3", "R-T4") else "simple", "tricks": tricks_for({0: tricks})}
        made = table in ("R-T3", "R-T5")
        expected = {(s, 0, value) if made else (0, s, value) for s in (1, 2, 3)}
    return [*before, hand], hand, expected


# R-T2 at 1 and 2 pair tricks cannot be charged: one partner short with the other on quota needs T ≥ 3.
REACHABLE = sorted(k for k in PRINTED if not (k[0] == "R-T2" and k[2] in (1, 2)))


@pytest.mark.parametrize(("table", "row", "tricks"), REACHABLE)
def test_tariff_cell_is_what_the_engine_charges(table: str, row: str, tricks: int) -> None:
    hands, _, expected = _cell_case(table, row, tricks)
    assert moves(last(sheet(hands)), "contract") == expected


@pytest.mark.parametrize(("row", "suit"), [(MLADSHAYA, "hearts"), (STARSHAYA, "spades")])
def test_double_tours_double_the_tariff_and_the_boston(row: str, suit: str) -> None:
    pad = [{"bid": "pass", "turned": "spades"}] + [{"bid": "pass", "turned": "clubs"}] * 32
    solo = {"bid": "solo", "bidder": 0, "trump": suit, "turned": suit, "jack": 1, "tricks": [10, 1, 1, 1]}
    settled = last(sheet([*pad, solo]))
    assert settled["number"] == 34 and settled["double"] is True
    assert moves(settled, "contract") == {(s, 0, 2 * PRINTED[("R-T3", row, 10)][0]) for s in (1, 2, 3)}
    assert moves(settled, "jack") == {(s, 1, 4) for s in (0, 2, 3)}


# --- rules.md §5.4, the worked examples (старшая ♠ throughout) ------------------------------------
def test_d1_supported_made_in_starshaya() -> None:
    hand = {"bid": "simple", "bidder": 3, "partner": 2, "trump": "spades", "turned": "spades", "jack": 1}
    settled = last(sheet([hand | {"tricks": [2, 2, 3, 6]}]))
    assert (settled["number"], settled["dealer"]) == (1, 0)
    assert moves(settled, "ante") == {(s, "pool", 10) for s in range(4)}  # basket 0, formed to 40
    assert moves(settled, "contract") == {(0, 3, 8), (1, 2, 8)}  # 8†, by pairing
    assert moves(settled, "pool") == {("pool", 2, 20), ("pool", 3, 20)}
    assert settled["deltas"] == [-20, -12, 16, 16]
    assert (settled["pool_delta"], settled["pools"]) == (0, [0])


def test_d2_unsupported_failed_in_starshaya() -> None:
    hand = {"bid": "simple", "bidder": 3, "trump": "spades", "turned": "hearts", "jack": 1, "tricks": [4, 3, 3, 3]}
    hands = settle(sheet(padded(6, hand)))["hands"]
    settled = hands[-1]
    assert (settled["number"], settled["dealer"], hands[-2]["pools"]) == (6, 3, [40])
    assert moves(settled, "ante") == set()
    assert moves(settled, "contract") == {(3, s, 12) for s in (0, 1, 2)}
    assert moves(settled, "division") == {("pool", s, 13) for s in (0, 1, 2)}
    assert settled["deltas"] == [23, 31, 23, -38]
    assert (settled["pool_delta"], settled["pools"]) == (-39, [1])


def test_d3_solo_with_no_trick_in_mladshaya() -> None:
    hand = {"bid": "solo", "bidder": 2, "trump": "clubs", "turned": "clubs", "jack": 0, "tricks": [4, 5, 0, 4]}
    hands = settle(sheet(padded(10, hand)))["hands"]
    settled = hands[-1]
    assert (settled["number"], settled["dealer"], hands[-2]["pools"]) == (10, 3, [40])
    assert moves(settled, "contract") == {(2, s, 136) for s in (0, 1, 3)}
    assert moves(settled, "pool") == {(2, "pool", 40)}  # the labet
    assert settled["deltas"] == [142, 134, -450, 134]
    assert (settled["pool_delta"], settled["pools"]) == (40, [80])


# --- the spec's examples --------------------------------------------------------------------------
@pytest.mark.parametrize("name", example_names("russian"))
def test_example_settles_exactly(name: str) -> None:
    assert settle(load_json(EXAMPLES / f"{name}.sheet.json")) == load_json(EXAMPLES / f"{name}.settlement.json")


@pytest.mark.parametrize("name", example_names("russian", kind="error"))
def test_example_is_refused_as_expected(name: str) -> None:
    expected = load_json(EXAMPLES / f"{name}.error.json")["error"]
    got = refused(load_json(EXAMPLES / f"{name}.sheet.json"))
    assert (got["code"], got.get("hand")) == (expected["code"], expected.get("hand"))
    assert set(got["fields"]) == set(expected["fields"])
    assert got["message"].startswith(f"hand {got['hand']}: ") and "`" not in got["message"]


def test_there_are_russian_examples() -> None:
    assert len(example_names("russian")) >= 5 and len(example_names("russian", kind="error")) >= 2


# --- the basket, the tours, the бостон --------------------------------------------------------------
SIMPLE = {"bid": "simple", "bidder": 0, "trump": "spades", "turned": "spades", "jack": 1}


def test_basket_is_formed_only_when_empty() -> None:
    carried = settle(sheet([SIMPLE | {"tricks": [4, 3, 3, 3]}], pools=[7]))["hands"][0]
    assert moves(carried, "ante") == set()
    assert moves(carried, "division") == {("pool", s, 2) for s in (1, 2, 3)}  # 7 // 3, 1 stays
    hands = settle(sheet([SIMPLE | {"tricks": [4, 3, 3, 3]}, SIMPLE | {"tricks": [5, 3, 3, 2]}]))["hands"]
    assert hands[0]["pools"] == [1] and moves(hands[1], "ante") == set()  # the remainder is not re-formed
    formed = settle(sheet([SIMPLE | {"tricks": [5, 3, 3, 2]}] * 2, rules={"basket": 3}))["hands"]
    assert [moves(h, "ante") for h in formed] == [{(s, "pool", 3) for s in range(4)}] * 2


def test_all_pass_doubles_the_basket_dealer_pays_the_odd_chips() -> None:
    hands = settle(sheet([SIMPLE | {"tricks": [4, 3, 3, 3]}, {"bid": "pass", "turned": "clubs"}], rules={"basket": 5}))
    deal2 = hands["hands"][1]  # the basket holds 20 - 3 × 6 = 2: the dealer (seat 3) pays both chips
    assert deal2["dealer"] == 3 and moves(deal2) == {(3, "pool", 2)}
    assert deal2["transfers"][0]["reason"] == "pool" and deal2["pools"] == [4]
    big = last(sheet([{"bid": "pass", "turned": "clubs"}], pools=[10]))
    assert moves(big, "pool") == {(0, "pool", 4), (1, "pool", 2), (2, "pool", 2), (3, "pool", 2)}


def test_deal_passes_right_and_double_tours_are_33_to_40() -> None:
    hands = settle(sheet([{"bid": "pass", "turned": "clubs"}] * 44, first_dealer=2))["hands"]
    assert [h["dealer"] for h in hands[:5]] == [2, 1, 0, 3, 2]
    assert [h["number"] for h in hands if h["double"]] == list(range(33, 41))


def test_double_tour_forms_double_but_labet_and_doubling_pay_once() -> None:
    pad = [{"bid": "pass", "turned": "clubs"}] * 32
    hands = settle(sheet([*pad, {"bid": "solo", "bidder": 1, "trump": "hearts", "turned": "hearts", "jack": 1,
                                 "tricks": [5, 0, 4, 4]}], pools=[0]))["hands"]  # fmt: skip
    before = hands[31]["pools"][0]
    settled = hands[32]
    assert settled["double"] and before > 0 and moves(settled, "ante") == set()
    assert moves(settled, "pool") == {(1, "pool", before)}  # labet: the basket's amount, once
    assert moves(settled, "contract") == {(1, s, 2 * 136) for s in (0, 2, 3)}
    taken = {"bid": "simple", "bidder": 2, "trump": "clubs", "turned": "clubs", "jack": 0, "tricks": [2, 2, 7, 2]}
    emptied = settle(sheet([*pad[:31], taken, {"bid": "pass", "turned": "clubs"}]))["hands"]
    formed = emptied[32]
    assert emptied[31]["pools"] == [0] and formed["double"]
    assert moves(formed, "ante") == {(s, "pool", 20) for s in range(4)}
    assert moves(formed, "pool") == {(s, "pool", 20) for s in range(4)}  # 80 doubled, once


def test_past_forty_deals_are_simple() -> None:
    hands = settle(sheet([{"bid": "pass", "turned": "spades"}] * 40 + [SIMPLE | {"tricks": [6, 3, 2, 2]}]))["hands"]
    assert hands[-1]["number"] == 41 and hands[-1]["double"] is False
    assert moves(hands[-1], "contract") == {(s, 0, 8) for s in (1, 2, 3)}  # R-T5 старшая 6: once
    assert moves(hands[-1], "jack") == {(s, 1, 2) for s in (0, 2, 3)}


def test_mladshaya_is_none_when_starshaya_is_turned_again() -> None:
    hands = [
        SIMPLE | {"tricks": [6, 3, 2, 2]},
        SIMPLE | {"trump": "hearts", "turned": "spades", "tricks": [6, 3, 2, 2]},
    ]
    error = refused(sheet(hands))
    assert error["hand"] == 2 and "старшая was turned again" in error["fields"]["trump"][0]


def test_third_suit_rate_prices_a_solo_outside_both_suits() -> None:
    solo: dict[str, Any] = {
        "bid": "solo",
        "bidder": 0,
        "trump": "clubs",
        "turned": "hearts",
        "jack": 1,
        "tricks": [8, 1, 2, 2],
    }
    deal2: list[dict[str, Any]] = [{"bid": "pass", "turned": "spades"}, solo]
    assert moves(last(sheet(deal2)), "contract") == {(s, 0, 16) for s in (1, 2, 3)}
    assert moves(last(sheet(deal2, rules={"third_suit_rate": "starshaya"})), "contract") == {
        (s, 0, 32) for s in (1, 2, 3)
    }
    in_mladshaya = solo | {"trump": "hearts"}
    assert moves(last(sheet([deal2[0], in_mladshaya], rules={"third_suit_rate": "starshaya"})), "contract") == {
        (s, 0, 16) for s in (1, 2, 3)
    }


def test_nine_made_pays_base_as_contract_and_extra_as_overtricks() -> None:
    rules = {"nine": {"base": 10, "extra": 3}}
    nine = {"bid": "nine", "bidder": 0, "trump": "spades", "turned": "spades", "jack": 0}
    made = last(sheet([nine | {"tricks": [11, 1, 1, 0]}], rules=rules))
    assert moves(made, "contract") == {(s, 0, 20) for s in (1, 2, 3)}  # старшая: × 2
    assert moves(made, "overtricks") == {(s, 0, 12) for s in (1, 2, 3)}
    assert moves(made, "pool") == {("pool", 0, 40)}
    failed = last(sheet([nine | {"tricks": [7, 2, 2, 2]}], rules=rules))
    assert moves(failed, "contract") == {(0, s, 32) for s in (1, 2, 3)} and moves(failed, "overtricks") == set()
    assert moves(failed, "pool") == {(0, "pool", 40)}
    exact = last(sheet([nine | {"tricks": [9, 2, 2, 0]}], rules=rules))
    assert moves(exact, "overtricks") == set()


def test_supported_failures_by_quota() -> None:
    pair = {"bid": "simple", "bidder": 0, "partner": 1, "trump": "spades", "turned": "spades", "jack": 2}
    supporter_short = last(sheet([pair | {"tricks": [6, 1, 3, 3]}]))  # T = 7, the supporter short
    assert moves(supporter_short, "contract") == {(1, 2, 8), (1, 3, 8)}
    assert moves(supporter_short, "pool") == {(1, "pool", 40)}
    both = last(sheet([pair | {"tricks": [3, 1, 5, 4]}]))  # buyer 2 short, supporter 2 short
    assert moves(both, "contract") == {(0, 2, 12), (0, 3, 12), (1, 2, 12), (1, 3, 12)}
    assert moves(both, "pool") == {(0, "pool", 20), (1, "pool", 20)}
    odd = last(sheet([pair | {"tricks": [3, 1, 5, 4]}], pools=[7]))  # labet 7: G-3, the buyer 4
    assert moves(odd, "pool") == {(0, "pool", 4), (1, "pool", 3)}


def test_supported_made_adjacent_pairs_and_shares_the_basket() -> None:
    pair = {"bid": "simple", "bidder": 1, "partner": 2, "trump": "spades", "turned": "spades", "jack": 2}
    settled = last(sheet([pair | {"tricks": [2, 5, 5, 1]}], pools=[9]))
    assert moves(settled, "contract") == {(0, 1, 12), (3, 2, 12)}
    assert moves(settled, "pool") == {("pool", 1, 4), ("pool", 2, 4)} and settled["pools"] == [1]


def test_boston_in_a_misere() -> None:
    misere = {"bid": "misere", "bidder": 0, "turned": "spades"}
    rules = {"misere": 15}
    made = last(sheet([misere | {"jack": 2, "tricks": [0, 5, 4, 4]}], rules=rules))
    assert moves(made, "jack") == set() and moves(made, "contract") == {(s, 0, 15) for s in (1, 2, 3)}
    lost = last(sheet([misere | {"jack": 2, "tricks": [1, 0, 0, 0]}], rules=rules))
    assert moves(lost, "jack") == {(0, s, 2) for s in (1, 2, 3)}  # he pays it; the holder gets no more
    assert moves(lost, "contract") == {(0, s, 15) for s in (1, 2, 3)} and moves(lost, "pool") == {(0, "pool", 40)}
    lost_holding = last(sheet([misere | {"jack": 0, "tricks": [2, 0, 0, 0]}], rules=rules))
    assert moves(lost_holding, "jack") == set()


def test_boston_goes_to_its_holder_whoever_he_is() -> None:
    settled = last(sheet([SIMPLE | {"jack": 0, "tricks": [2, 4, 4, 3]}]))
    assert moves(settled, "jack") == {(s, 0, 2) for s in (1, 2, 3)}


def test_revoke_by_the_buyers_side() -> None:
    pair = {"bid": "simple", "bidder": 0, "partner": 2, "trump": "spades", "turned": "spades", "jack": 1}
    void = last(sheet([pair | {"revoke": 2, "tricks": [5, 2, 4, 1]}]))  # made: void
    assert {t["reason"] for t in void["transfers"]} == {"ante", "jack"} and void["pools"] == [40]
    lost = last(sheet([pair | {"revoke": 0, "tricks": [3, 4, 3, 2]}]))  # failed: a normal failure
    assert moves(lost, "contract") == {(0, 1, 12), (0, 3, 12)} and moves(lost, "pool") == {(0, "pool", 40)}
    void_misere = last(sheet([{"bid": "misere", "bidder": 3, "turned": "spades", "jack": 1, "revoke": 3,
                               "tricks": [1, 1, 1, 0]}], rules={"misere": 9}))  # fmt: skip
    assert {t["reason"] for t in void_misere["transfers"]} == {"ante"}
    nine = {"bid": "nine", "bidder": 1, "trump": "clubs", "turned": "spades", "jack": 2, "revoke": 1}
    void_nine = last(sheet([nine | {"tricks": [1, 10, 1, 1]}], rules={"nine": {"base": 5, "extra": 1}}))
    assert {t["reason"] for t in void_nine["transfers"]} == {"ante", "jack"} and void_nine["pools"] == [40]


# --- validation (rules.md §0.10, §4.3) --------------------------------------------------------------
def hand_error(hands: list[dict[str, Any]], **extra: Any) -> tuple[str, int | None, dict[str, list[str]]]:
    error = refused(sheet(hands, **extra))
    return error["code"], error.get("hand"), error["fields"]


GOOD = SIMPLE | {"tricks": [5, 3, 3, 2]}


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"bid": "independence"}, "bid", "choose a bid: simple (прикуп), solo (индепанданс)"),
        ({"turned": None}, "turned", "choose the suit of the turned card: deal 1's"),
        ({"turned": "stars"}, "turned", "choose the suit of the turned card: clubs"),
        ({"jack": None}, "jack", "choose who held the бостон"),
        ({"jack": 4}, "jack", "choose one of the four players"),
        ({"jack": True}, "jack", "choose one of the four players"),
        ({"bidder": None}, "bidder", "choose who bid"),
        ({"trump": None}, "trump", "choose the trump: clubs, diamonds, hearts or spades"),
        ({"trump": "none"}, "trump", "choose the trump: clubs, diamonds, hearts or spades"),
        ({"trump": "hearts"}, "trump", "played in старшая: spades ♠ this deal (the first deal has no младшая)"),
        ({"partner": 0}, "partner", "the partner must be another player than the bidder"),
        ({"honours": 4}, "honours", "honours are not paid"),
        ({"conceded": True}, "conceded", "nobody concedes in Russian Boston"),
        ({"last_trick": 1}, "last_trick", "Russian Boston has no last-trick hand"),
        ({"revoke": 4}, "revoke", "choose one of the four players"),
        ({"tricks": [5, 3, 3, 1]}, "tricks", "must add up to 13, not 12"),
        ({"tricks": [5, 3, 3]}, "tricks", "enter four whole numbers of tricks"),
        ({"tricks": [14, 0, 0, 0]}, "tricks", "enter four whole numbers of tricks"),
        ({"number": 2}, "number", "this is deal 1: correct the deal number or leave it out"),
        ({"bonus": 1}, "bonus", "bonus is not part of a hand"),
        ({"adjustments": [{"from": 0, "to": 0, "counters": 1, "note": "x"}]}, "adjustments", "must differ"),
    ],
)
def test_hand_field_rules(change: dict[str, Any], field: str, words: str) -> None:
    hand = {k: v for k, v in (GOOD | change).items() if v is not None}
    code, number, fields = hand_error([hand])
    assert (code, number) == ("invalid_hand", 1)
    assert field in fields and any(words in message for message in fields[field]), fields


def test_simple_trump_must_be_starshaya_or_mladshaya() -> None:
    code, number, fields = hand_error([GOOD, GOOD | {"turned": "hearts", "trump": "clubs"}])
    assert (code, number) == ("invalid_hand", 2)
    message = fields["trump"][0]
    assert "played in старшая or младшая: spades ♠ or hearts ♥ this deal, not clubs ♣" in message


def test_solo_and_nine_take_any_suit_and_no_partner() -> None:
    solo = {"bid": "solo", "bidder": 0, "trump": "diamonds", "turned": "spades", "jack": 0, "tricks": [8, 2, 2, 1]}
    settle(sheet([solo]))
    _, _, fields = hand_error([solo | {"partner": 2}])
    assert "a solo (индепанданс) is played alone" in fields["partner"][0]
    settle(sheet([solo | {"revoke": 1}]))  # an opponent's revoke is priced (rules.md §0.11)


def test_misere_fields() -> None:
    misere = {"bid": "misere", "bidder": 1, "turned": "spades", "jack": 1, "tricks": [1, 0, 1, 1]}
    rules = {"misere": 10}
    settle(sheet([misere], rules=rules))
    _, _, fields = hand_error([misere | {"trump": "spades"}], rules=rules)
    assert fields == {"trump": ["a misère is played without trumps: leave the trump empty"]}
    _, _, fields = hand_error([misere | {"tricks": [5, 5, 5, 0]}], rules=rules)
    assert "must add up to at most 13, not 15" in fields["tricks"][0]
    _, _, fields = hand_error([misere | {"partner": 2}], rules=rules)
    assert "a misère (мизер) is played alone" in fields["partner"][0]


def test_pass_fields() -> None:
    settle(sheet([{"bid": "pass", "turned": "clubs"}]))
    _, _, fields = hand_error([{"bid": "pass", "turned": "clubs", "tricks": [4, 3, 3, 3], "jack": 1, "bidder": 0}])
    assert "when all four pass the cards are thrown in: leave the tricks empty" in fields["tricks"][0]
    assert "when all four pass the cards are thrown in: leave the бостон (♦J /" in fields["jack"][0]
    assert "cards are thrown in: leave the buyer empty" in fields["bidder"][0]
    _, _, fields = hand_error([{"bid": "pass"}])
    assert "choose the suit of the turned card: deal 1's" in fields["turned"][0]


def test_required_fields_are_explained_in_the_rulebook_words() -> None:
    declared = VARIANT.declaration.bid
    assert "старшая (belle)" in VARIANT.required_message("turned", declared["pass"])
    assert "бостон (♦J, or ♥J when diamonds are trumps" in VARIANT.required_message("jack", declared["solo"])


def test_a_hand_lists_every_broken_field() -> None:
    _, _, fields = hand_error([{k: v for k, v in GOOD.items() if k != "jack"} | {"honours": 3, "conceded": True}])
    assert set(fields) == {"honours", "conceded", "jack"}
    _, _, fields = hand_error([GOOD, GOOD | {"turned": "hearts", "trump": "clubs", "revoke": 7}])
    assert set(fields) == {"trump", "revoke"}


@pytest.mark.parametrize(
    ("bid", "option", "message"),
    [
        (
            "nine",
            "rules.nine",
            "a nine (девять взяток) needs the house rule “Nine amounts”: set its amounts when opening the session",
        ),
        (
            "misere",
            "rules.misere",
            "a misère (мизер) needs the house rule “Misère amount”: set its amounts when opening the session",
        ),
    ],
)
def test_nine_and_misere_need_their_option(bid: str, option: str, message: str) -> None:
    hand = {"bid": bid, "bidder": 0, "turned": "spades", "jack": 0, "tricks": [9, 2, 2, 0]}
    if bid == "nine":
        hand["trump"] = "spades"
    error = refused(sheet([GOOD, hand]))
    assert (error["code"], error["hand"], error["fields"]) == ("option_required", 2, {option: [message]})
    assert error["message"] == f"hand 2: {message}"


def test_field_errors_come_before_the_option_and_the_option_before_the_pool() -> None:
    misere = {"bid": "misere", "bidder": 0, "turned": "spades", "jack": 0, "tricks": [0, 5, 4, 4]}
    assert refused(sheet([misere | {"honours": 3}]))["code"] == "invalid_hand"
    greedy = {"adjustments": [{"from": "pool", "to": 1, "counters": 999, "note": "ruling"}]}
    assert refused(sheet([misere | greedy]))["code"] == "option_required"
    error = refused(sheet([misere | greedy], rules={"misere": 5}))
    assert (error["code"], list(error["fields"])) == ("invalid_hand", ["adjustments"])
    assert "adjustment 1 takes 999 from the pool" in error["fields"]["adjustments"][0]


@pytest.mark.parametrize(
    ("rules", "option", "words"),
    [
        ({"basket": 0}, "basket", "1 or more"),
        ({"basket": True}, "basket", "whole number"),
        ({"basket": "10"}, "basket", "whole number"),
        (
            {"third_suit_rate": "hearts"},
            "third_suit_rate",
            "Rate of a third suit: choose one of mladshaya or starshaya",
        ),
        ({"nine": {"base": 10}}, "nine", "Nine amounts: give base or extra"),
        ({"nine": [10, 2]}, "nine", "Nine amounts: give base or extra"),
        ({"nine": {"base": -1, "extra": 0}}, "nine", "Nine amounts: base must be a whole number, 0 or more"),
        ({"nine": {"base": 1, "extra": False}}, "nine", "Nine amounts: extra must be a whole number, 0 or more"),
        ({"misere": -5}, "misere", "0 or more"),
        ({"misere": 2.5}, "misere", "whole number"),
        ({"ante": 5}, "ante", "ante is not a house rule of this variant (its rules: “Basket”,"),
    ],
)
def test_option_rules(rules: dict[str, Any], option: str, words: str) -> None:
    error = refused(sheet([], rules=rules))
    assert error["code"] == "invalid_option" and "hand" not in error
    assert words in error["fields"][f"rules.{option}"][0]


def test_null_nine_and_misere_mean_unset() -> None:
    assert settle(sheet([GOOD], rules={"nine": None, "misere": None}))["balances"]
    hand = {"bid": "misere", "bidder": 0, "turned": "spades", "jack": 0, "tricks": [0, 5, 4, 4]}
    assert refused(sheet([hand], rules={"misere": None}))["code"] == "option_required"


def test_one_basket_only() -> None:
    error = refused(sheet([], pools=[10, 20]))
    assert (error["code"], list(error["fields"])) == ("invalid_sheet", ["pools"])
    assert "Бостон" in error["fields"]["pools"][0]


# --- random parties -------------------------------------------------------------------------------
def _tricks(draw: Any, total: int, side: list[int]) -> list[int]:
    """`total` tricks: the buying side's drawn first (so every outcome comes up), the rest split at random."""
    tricks = [0, 0, 0, 0]
    for seat in side:
        tricks[seat] = draw(st.integers(0, total - sum(tricks)))
    rest, free = total - sum(tricks), [s for s in range(4) if s not in side]
    cuts = sorted(draw(st.lists(st.integers(0, rest), min_size=len(free) - 1, max_size=len(free) - 1)))
    for seat, low, high in zip(free, [0, *cuts], [*cuts, rest], strict=True):
        tricks[seat] = high - low
    return tricks


@st.composite
def house_rules(draw: Any) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    if draw(st.booleans()):
        rules["basket"] = draw(st.integers(1, 25))
    if draw(st.booleans()):
        rules["third_suit_rate"] = draw(st.sampled_from([MLADSHAYA, STARSHAYA]))
    if draw(st.booleans()):
        rules["nine"] = {"base": draw(st.integers(0, 40)), "extra": draw(st.integers(0, 10))}
    if draw(st.booleans()):
        rules["misere"] = draw(st.integers(0, 60))
    return rules


@st.composite
def a_hand(draw: Any, number: int, starshaya: str | None, rules: dict[str, Any]) -> dict[str, Any]:
    turned = draw(st.sampled_from(SUITS))
    starshaya = turned if number == 1 else starshaya
    bids = (
        ["simple", "simple", "simple", "solo", "pass"] + ["nine"] * ("nine" in rules) + ["misere"] * ("misere" in rules)
    )
    bid = draw(st.sampled_from(bids))
    hand: dict[str, Any] = {"bid": bid, "turned": turned}
    if bid != "pass":
        bidder = draw(st.integers(0, 3))
        side = [bidder]
        hand |= {"bidder": bidder, "jack": draw(st.integers(0, 3))}
        if bid == "simple":
            hand["trump"] = draw(st.sampled_from(sorted({starshaya, turned})))
            if draw(st.integers(0, 2)):
                hand["partner"] = draw(st.sampled_from([s for s in range(4) if s != bidder]))
                side.append(hand["partner"])
        elif bid != "misere":
            hand["trump"] = draw(st.sampled_from(SUITS))
        if draw(st.integers(0, 7)) == 0:
            hand["revoke"] = draw(st.sampled_from(side))
        exact = bid != "misere" and "revoke" not in hand
        hand["tricks"] = _tricks(draw, 13 if exact else draw(st.integers(0, 13)), side)
    if draw(st.integers(0, 9)) == 0:
        frm, to = draw(st.permutations(range(4)))[:2]
        hand["adjustments"] = [
            {
                "from": frm,
                "to": draw(st.sampled_from([to, "pool"])),
                "counters": draw(st.integers(1, 30)),
                "note": "ренонс",
            }
        ]
    return hand


@st.composite
def parties(draw: Any) -> dict[str, Any]:
    rules = draw(house_rules())
    hands: list[dict[str, Any]] = []
    starshaya = None
    for number in range(1, draw(st.integers(40, 46)) + 1):
        hands.append(draw(a_hand(number, starshaya, rules)))
        starshaya = starshaya or hands[0]["turned"]
    extra: dict[str, Any] = {"rules": rules, "first_dealer": draw(st.integers(0, 3))}
    extra["pools"] = draw(st.sampled_from([[], [0], [draw(st.integers(1, 300))]]))
    if draw(st.booleans()):
        extra["stake"] = {"currency": "RUB", "per_counter": draw(st.sampled_from(["0.5", "1", "0.01"]))}
        extra["close"] = {"pools": draw(st.sampled_from(["divide", "carry"]))}
    return sheet(hands, **extra)


@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(parties())
def test_random_parties_conserve_every_chip(raw: dict[str, Any]) -> None:
    result = settle(copy.deepcopy(raw))
    carried = sum(raw["pools"])
    rules = raw["rules"]
    basket_before = carried
    balances = [0, 0, 0, 0]
    assert len(result["hands"]) == len(raw["hands"])
    for number, (hand, settled) in enumerate(zip(raw["hands"], result["hands"], strict=True), 1):
        double = 33 <= number <= 40
        assert settled["number"] == number and settled["double"] is double
        assert settled["dealer"] == (raw["first_dealer"] + 3 * (number - 1)) % 4
        assert sum(settled["balances"]) + sum(settled["pools"]) == carried
        keys = [(t["from"], t["to"], t["reason"]) for t in settled["transfers"]]
        assert len(keys) == len(set(keys))
        assert all(t["counters"] > 0 and t["reason"] in REASONS for t in settled["transfers"])
        deltas = [0, 0, 0, 0]
        for t in settled["transfers"]:
            if t["from"] != "pool":
                deltas[t["from"]] -= t["counters"]
            if t["to"] != "pool":
                deltas[t["to"]] += t["counters"]
        assert deltas == settled["deltas"]
        balances = [b + d for b, d in zip(balances, deltas, strict=True)]
        assert balances == settled["balances"]
        tour = 2 if double else 1
        formed = {(s, "pool", rules.get("basket", 10) * tour) for s in range(4)} if basket_before == 0 else set()
        assert moves(settled, "ante") == formed
        assert settled["pools"][0] >= 0
        if hand["bid"] not in ("pass", "misere"):
            assert moves(settled, "jack") == {(s, hand["jack"], 2 * tour) for s in range(4) if s != hand["jack"]}
        basket_before = settled["pools"][0]
    assert result["balances"] == balances and result["pools"] == [basket_before]
    assert settle(copy.deepcopy(raw)) == result  # deterministic


# --- UTF-8 --------------------------------------------------------------------------------------
def test_errors_in_russian_round_trip_as_utf8() -> None:
    error = refused(sheet([GOOD, GOOD | {"turned": "hearts", "trump": "clubs"}]))
    data = json.dumps({"error": error}, ensure_ascii=False).encode("utf-8")
    assert "старшая".encode() in data and json.loads(data.decode("utf-8")) == {"error": error}


def test_settle_command_prints_russian_as_utf8() -> None:
    raw = sheet([GOOD, GOOD | {"turned": "hearts", "trump": "clubs"}])
    run = subprocess.run(
        [sys.executable, "manage.py", "settle", "-"],
        cwd=ROOT,
        input=json.dumps(raw, ensure_ascii=False).encode("utf-8"),
        capture_output=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "clubscore.settings", "LANG": "C"},
    )
    assert run.returncode == 2, run.stderr
    out = run.stdout.decode("utf-8")
    assert "played in старшая or младшая: spades ♠ or hearts ♥" in out
    assert json.loads(out)["error"]["fields"]["trump"][0].startswith("a simple (прикуп) is played in старшая")
