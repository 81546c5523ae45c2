"""The variants the engine knows, by their `variant` code; each is one module of its own."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported by its variant modules only: `ledger.engine.sheet` imports this package first
    from .base import Variant

_MODULES = {
    "american": "american",
    "fontainebleau": "fontainebleau",
    "french": "french",
    "russian": "russian",
}


@cache
def variant_names() -> tuple[str, ...]:
    """The codes whose module is present (a variant lands as one new module, nothing else)."""
    names = []
    for name, module in _MODULES.items():
        try:
            import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module}":
                raise
            continue
        names.append(name)
    return tuple(names)


@cache
def get_variant(name: str) -> Variant:
    module = import_module(f"{__name__}.{_MODULES[name]}")
    return module.VARIANT
