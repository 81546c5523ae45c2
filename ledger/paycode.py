"""The payment code of an evening for a player who owes (issue 41): what his bank app reads to pay the club
the exact amount, and the club's payment details it needs, checked when the treasurer enters them.

- Euros: the EPC "SEPA credit transfer" QR code (EPC069-12), `segno.helpers.make_epc_qr`, to the club's
  IBAN (checked with schwifty).
- Roubles: the Russian payment code of GOST R 56042-2014: `ST00012|Name=…|PersonalAcc=…|BankName=…|
  BIC=…|CorrespAcc=…|Sum=<kopecks>|Purpose=…` (ST0001 and "2": UTF-8, fields split by "|").
- Any other currency, or a club without the details: no code, the amount and the club's instructions
  in words.

The reference (EPC's remittance text, GOST's Purpose) names the evening and the player, in no language
in particular, so the treasurer matches a transfer to its evening: `Boston #12 2026-12-07 Ann`.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import segno
from schwifty import BIC, IBAN
from schwifty.exceptions import SchwiftyException
from segno import helpers

from . import zones
from .exceptions import InvalidRequest
from .models import Club, Session

EPC_TEXT_MAX = 140  # EPC069-12: the unstructured remittance information
EPC_NAME_MAX = 70


@dataclass(frozen=True)
class PaymentCode:
    """How a player pays the club `cents` of `currency`: `kind` "epc" or "gost" with its QR `code`, or
    "words" (no code: the club's `instructions`, and the reference to write on the transfer)."""

    kind: str
    currency: str
    cents: int
    reference: str
    code: segno.QRCode | None = None
    instructions: str = ""
    payee: str = ""
    account: str = ""

    @property
    def has_code(self) -> bool:
        return self.code is not None

    def svg(self) -> str:
        """The code as an inline SVG, black on white, for the settlement page and its print."""
        assert self.code is not None
        buffer = io.BytesIO()
        self.code.save(buffer, kind="svg", scale=4, border=4, xmldecl=False, dark="#000", light="#fff")
        return buffer.getvalue().decode()

    def png(self) -> bytes:
        """The code as a PNG, for the mail (mail readers show no inline SVG)."""
        assert self.code is not None
        buffer = io.BytesIO()
        self.code.save(buffer, kind="png", scale=5, border=4)
        return buffer.getvalue()


def reference(*, session_id: int, day: str, name: str) -> str:
    """The words that name the evening on the transfer (no `|`, which would break a GOST field)."""
    text = f"Boston #{session_id} {day} {name}".replace("|", "/")
    return text[:EPC_TEXT_MAX].rstrip()


def payment_code(*, club: Club, currency: str, cents: int, ref: str) -> PaymentCode:
    """The club's code for `cents` of `currency` (more than 0), or its instructions in words."""
    payee = club.payee_name or club.name
    if currency == "EUR" and club.iban and 1 <= cents <= 99_999_999_999:
        epc = helpers.make_epc_qr(
            name=payee[:EPC_NAME_MAX],
            iban=club.iban,
            amount=Decimal(cents) / 100,
            text=ref,
            bic=club.bic or None,
            encoding="utf-8",
        )
        return PaymentCode("epc", currency, cents, ref, epc, club.payment_instructions, payee, club.iban)
    if currency == "RUB" and club.ru_account and club.ru_bik and club.ru_bank_name and cents >= 1:
        payload = gost_payload(
            name=payee,
            account=club.ru_account,
            bank_name=club.ru_bank_name,
            bik=club.ru_bik,
            corresp_account=club.ru_corresp_account,
            kopecks=cents,
            purpose=ref,
        )
        code = segno.make(payload, error="m", micro=False, encoding="utf-8")
        return PaymentCode("gost", currency, cents, ref, code, club.payment_instructions, payee, club.ru_account)
    return PaymentCode("words", currency, cents, ref, None, club.payment_instructions, payee, "")


def gost_payload(
    *, name: str, account: str, bank_name: str, bik: str, corresp_account: str, kopecks: int, purpose: str
) -> str:
    """GOST R 56042-2014's text: the five required fields in their order, then the sum in kopecks and the
    purpose; `|` cannot appear in a value."""
    fields = [
        ("Name", name),
        ("PersonalAcc", account),
        ("BankName", bank_name),
        ("BIC", bik),
        ("CorrespAcc", corresp_account or "0"),
        ("Sum", str(kopecks)),
        ("Purpose", purpose),
    ]
    return "ST00012|" + "|".join(f"{key}={value.replace('|', '/')}" for key, value in fields)


# --- the club's details, checked when the treasurer enters them -------------------------------------------

_DIGITS = re.compile(r"\d+")


def clean_payment_details(data: dict[str, Any]) -> dict[str, str]:
    """The club's payment details as the treasurer typed them, checked: a valid IBAN (schwifty), a valid BIC,
    the Russian account, BIK and correspondent account as digits of their lengths. Raises InvalidRequest
    naming the field and the rule."""
    out: dict[str, str] = {}
    problems: dict[str, list[str]] = {}

    def text(key: str, limit: int) -> str:
        value = data.get(key, "")
        if not isinstance(value, str):
            problems.setdefault(key, []).append("the payment details are text")
            return ""
        value = " ".join(value.split())
        if len(value) > limit:
            problems.setdefault(key, []).append("this text is too long for the field")
        return value

    out["payee_name"] = text("payee_name", EPC_NAME_MAX)
    iban = text("iban", 60).replace(" ", "").upper()
    if iban:
        try:
            iban = str(IBAN(iban).compact)
        except SchwiftyException:
            problems.setdefault("iban", []).append(
                "the IBAN is not valid: check its country, its length and its check digits"
            )
    out["iban"] = iban
    bic = text("bic", 20).replace(" ", "").upper()
    if bic:
        try:
            bic = str(BIC(bic).compact)
        except SchwiftyException:
            problems.setdefault("bic", []).append("the BIC is not valid: 8 or 11 letters and digits")
    out["bic"] = bic
    for key, length, rule in (
        ("ru_account", 20, "the account number has 20 digits"),
        ("ru_bik", 9, "the BIK has 9 digits"),
        ("ru_corresp_account", 20, "the correspondent account has 20 digits"),
    ):
        value = text(key, 40).replace(" ", "")
        if value and not (_DIGITS.fullmatch(value) and len(value) == length):
            problems.setdefault(key, []).append(rule)
        out[key] = value
    out["ru_bank_name"] = text("ru_bank_name", 100).replace("|", "/")
    out["payment_instructions"] = text("payment_instructions", 500)
    if problems:
        raise InvalidRequest(next(iter(problems.values()))[0], fields=problems)
    return out


# --- an evening's codes ------------------------------------------------------------------------------------


def seat_owes(close: dict[str, Any] | None, seat: int) -> int:
    """What the seat pays at the evening's close: its part of the fewest payments (minor units)."""
    if not close or not close.get("currency"):
        return 0
    return sum(int(p["cents"]) for p in close.get("payments", []) if p["from"] == seat)


def evening_day(session: Session) -> str:
    """The evening's date in the club's time zone (YYYY-MM-DD), as its reference names it."""
    when = session.closed_at or session.opened_at
    return when.astimezone(zones.club_zone(session.club.time_zone)).date().isoformat()


def evening_code(session: Session, seat: int, name: str) -> PaymentCode | None:
    """The code (or the words) by which the seat's player pays the club what he owes; None if he owes
    nothing."""
    close = session.closing
    cents = seat_owes(close, seat)
    if not close or cents <= 0:
        return None
    ref = reference(session_id=session.pk, day=evening_day(session), name=name)
    return payment_code(club=session.club, currency=str(close["currency"]), cents=cents, ref=ref)
