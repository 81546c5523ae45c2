"""Reading the pages' HTML in tests: a table's body cells, an element's text, data-* attributes."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any


class _Tables(HTMLParser):
    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id = table_id
        self.depth = 0  # >0 while inside the wanted table
        self.in_body = False
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            if self.depth:
                self.depth += 1
            elif dict(attrs).get("id") == self.table_id:
                self.depth = 1
        if not self.depth:
            return
        if tag == "tbody":
            self.in_body = True
        elif tag == "tr" and self.in_body:
            self.rows.append([])
        elif tag in ("td", "th") and self.in_body:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if not self.depth:
            return
        if tag == "table":
            self.depth -= 1
        elif tag == "tbody":
            self.in_body = False
        elif tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def table_rows(html: str, table_id: str) -> list[list[str]]:
    """The body rows of `<table id=table_id>`, each a list of its cells' text (the row heading first)."""
    parser = _Tables(table_id)
    parser.feed(html)
    assert parser.rows or f'id="{table_id}"' in html, f"no table {table_id}"
    return parser.rows


def json_script(html: str, element_id: str) -> Any:
    match = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S)
    assert match, f"no json_script {element_id}"
    return json.loads(match.group(1))


def data_n(fragment: str) -> list[int]:
    """The signed numbers (`data-n`) in a piece of HTML, in order."""
    return [int(v) for v in re.findall(r'data-n="(-?\d+)"', fragment)]


def element(html: str, element_id: str) -> str:
    """The HTML from the element with this id to the end of its parent-level block (good enough for tests)."""
    start = html.index(f'id="{element_id}"')
    return html[start:]


def as_int(text: str) -> int:
    """A cell's signed, grouped number as an int ('+1,250' -> 1250, '−25' -> -25)."""
    return int(text.replace("\u2212", "-").replace(",", "").replace("+", "").split()[0])
