"""The money ledger's digest chain (issue 39, item 6): each club's money transactions in the order they
were written, each with a SHA-256 over its canonical content (the transaction's fields and its entries)
and the previous transaction's digest, as an append-only log keeps them. Editing any written
transaction or entry (a payment changed on both sides, still summing to zero), removing one or
reordering them changes a digest that `verify` recomputes (`ledger/backup.py`), which names the first
transaction that no longer matches.

`append` runs in the money write's own database transaction, after its entries: it locks the club's
chain head (`MoneyChainHead`, by an UPDATE first, which takes the row lock on PostgreSQL and the write
lock on SQLite) so two writes at once never both extend the same link, and the position is unique per
club besides. `canonical` and `link` are pure, so the migration that chains the rows written before
(0012) computes exactly what `append` does.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

GENESIS = "0" * 64  # the `previous` of a club's first transaction

FIELDS = (
    "id",
    "club_id",
    "kind",
    "currency",
    "session_id",
    "close_version",
    "reverses_id",
    "note",
    "created_by_id",
    "created_at",
    "client_key",
    "for_session_id",
)


def canonical(tx: Any, entries: Iterable[tuple[int, int]]) -> bytes:
    """A transaction's content as bytes that do not depend on the database: its fields by name, its
    entries as (account, amount) sorted by account, JSON with sorted keys and no spaces."""
    fields: dict[str, Any] = {}
    for name in FIELDS:
        value = getattr(tx, name)
        if isinstance(value, datetime):
            value = value.astimezone(UTC).isoformat()
        elif value is not None and not isinstance(value, int | str):
            value = str(value)  # the client key's UUID
        fields[name] = value
    night = getattr(tx, "for_night_id", None)  # (issue 37) only when set: the links written before keep their digests
    if night is not None:
        fields["for_night_id"] = night
    body = {"transaction": fields, "entries": sorted([int(a), int(b)] for a, b in entries)}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def link(previous: str, content: bytes) -> str:
    """The digest of a transaction whose predecessor's digest is `previous`."""
    return hashlib.sha256(previous.encode() + b"\n" + content).hexdigest()


def lock(club_id: int) -> None:
    """Take the club's chain head lock (made on the club's first money write), held until the money
    write's transaction ends: every money write of the club waits for it, so a check made under it
    (`services.payment_record`: what a night and its tables have paid) sees the club's money as it
    stands and stays true until the write commits. Taken after any account locks (their order)."""
    from django.db import IntegrityError, transaction
    from django.db.models import F

    from ledger.models import MoneyChainHead

    heads = MoneyChainHead.objects.filter(pk=club_id)
    if not heads.update(length=F("length")):  # the lock: held until this money write commits
        try:
            with transaction.atomic():
                MoneyChainHead.objects.create(club_id=club_id, length=0, digest=GENESIS)
        except IntegrityError:  # another write made it meanwhile: wait for it, then go on from its link
            heads.update(length=F("length"))


def append(tx: Any, amounts: dict[int, int]) -> str:
    """Chain the transaction just written (with these entries) after its club's last; its digest."""
    from ledger.models import MoneyChainHead, MoneyDigest

    lock(tx.club_id)  # (again, when the write took it before its checks: the same row lock)
    heads = MoneyChainHead.objects.filter(pk=tx.club_id)
    length, previous = heads.values_list("length", "digest").get()
    digest = link(previous, canonical(tx, amounts.items()))
    MoneyDigest.objects.create(
        transaction_id=tx.pk, club_id=tx.club_id, position=length + 1, previous=previous, digest=digest
    )
    heads.update(length=length + 1, digest=digest)
    return digest


def check(club_id: int) -> str | None:
    """Recompute the club's chain from its transactions as stored: None when every digest matches,
    else what is wrong, naming the first transaction that does not match."""
    from ledger.models import MoneyChainHead, MoneyDigest, MoneyEntry, MoneyTransaction

    transactions = {tx.pk: tx for tx in MoneyTransaction.objects.filter(club_id=club_id)}
    entries: dict[int, list[tuple[int, int]]] = {}
    for tx_id, account_id, amount in MoneyEntry.objects.filter(transaction__club_id=club_id).values_list(
        "transaction_id", "account_id", "amount"
    ):
        entries.setdefault(tx_id, []).append((account_id, amount))
    previous = GENESIS
    chained: set[int] = set()
    for position, row in enumerate(MoneyDigest.objects.filter(club_id=club_id).order_by("position"), start=1):
        tx = transactions.get(row.transaction_id)
        if tx is None:
            return f"money transaction {row.transaction_id} is in the chain but no longer in the ledger"
        if row.position != position or row.previous != previous:
            return f"money transaction {tx.pk}: its link does not follow the one before (a transaction removed?)"
        if link(previous, canonical(tx, entries.get(tx.pk, []))) != row.digest:
            return f"money transaction {tx.pk}: its digest does not match what is stored (edited after it was written)"
        previous = row.digest
        chained.add(tx.pk)
    missing = sorted(set(transactions) - chained)
    if missing:
        return f"money transaction {missing[0]} is not in the chain (written past the ledger's services)"
    head = MoneyChainHead.objects.filter(pk=club_id).values_list("length", "digest").first()
    if transactions and head != (len(chained), previous):
        return f"the money chain's head does not match its last link (transaction {max(chained)})"
    return None
