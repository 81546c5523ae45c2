"""No test lists the variants by their codes to cover each of them (issue 40, item 2): a per-variant test
reads `variant_names()` (or the declarations), so a fifth variant is covered the day it is named, not
silently left out. A mapping keyed by codes (a variant's own figures, its scripted evening, its section
of rules.md) is data about those variants and is allowed; a list, tuple or set of the codes is not."""

from __future__ import annotations

import ast
from pathlib import Path

from ledger.engine.variants import variant_names

TESTS = Path(__file__).resolve().parents[1]


def listings(source: str, codes: frozenset[str]) -> list[int]:
    """The lines of `source` where a list, tuple or set literal names every one of `codes`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            named = {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            if codes <= named:
                found.append(node.lineno)
    return found


def test_no_test_lists_the_variants_by_their_codes() -> None:
    codes = frozenset(variant_names())
    assert len(codes) >= 2
    found = [
        f"{path.relative_to(TESTS)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        for line in listings(path.read_text(encoding="utf-8"), codes)
    ]
    assert not found, f"read variant_names() instead of listing the variants: {found}"


def test_a_listing_of_the_codes_is_found() -> None:
    codes = frozenset({"american", "french"})
    source = 'import pytest\n\n@pytest.mark.parametrize("v", ["american", "french"])\ndef test(v): ...\n'
    assert listings(source, codes) == [3]
    assert listings('ONE = {"american": 12, "french": 40}\nSOME = ("american",)\n', codes) == []
