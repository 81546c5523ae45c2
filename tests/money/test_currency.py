"""The one amount parser and formatter of ledger/currency.py (issue 26): what the formatter writes in a
language, the parser reads back in that language, for every ISO 4217 currency with 0, 2 or 3 decimals;
a decimal is never read as thousands; too many decimals is refused in words."""

from __future__ import annotations

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.currency import money_text, parse_money, parse_stake
from ledger.engine.closing import MINOR_UNIT_EXPONENTS, minor_unit_exponent

# ISO 4217's active codes with 2 decimals (list one, 2024); the 0- and 3-decimal ones are the engine's table.
TWO_DECIMALS = [
    "AED",
    "AFN",
    "ALL",
    "AMD",
    "ANG",
    "AOA",
    "ARS",
    "AUD",
    "AWG",
    "AZN",
    "BAM",
    "BBD",
    "BDT",
    "BGN",
    "BMD",
    "BND",
    "BOB",
    "BRL",
    "BSD",
    "BTN",
    "BWP",
    "BYN",
    "BZD",
    "CAD",
    "CDF",
    "CHF",
    "CNY",
    "COP",
    "CRC",
    "CUP",
    "CVE",
    "CZK",
    "DKK",
    "DOP",
    "DZD",
    "EGP",
    "ERN",
    "ETB",
    "EUR",
    "FJD",
    "FKP",
    "GBP",
    "GEL",
    "GHS",
    "GIP",
    "GMD",
    "GTQ",
    "GYD",
    "HKD",
    "HNL",
    "HTG",
    "HUF",
    "IDR",
    "ILS",
    "INR",
    "IRR",
    "JMD",
    "KES",
    "KGS",
    "KHR",
    "KPW",
    "KYD",
    "KZT",
    "LAK",
    "LBP",
    "LKR",
    "LRD",
    "LSL",
    "MAD",
    "MDL",
    "MGA",
    "MKD",
    "MMK",
    "MNT",
    "MOP",
    "MRU",
    "MUR",
    "MVR",
    "MWK",
    "MXN",
    "MYR",
    "MZN",
    "NAD",
    "NGN",
    "NIO",
    "NOK",
    "NPR",
    "NZD",
    "PAB",
    "PEN",
    "PGK",
    "PHP",
    "PKR",
    "PLN",
    "QAR",
    "RON",
    "RSD",
    "RUB",
    "SAR",
    "SBD",
    "SCR",
    "SDG",
    "SEK",
    "SGD",
    "SHP",
    "SLE",
    "SOS",
    "SRD",
    "SSP",
    "STN",
    "SVC",
    "SYP",
    "SZL",
    "THB",
    "TJS",
    "TMT",
    "TOP",
    "TRY",
    "TTD",
    "TWD",
    "TZS",
    "UAH",
    "USD",
    "UYU",
    "UZS",
    "VES",
    "WST",
    "XCD",
    "YER",
    "ZAR",
    "ZMW",
    "ZWL",
]
CURRENCIES = sorted(
    [c for c in TWO_DECIMALS if minor_unit_exponent(c) == 2]
    + [c for c, e in MINOR_UNIT_EXPONENTS.items() if e in (0, 3)]
)
LANGUAGES = ["en", "fr", "ru"]


def test_the_table_has_currencies_of_each_exponent() -> None:
    assert {minor_unit_exponent(c) for c in CURRENCIES} == {0, 2, 3} and len(CURRENCIES) > 150


@settings(max_examples=400, deadline=None)
@given(
    cents=st.one_of(st.integers(0, 10**15), st.integers(0, 10**6)),
    currency=st.sampled_from(CURRENCIES),
    language=st.sampled_from(LANGUAGES),
    with_currency=st.booleans(),
    grouped=st.booleans(),
)
def test_what_the_formatter_writes_the_parser_reads_back(
    cents: int, currency: str, language: str, with_currency: bool, grouped: bool
) -> None:
    with translation.override(language):
        text = money_text(cents, currency, grouped=grouped or with_currency, with_currency=with_currency)
        assert parse_money(text, currency) == cents, text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sites_own_grouping_and_the_spaces_people_type_are_read(language: str) -> None:
    with translation.override(language):
        point = "." if language == "en" else ","
        for grouped in ["1 000", "1\u00a0000", "1\u202f000", "1\u2009000"]:
            assert parse_money(f"{grouped}{point}50", "EUR") == 100050
        assert parse_money("0" + point + "10", "EUR") == 10


