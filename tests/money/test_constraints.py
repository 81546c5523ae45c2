"""The money ledger's invariants held by the database itself, against writes that bypass
ledger/money/services.py: append-only rows, non-zero entries, one close per (session, close version),
and, on PostgreSQL, transactions whose entries add up to zero (checked at COMMIT)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from ledger.models import MoneyAccount, MoneyEntry, MoneyTransaction, Session
from tests.ledger_fixtures import AMERICAN_HANDS, record_all
from tests.money.helpers import close, close_transactions, run_followup

POSTGRES_ONLY = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="PostgreSQL only: SQLite has no deferred constraint triggers, and its test database is flushed with "
    "DELETE (run with DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubscore)",
)


@pytest.fixture
def posted(admin: Any, session: Session) -> MoneyTransaction:
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))
    (tx,) = close_transactions(session)
    return tx


def refused(write: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


@pytest.mark.django_db
def test_entries_transactions_and_accounts_cannot_be_updated(posted: MoneyTransaction) -> None:
    entry = posted.entries.first()
    refused(lambda: MoneyEntry.objects.filter(pk=entry.pk).update(amount=entry.amount + 1))
    refused(lambda: MoneyTransaction.objects.filter(pk=posted.pk).update(note="rewritten"))
    refused(lambda: MoneyAccount.objects.filter(pk=entry.account_id).update(kind="pool", player=None))
    assert MoneyEntry.objects.get(pk=entry.pk).amount == entry.amount


@pytest.mark.django_db
def test_an_entry_is_never_zero_and_a_close_is_posted_once_per_version(posted: MoneyTransaction) -> None:
    account = posted.entries.first().account
    refused(lambda: MoneyEntry.objects.create(transaction=posted, account=account, amount=0))
    refused(lambda: MoneyEntry.objects.create(transaction=posted, account=account, amount=5))  # one per account
    refused(
        lambda: MoneyTransaction.objects.create(
            club_id=posted.club_id,
            kind="close",
            currency="USD",
            session_id=posted.session_id,
            close_version=posted.close_version,
        )
    )
    refused(  # a payment names no session
        lambda: MoneyTransaction.objects.create(
            club_id=posted.club_id, kind="paid", currency="USD", session_id=posted.session_id
        )
    )


@POSTGRES_ONLY
@pytest.mark.django_db(transaction=True)
def test_postgresql_refuses_deletes_and_unbalanced_transactions_at_commit(admin: Any, session: Session) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))
    (tx,) = close_transactions(session)
    entry = tx.entries.first()
    for delete in (lambda: MoneyEntry.objects.filter(pk=entry.pk).delete(), lambda: tx.entries.all().delete()):
        with pytest.raises(IntegrityError), transaction.atomic():
            delete()
    unbalanced = {"club_id": tx.club_id, "kind": "paid", "currency": "USD"}
    # The deferred trigger fires at COMMIT, when the atomic block ends.
    with pytest.raises(IntegrityError, match="adding up to"), transaction.atomic():
        odd = MoneyTransaction.objects.create(**unbalanced)
        MoneyEntry.objects.create(transaction=odd, account=entry.account, amount=7)
        other = tx.entries.exclude(account=entry.account).first()
        MoneyEntry.objects.create(transaction=odd, account=other.account, amount=-6)
    with pytest.raises(IntegrityError, match="two or more"), transaction.atomic():
        MoneyTransaction.objects.create(**unbalanced)
    assert MoneyTransaction.objects.count() == 1 and MoneyEntry.objects.filter(transaction=tx).count() == 4
