"""The variants the engine knows: one explicit list, as python-chess's `VARIANTS`.

A variant is its module and its declaration; naming it here is the one line outside its module that
makes it known (docs/variants.md). Everything else (the API, the pages, the statistics, the samples,
the catalogs) reads `VARIANTS` or `find_variant`.
"""

from __future__ import annotations

from .american import VARIANT as AMERICAN
from .base import Variant
from .fontainebleau import VARIANT as FONTAINEBLEAU
from .french import VARIANT as FRENCH
from .russian import VARIANT as RUSSIAN

VARIANTS: list[Variant] = [AMERICAN, FONTAINEBLEAU, FRENCH, RUSSIAN]


def find_variant(name: str) -> Variant:
    """The variant whose code is `name`, or one of its `aliases` (its French or Russian name, as a sheet
    or the API may give it); a `ValueError` when there is none. Callers keep the variant's `name`."""
    for variant in VARIANTS:
        if variant.name == name:
            return variant
    for variant in VARIANTS:
        if name in variant.declaration.aliases:
            return variant
    raise ValueError(f"unknown variant: {name!r}")


def variant_names() -> tuple[str, ...]:
    """The codes of the known variants, in the order of `VARIANTS`."""
    return tuple(variant.name for variant in VARIANTS)


def get_variant(name: str) -> Variant:
    """`find_variant` under the name the callers have always used."""
    return find_variant(name)


__all__ = ["VARIANTS", "Variant", "find_variant", "get_variant", "variant_names"]