@pytest.mark.parametrize(
    ("language", "typed", "said"),
    [
        ("en", "0,105", "euros have 2 decimals"),
        ("en", "0.105", "euros have 2 decimals"),
        ("fr", "0,105", "euros have 2 decimals"),
        ("fr", "2,500", "euros have 2 decimals"),
        ("ru", "0,105", "euros have 2 decimals"),
        ("en", "12.5", "yen have no decimals"),
        ("en", "1.0005", "Kuwaiti dinars have 3 decimals"),
        ("en", "1,23,4", "write an amount such as 12.50"),
        ("fr", "1 00,5", "write an amount such as 12,50"),
        ("en", "-3", "an amount is never below zero: write it without the minus sign"),
        ("en", "", "write an amount such as 12.50"),
        ("en", "\u0665", "write an amount such as 12.50"),
    ],
)
def test_a_decimal_is_never_read_as_thousands_and_refusals_are_in_words(language: str, typed: str, said: str) -> None:
    currency = {"yen": "JPY", "Kuwaiti": "KWD"}.get(said.split()[0], "EUR")
    with translation.override(language), pytest.raises(ValueError) as refused:
        parse_money(typed, currency)
    if language == "en":
        assert str(refused.value) == said
    assert "minor units" not in str(refused.value)


@pytest.mark.parametrize(
    ("language", "typed", "sheet"), [("fr", "0,125", "0.125"), ("en", "0.05", "0.05"), ("ru", "5", "5")]
)
def test_the_stake_is_read_by_the_same_parser(language: str, typed: str, sheet: str) -> None:
    with translation.override(language):
        assert parse_stake(typed) == sheet
        with pytest.raises(ValueError):
            parse_stake("0.0000001")


# --- issue 38, item 18: one reader for a stake and a payment, and refusals that say what is wrong ----


@pytest.mark.parametrize(
    ("language", "typed", "said"),
    [
        ("en", "-3", "an amount is never below zero: write it without the minus sign"),
        ("fr", "-3", "un montant n'est jamais négatif : écrivez-le sans le signe moins"),
        ("ru", "\u22123", "сумма не бывает меньше нуля: напишите её без знака минус"),
        ("en", "1e3", "write the amount in plain digits, not as a power of ten (1e3)"),
        ("fr", "1e3", "écrivez le montant en chiffres, pas en puissance de dix (1e3)"),
        ("ru", "1E3", "напишите сумму цифрами, а не степенью десяти (1E3)"),
        ("en", "1.234,50", "1.234,50 mixes the signs: on this page the decimal sign is “.”, so write 1,234.50"),
        (
            "fr",
            "1.234,50",
            "1.234,50 mélange les signes : sur cette page le séparateur décimal est « , », écrivez donc 1\u00a0234,50",
        ),
        (
            "ru",
            "1,234.50",
            "в 1,234.50 смешаны знаки: на этой странице дробная часть отделяется знаком «,», поэтому напишите "
            "1\u00a0234,50",
        ),
    ],
)
def test_a_refusal_says_what_is_wrong_for_a_payment_and_a_stake(language: str, typed: str, said: str) -> None:
    with translation.override(language):
        for read in (lambda t: parse_money(t, "EUR"), parse_stake):
            with pytest.raises(ValueError) as refused:
                read(typed)
            assert str(refused.value) == said


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_a_stake_typed_with_its_currency_is_read_as_a_payment_is(language: str) -> None:
    with translation.override(language):
        assert parse_money("12,5 €", "EUR") == 1250
        assert parse_stake("12,5 €", "EUR") == "12.5"
        assert parse_stake("0,05 EUR", "EUR") == "0.05" and parse_stake("€0.05") == "0.05"
        assert parse_money("1\u00a0234,50", "EUR") == 123450  # what the pages write, read back
