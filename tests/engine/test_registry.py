"""The registry and derivation (issue 40, item 1): a variant found by its code or its other names, and a
declaration that says "American, but" with the rest inherited."""

from __future__ import annotations

import pytest

from ledger.engine import parse_sheet, settle
from ledger.engine.variants import VARIANTS, find_variant, variant_names
from ledger.engine.variants.declaration import BOOLEAN, Option
from tests.engine.helpers import sheet


def test_every_alias_names_one_variant_and_no_code() -> None:
    names = [v.name for v in VARIANTS]
    aliases = [alias for v in VARIANTS for alias in v.declaration.aliases]
    assert len(aliases) == len(set(aliases)) and not set(aliases) & set(names)
    for variant in VARIANTS:
        for alias in variant.declaration.aliases:
            assert find_variant(alias) is variant


@pytest.mark.parametrize("variant", variant_names())
def test_a_sheet_under_another_name_is_stored_and_settled_under_the_code(variant: str) -> None:
    declaration = find_variant(variant).declaration
    for alias in declaration.aliases:
        raw = {**sheet(variant, []), "variant": alias}
        assert parse_sheet(raw).variant == variant
        assert settle(raw) == settle(sheet(variant, []))


def test_the_french_and_russian_names_are_known() -> None:
    assert find_variant("boston-de-fontainebleau").name == "fontainebleau"
    assert find_variant("boston-français").name == "french"
    assert find_variant("русский-бостон").name == "russian"
    with pytest.raises(ValueError):
        find_variant("boston")


def test_a_derived_declaration_changes_what_it_names_and_inherits_the_rest() -> None:
    american = find_variant("american").declaration
    extra = Option("house_extra", BOOLEAN, False, american.options[0].label, american.options[0].help)
    derived = american.derive(
        name="derived",
        options={"table": {"default": "classic"}, "last_trick_hand": None, "house_extra": extra},
        bids={"last_trick": None},
    )
    names = ["table", "ante", "pool_limit", "misdeal_penalty", "pay_instead_short", "house_extra"]
    assert [o.name for o in derived.options] == names
    assert derived.default_options.table == "classic" and american.default_options.table == "decimal"
    assert derived.codes == tuple(code for code in american.codes if code != "last_trick")
    assert derived.tables == american.tables and derived.deals == american.deals
    assert derived.aliases == () and american.aliases
    with pytest.raises(ValueError):
        american.derive(title="no name of its own")
    with pytest.raises(ValueError):
        american.derive(name="x", options={"nonsense": {"default": 1}})
