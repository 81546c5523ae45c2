"""Words and numbers for people, shared by the web pages and the API's statement: a money-ledger entry
described from its account's side (money as text is `ledger.currency.money_text`, the one formatter). Services
and selectors never format; they hand out integers and rows."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from django.db.models import Min
from django.utils.translation import gettext

from ledger import zones
from ledger.csvfile import Amount, csv_text
from ledger.elision import elide
from ledger.models import MoneyAccount, MoneyEntry, MoneyTransaction, Player, SessionEvent
from ledger.money.selectors import statement_entries


def party_name(account: MoneyAccount) -> str:
    """The account's player's name, or the club's pool (one name on every page, in the active language)."""
    return gettext("the club's pool") if account.player is None else account.player.name


def counterparties(entry: MoneyEntry) -> list[str]:
    """The names of the other accounts in the entry's transaction."""
    return [
        party_name(other.account) for other in entry.transaction.entries.all() if other.account_id != entry.account_id
    ]


def describe(entry: MoneyEntry) -> str:
    """The statement line in words, from the entry's account's side."""
    tx = entry.transaction
    others = ", ".join(counterparties(entry))
    n = {"session": tx.session_id, "payment": tx.reverses_id, "others": others}
    if tx.kind == MoneyTransaction.Kind.CLOSE:
        if entry.amount > 0:
            return gettext("session %(session)s closed (won)") % n
        return gettext("session %(session)s closed (lost)") % n
    if tx.kind == MoneyTransaction.Kind.REVERSAL and tx.session_id is None:
        return gettext("payment %(payment)s reversed") % n
    if tx.kind == MoneyTransaction.Kind.REVERSAL:
        return gettext("session %(session)s reopened: its close is reversed") % n
    paying = entry.amount > 0  # the payer's balance rises
    if tx.kind == MoneyTransaction.Kind.WRITTEN_OFF:
        said = gettext("written off by %(others)s") if paying else gettext("wrote off what %(others)s owed")
        return elide(said % n)  # « dette d'Ann abandonnée »
    if tx.kind == MoneyTransaction.Kind.PARTLY_PAID:
        return (gettext("partly paid to %(others)s") if paying else gettext("partly paid by %(others)s")) % n
    return (gettext("paid to %(others)s") if paying else gettext("paid by %(others)s")) % n


def entered_at(entries: list[MoneyEntry]) -> dict[int, dt.datetime]:
    """When each re-close among the entries was entered in the books (its close event's time), by
    transaction id (issue 38): a close's money is dated by the evening (`closed_at`, which a re-close
    keeps), so a statement dated by it ran backwards after a re-close (payments and the reopen's
    reversal in between); a re-close is now dated when it was closed, and the evening's day is said
    beside. A first close keeps its evening's date (an imported evening is of its day, issue 26)."""
    closes = {
        (e.transaction.session_id, e.transaction.close_version): e.transaction_id
        for e in entries
        if e.transaction.kind == MoneyTransaction.Kind.CLOSE
    }
    firsts = set(
        MoneyTransaction.objects.filter(session_id__in={s for s, _v in closes}, kind=MoneyTransaction.Kind.CLOSE)
        .values("session_id")
        .annotate(first=Min("id"))
        .values_list("first", flat=True)
    )
    closes = {key: tx for key, tx in closes.items() if tx not in firsts}  # a first close keeps its evening's date
    events = SessionEvent.objects.filter(
        session_id__in={session for session, _version in closes}, kind=SessionEvent.Kind.CLOSE
    ).values_list("session_id", "version", "at")
    return {closes[s, v]: at for s, v, at in events if (s, v) in closes}


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
            "amount": Amount(entry.amount, tx.currency),
            "balance_minor": entry.balance,  # type: ignore[attr-defined]
            "balance": Amount(entry.balance, tx.currency),  # type: ignore[attr-defined]
            "description": describe(entry),
            "note": tx.note,
        }


def statement_csv(*, player: Player) -> str:
    """The player's statement for a spreadsheet in the active language (the statement page's CSV and
    the API's for a person): a table per currency, A-Z, each oldest first, dates in the club's time,
    kinds in words, amounts in money; by the one CSV writer."""
    header = [
        gettext("Currency"),
        gettext("Date"),
        gettext("What"),
        gettext("Amount"),
        gettext("Balance"),
        gettext("Session"),
        gettext("Note"),
    ]
    entries = sorted(statement_entries(player=player), key=lambda e: e.transaction.currency)  # stable: in order
    entered = entered_at(entries)
    rows = [
        [
            e.transaction.currency,
            zones.local(
                max(entered.get(e.transaction_id, e.transaction.created_at), e.transaction.created_at),
                player.club.time_zone,
            ).strftime("%Y-%m-%d %H:%M"),
            describe(e),
            Amount(e.amount, e.transaction.currency),
            Amount(e.balance, e.transaction.currency),  # type: ignore[attr-defined]
            e.transaction.session_id or "",
            e.transaction.note,
        ]
        for e in entries
    ]
    return csv_text(header, rows, for_people=True)
