"""The one writer of the service's CSV files (page exports and the API's): every cell a spreadsheet
would run as a formula (text starting with `=`, `+`, `-`, `@`, a tab or a carriage return, names and
notes included) is written as text with a leading `'`. A cell is text unless the service wrote it as
a number (`int`, `Decimal`, `Amount`): `-Infinity` typed as a name is text, and escaped.

For a person (`for_people`), the file opens cleanly in a spreadsheet in the page's language: a
byte-order mark (so it is read as UTF-8), the language's decimal sign, and `;` between cells where the
decimal sign is a comma (French and Russian spreadsheets expect it). For data (the API), UTF-8 with
commas and points, as before."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils import formats

from ledger.currency import minor_units

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"


@dataclass(frozen=True)
class Amount:
    """An amount in minor units of a currency: a number cell, `-12.50` (`-12,50` for people in French)."""

    cents: int
    currency: str

    def text(self, point: str) -> str:
        exponent = minor_units(self.currency)
        whole, part = divmod(abs(self.cents), 10**exponent)
        out = f"{whole}{point}{part:0{exponent}d}" if exponent else str(whole)
        return ("-" if self.cents < 0 else "") + out


def escaped(value: str) -> str:
    return "'" + value if value[:1] in FORMULA_STARTS else value


def cell(value: Any, point: str = ".") -> Any:
    if isinstance(value, Amount):
        return value.text(point)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | Decimal):
        return str(value).replace(".", point)
    if value is None:
        return ""
    return escaped(str(value))


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]], *, for_people: bool) -> str:
    point = str(formats.get_format("DECIMAL_SEPARATOR")) if for_people else "."
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";" if point == "," else ",", lineterminator="\r\n")
    writer.writerow([cell(h) for h in header])
    for row in rows:
        writer.writerow([cell(v, point) for v in row])
    return (BOM if for_people else "") + buffer.getvalue()
