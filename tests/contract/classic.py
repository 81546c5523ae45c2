"""Classic American Boston: a fifth variant derived as docs/variants.md says, to hold the house to that page.

Foster's Boston of seed 000 ("Part 21") as the book prints it: American Boston, but only the classic
tables (A-T1, A-T3, over-tricks paid) and no pool limit. It is not one of the four of `rules.md`: it
lives in tests/ and is named in `VARIANTS` only while `tests/contract/test_a_fifth_variant.py` runs (its
fixture `fifth`); its words not already in the engine's catalogs are in tests/contract/locale.
"""

from __future__ import annotations

from ledger.engine.variants.american import DECLARATION as AMERICAN
from ledger.engine.variants.american import American

CLASSIC_TABLES = ("a-t1", "a-t3", "a-t5")  # the decimal A-T2 and A-T4 are the clubs' later tables

DECLARATION = AMERICAN.derive(
    name="classic_contract",  # not "classic": a real Classic American Boston may be registered beside it
    title="Classic American Boston (contract test)",
    short_title="Classic (test)",
    source="Foster's Complete Hoyle, \"Boston\" (Part 21), with its classic tables only: the contract test's copy.",
    options={
        "table": {"default": "classic", "choices": ("classic",), "choice_labels": ("classic",)},
        "pool_limit": {"default": None},
    },
    tables=tuple(table for table in AMERICAN.tables if table.id in CLASSIC_TABLES),
)


class Classic(American):
    declaration = DECLARATION


VARIANT = Classic()
