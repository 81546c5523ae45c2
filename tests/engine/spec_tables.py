"""Read the payment tables printed in rules.md (the spec's, `tests.conftest.RULES_MD`), cell by cell.

The engine's tables are transcribed by hand; reading the spec's own markdown here lets a test hold
every transcribed cell against the printed one.
"""

from __future__ import annotations

from tests.conftest import RULES_MD

RULES = RULES_MD


def table_after(marker: str) -> list[list[str]]:
    """The rows (header first, separator dropped) of the first markdown table after `marker`."""
    lines = RULES.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if marker in line)
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells):
                rows.append(cells)
        elif rows:
            break
    return rows


def int_cell(cell: str) -> int | None:
    cell = cell.replace("†", "").strip()
    return int(cell) if cell else None
