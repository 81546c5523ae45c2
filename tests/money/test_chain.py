"""The money ledger's digest chain (issue 39, item 6; `ledger/money/chain.py`): `verify` missed a
payment changed on both sides (1 -> 5,000 cents, the entries still summing to zero, so every balance
re-derived from the payments agreed). Each club's transactions are chained by digests written with
the money; `verify` recomputes the chain and names the first transaction that does not match."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, connections

from ledger import backup
from ledger.models import MoneyAccount, MoneyChainHead, MoneyDigest, MoneyEntry, MoneyTransaction
from ledger.money import chain
from ledger.money import selectors as money_selectors
from ledger.money import services as money_services
from tests.ledger_fixtures import AMERICAN_HANDS, open_session, record_all
from tests.money.helpers import close

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ledger(admin: Any, club: Any, players: list[Any], background_work_in_process: None) -> dict[str, Any]:
    """A closed session that moved money, and a payment of 1 cent between its debtor and its creditor."""
    closed = open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})
    record_all(admin, closed, AMERICAN_HANDS)
    close(admin, closed)
    money = money_selectors.balances(club_id=club.pk)["USD"]
    payer, payee = (
        MoneyAccount.objects.get(pk=a).player_id for a in (min(money, key=money.get), max(money, key=money.get))
    )
    payment = money_services.payment_record(
        actor=admin, club_id=club.pk, payer=payer, payee=payee, currency="USD", cents=1, status="partly_paid"
    )
    return {"payment": payment, "payer": payer, "payee": payee}


@contextmanager
def append_only_off() -> Iterator[None]:
    """What someone with the database's password can do: the append-only triggers out of the way."""
    tables = ("ledger_moneyentry", "ledger_moneytransaction")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for table in tables:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            try:
                yield
            finally:
                for table in tables:
                    cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
            return
        names = [f"{table}_no_update" for table in tables]
        cursor.execute(
            f"SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name IN ({', '.join('%s' for _ in names)})",
            names,
        )
        saved = [row[0] for row in cursor.fetchall()]
        assert len(saved) == 2
        for name in names:
            cursor.execute(f"DROP TRIGGER {name}")
        try:
            yield
        finally:
            for sql in saved:
                cursor.execute(sql)


def test_an_untouched_ledger_verifies(ledger: dict[str, Any]) -> None:
    result = backup.verify()
    assert result.ok, result.problems
    assert chain.check(ledger["payment"].club_id) is None


def test_a_payment_changed_on_both_sides_is_named_by_verify(ledger: dict[str, Any]) -> None:
    payment = ledger["payment"]
    with append_only_off():
        MoneyEntry.objects.filter(transaction=payment, amount=1).update(amount=5000)
        MoneyEntry.objects.filter(transaction=payment, amount=-1).update(amount=-5000)
    assert sorted(MoneyEntry.objects.filter(transaction=payment).values_list("amount", flat=True)) == [-5000, 5000]
    result = backup.verify()
    assert not result.ok
    assert result.problems == [
        f"club {payment.club_id}'s money chain: money transaction {payment.pk}: its digest does not match what is"
        " stored (edited after it was written)"
    ]


def test_a_changed_note_or_a_removed_transaction_shows_too(ledger: dict[str, Any], admin: Any) -> None:
    payment = ledger["payment"]
    later = money_services.payment_record(
        actor=admin,
        club_id=payment.club_id,
        payer=ledger["payer"],
        payee=ledger["payee"],
        currency="USD",
        cents=2,
        status="partly_paid",
    )
    assert chain.check(payment.club_id) is None
    with append_only_off():
        MoneyTransaction.objects.filter(pk=later.pk).update(note="paid in cash")
    assert f"money transaction {later.pk}: its digest" in str(chain.check(payment.club_id))
    with append_only_off():
        MoneyTransaction.objects.filter(pk=later.pk).update(note=later.note)
    assert chain.check(payment.club_id) is None
    MoneyDigest.objects.filter(pk=payment.pk).delete()  # the link of the first payment gone
    assert f"money transaction {later.pk}: its link does not follow" in str(chain.check(payment.club_id))


def test_concurrent_money_writes_never_fork_the_chain(ledger: dict[str, Any], admin: Any) -> None:
    club_id = ledger["payment"].club_id
    errors: list[BaseException] = []
    start = threading.Barrier(3)

    def pay(cents: int) -> None:
        try:
            start.wait()
            for i in range(4):
                money_services.payment_record(
                    actor=admin,
                    club_id=club_id,
                    payer=ledger["payer"],
                    payee=ledger["payee"],
                    currency="USD",
                    cents=cents + i,
                    status="partly_paid",
                    overpay=True,
                )
        except BaseException as exc:  # said by the assertion below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=pay, args=(10 * n,)) for n in (1, 2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    count = MoneyTransaction.objects.filter(club_id=club_id).count()
    positions = list(
        MoneyDigest.objects.filter(club_id=club_id).order_by("position").values_list("position", flat=True)
    )
    assert positions == list(range(1, count + 1))
    assert MoneyChainHead.objects.get(pk=club_id).length == count
    assert chain.check(club_id) is None


def test_the_migration_chains_the_money_written_before_it(ledger: dict[str, Any]) -> None:
    club_id = ledger["payment"].club_id
    before = list(MoneyDigest.objects.order_by("position").values_list("transaction_id", "digest"))
    assert len(before) == MoneyTransaction.objects.count() >= 2
    call_command("migrate", "ledger", "0011", verbosity=0)  # the tables gone, as before the chain
    # every app forward again: going back to ledger 0011 also took back what depends on later ledger
    # migrations (the statistics' seasons), which `migrate ledger` alone would leave missing
    call_command("migrate", verbosity=0)
    assert list(MoneyDigest.objects.order_by("position").values_list("transaction_id", "digest")) == before
    assert chain.check(club_id) is None
