"""Words and numbers for people, shared by the web pages and the API's statement: money in the
currency's minor unit as text, and a money-ledger entry described from its account's side. Services
and selectors never format; they hand out integers and rows."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from ledger.engine.closing import minor_unit_exponent
from ledger.models import MoneyAccount, MoneyEntry, MoneyTransaction, Player
from ledger.money import POOL
from ledger.money.selectors import statement_entries


def money_text(cents: int, currency: str) -> str:
    """Minor units as a grouped decimal amount of the currency, with a true minus (the pages)."""
    exponent = minor_unit_exponent(currency)
    sign = "−" if cents < 0 else ""
    whole, part = divmod(abs(cents), 10**exponent)
    return f"{sign}{whole:,}" + (f".{part:0{exponent}d}" if exponent else "")


def format_minor(amount: int, currency: str) -> str:
    """Minor units as a plain decimal string of the currency, for a spreadsheet (-1234 USD: "-12.34")."""
    exponent = minor_unit_exponent(currency)
    return str(Decimal(amount).scaleb(-exponent)) if exponent else str(amount)


def party_name(account: MoneyAccount) -> str:
    """The account's player's name, or "pool"."""
    return POOL if account.kind == MoneyAccount.Kind.POOL else account.player.name


def counterparties(entry: MoneyEntry) -> list[str]:
    """The names of the other accounts in the entry's transaction."""
    return [
        party_name(other.account) for other in entry.transaction.entries.all() if other.account_id != entry.account_id
    ]


def describe(entry: MoneyEntry) -> str:
    """The statement line in words, from the entry's account's side."""
    tx = entry.transaction
    others = ", ".join(counterparties(entry))
    if tx.kind == MoneyTransaction.Kind.CLOSE:
        return f"session {tx.session_id} closed ({'won' if entry.amount > 0 else 'lost'})"
    if tx.kind == MoneyTransaction.Kind.REVERSAL:
        return f"session {tx.session_id} reopened: its close is reversed"
    paying = entry.amount > 0  # the payer's balance rises
    if tx.kind == MoneyTransaction.Kind.WRITTEN_OFF:
        return f"written off by {others}" if paying else f"wrote off what {others} owed"
    partly = "partly " if tx.kind == MoneyTransaction.Kind.PARTLY_PAID else ""
    return f"{partly}paid to {others}" if paying else f"{partly}paid by {others}"


def statement_rows(*, player: Player) -> Iterator[dict[str, Any]]:
    """The player's whole statement as flat rows (the CSV's), oldest first."""
    for entry in statement_entries(player=player).iterator(chunk_size=500):
        tx = entry.transaction
        yield {
            "date": tx.created_at.astimezone(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
            "transaction": tx.pk,
            "kind": tx.kind,
            "session": tx.session_id or "",
            "close_version": tx.close_version or "",
            "currency": tx.currency,
            "amount_minor": entry.amount,
            "amount": format_minor(entry.amount, tx.currency),
            "balance_minor": entry.balance,  # type: ignore[attr-defined]
            "balance": format_minor(entry.balance, tx.currency),  # type: ignore[attr-defined]
            "description": describe(entry),
            "note": tx.note,
        }
