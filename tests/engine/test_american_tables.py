"""Every cell of the American tables (A-T1 to A-T5) against rules.md §1.3 as printed."""

from __future__ import annotations

import pytest

from ledger.engine.variants import american
from tests.engine.spec_tables import int_cell, table_after

ROWS = {"Five": 5, "Six": 6, "Seven": 7, "Eight": 8, "Nine": 9, "Ten": 10, "Eleven": 11, "Twelve": 12, "Thirteen": 13}


def printed(marker: str) -> dict[int, dict[int, int]]:
    header, *rows = table_after(marker)
    columns = [int(c) for c in header[1:]]
    out: dict[int, dict[int, int]] = {}
    for row in rows:
        cells = {col: int_cell(c) for col, c in zip(columns, row[1:], strict=True)}
        out[ROWS.get(row[0], 0)] = {col: v for col, v in cells.items() if v is not None}
    return out


def test_classic_success_every_cell() -> None:
    table = printed("**A-T1, classic success**")
    assert set(table) == set(american.CLASSIC_SUCCESS)
    for bid, row in table.items():
        assert american.CLASSIC_SUCCESS[bid] == row, bid


def test_decimal_success_every_cell() -> None:
    header, row = table_after("**A-T2, decimal success**")
    printed_row = {int(col): int(v) for col, v in zip(header[1:], row[1:], strict=True)}
    assert printed_row == american.DECIMAL_SUCCESS


@pytest.mark.parametrize(
    ("marker", "table"),
    [("**A-T3, classic failure**", american.CLASSIC_FAILURE), ("**A-T4, decimal failure**", american.DECIMAL_FAILURE)],
)
def test_failure_tables_every_cell(marker: str, table: dict[int, tuple[int, ...]]) -> None:
    printed_table = printed(marker)
    assert set(printed_table) == set(table)
    for bid, row in printed_table.items():
        assert sorted(row) == list(range(1, bid + 1)), f"row {bid} must run from 1 to {bid} short"
        assert table[bid] == tuple(row[s] for s in range(1, bid + 1)), bid


def test_misere_amounts() -> None:
    assert american.MISERES == {"little_misere": 20, "grand_misere": 40, "little_spread": 80, "grand_spread": 160}


@pytest.mark.parametrize("bid", sorted(ROWS.values()))
def test_lookups_use_the_right_table(bid: int) -> None:
    classic = american.Options(table="classic")
    decimal = american.Options()
    assert american.success_amount(decimal, bid, 13) == american.DECIMAL_SUCCESS[bid]
    assert american.success_amount(classic, bid, 13) == american.CLASSIC_SUCCESS[bid][13]
    assert american.put_in_for(decimal, bid, bid) == american.DECIMAL_FAILURE[bid][-1]
    assert american.put_in_for(classic, bid, 1) == american.CLASSIC_FAILURE[bid][0]
