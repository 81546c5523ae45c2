"""Money shown one way everywhere: the server decides each currency's minor units (ISO 4217, the
engine's table) and this is the one formatter of amounts on the server. The pages' script formats
with the same exponents, which the pages hand it (`units_table`), never from the browser's own idea.

Amounts are integers in the currency's minor unit (`scoresheet.md`, "Money").
"""

from __future__ import annotations

from ledger.engine.closing import MINOR_UNIT_EXPONENTS, minor_unit_exponent

MINUS = "\u2212"  # the same minus sign as the counters on the pages
DEFAULT_EXPONENT = 2


def minor_units(currency: str) -> int:
    """How many decimals the currency's minor unit has (USD 2, JPY 0, KWD 3)."""
    return minor_unit_exponent(currency)


def money_text(cents: int, currency: str, *, signed: bool = False, grouped: bool = True, minus: str = MINUS) -> str:
    """Minor units as a decimal amount of the currency: `1,234.56`, `−25`, `+0.500` (signed: a plus
    before amounts above zero). Ungrouped with an ASCII minus it is what a spreadsheet reads: `-1234.56`."""
    exponent = minor_units(currency)
    whole, part = divmod(abs(cents), 10**exponent)
    text = f"{whole:,}" if grouped else str(whole)
    if exponent:
        text += f".{part:0{exponent}d}"
    if cents < 0:
        return minus + text
    return ("+" + text) if signed and cents > 0 else text


def units_table() -> dict[str, int]:
    """The exponents the pages' script formats with: the currencies that differ from the default, and it."""
    return {"default": DEFAULT_EXPONENT, **MINOR_UNIT_EXPONENTS}


def parse_money(text: str, currency: str) -> int:
    """A decimal amount typed in the currency (`12.50`, `12,50`, `1 234`) as minor units; ValueError
    with the reason when it is not one, or has more decimals than the currency's minor unit."""
    exponent = minor_units(currency)
    cleaned = (text or "").strip().replace("\u00a0", "").replace(" ", "").replace("_", "")
    if cleaned.count(",") == 1 and "." not in cleaned and 0 < len(cleaned.split(",")[1]) <= exponent:
        cleaned = cleaned.replace(",", ".")  # a decimal comma (12,50), not a thousands one (1,234)
    cleaned = cleaned.replace(",", "")
    whole, _, part = cleaned.partition(".")
    if (not whole.isdigit() and not (whole == "" and part.isdigit())) or (part and not part.isdigit()):
        raise ValueError(f"write an amount of {currency} such as {money_text(1250 * 10**exponent // 100, currency)}")
    if len(part) > exponent:
        raise ValueError(
            f"{currency} has {exponent} decimal{'s' if exponent != 1 else ''}"
            if exponent
            else f"{currency} has no decimals"
        )
    return int(whole or "0") * 10**exponent + int(part.ljust(exponent, "0") or "0")
