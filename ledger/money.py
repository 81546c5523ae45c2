"""The club's money ledger: each closed session's money result per player, the money of the pools the
club holds for its tables, what was paid, and the fewest transfers that square everyone.

Invariants (django-hordak style). This module is the only code that writes these tables; the database
holds what it can (migration 0002):

1. Amounts are integers in the minor unit of their currency (`scoresheet.md`, "Money": cents, yen,
   fils); an entry is never 0 (CHECK).
2. A transaction is in one currency; its entries, one per account, add up to zero and are at least two
   (here; on PostgreSQL also deferred constraint triggers checked at COMMIT). So every club's ledger
   sums to zero per currency, and so do its open balances: settle-up always squares.
3. Append-only: accounts, transactions and entries are never updated or deleted (triggers: UPDATE and
   DELETE on PostgreSQL, UPDATE on SQLite). A correction is a new transaction: a reopen is answered by
   the exact reversal of the close it undoes, and the next close by the new result. Payments are not
   touched by either: money paid stays paid, and a player's statement shows the original close, its
   reversal and the new close as lines of their own (adjusting entries).
4. A session's money is posted once per close: at most one `close` transaction per (session,
   close_version) (UNIQUE) and at most one reversal of any transaction (one-to-one). `session_money_post`
   computes what the session's current state expects and posts only the difference, under the session's
   row lock, so running it twice, or in two workers at once, has the effect of running it once.
5. A payment (paid, partly paid, written off) moves money from an account that owes to one that is
   owed, never more than either's open balance (checked under row locks on both accounts).
6. Accounts: one per player of the club who ever had money in it, and one pool account per club whose
   balance is the money of the carried pools (a close with pools left adds to it; the session that claims
   them takes it out again).

Sign: an account's balance above zero is money owed to it; below zero, money it owes.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, QuerySet, Sum, Window

from ledger.engine.closing import minor_unit_exponent
from ledger.engine.settle_up import settle_up

from .exceptions import InvalidRequest, NotFound, PermissionDenied
from .models import (
    IdempotencyRecord,
    MoneyAccount,
    MoneyEntry,
    MoneyTransaction,
    Player,
    Role,
    Session,
)
from .selectors import club_role, session_players

if TYPE_CHECKING:
    from collections.abc import Callable

    from .services import IdempotencyClaim

POOL: Literal["pool"] = "pool"
Party = int | Literal["pool"]  # a player's id, or the club's pool account
MAX_CENTS = 10**15  # what a 64-bit column holds with room to add
NOTE_MAX = 500


# --- accounts --------------------------------------------------------------------------------------


def _accounts(club_id: int, player_ids: Iterable[int], pool: bool) -> dict[Party, MoneyAccount]:
    """The club's accounts of these players (and its pool account), created when missing.

    Concurrent creators do not fail: the insert skips a row that another transaction created
    (INSERT ... ON CONFLICT DO NOTHING), and the rows are read back afterwards.
    """
    player_ids = sorted(set(player_ids))
    wanted = [MoneyAccount(club_id=club_id, kind=MoneyAccount.Kind.PLAYER, player_id=pid) for pid in player_ids]
    if pool:
        wanted.append(MoneyAccount(club_id=club_id, kind=MoneyAccount.Kind.POOL))
    found = _existing_accounts(club_id, player_ids, pool)
    if len(found) < len(wanted):
        MoneyAccount.objects.bulk_create(wanted, ignore_conflicts=True)
        found = _existing_accounts(club_id, player_ids, pool)
    return found


def _existing_accounts(club_id: int, player_ids: list[int], pool: bool) -> dict[Party, MoneyAccount]:
    out: dict[Party, MoneyAccount] = {}
    for account in MoneyAccount.objects.filter(club_id=club_id, player_id__in=player_ids):
        out[account.player_id] = account
    if pool:
        account = MoneyAccount.objects.filter(club_id=club_id, kind=MoneyAccount.Kind.POOL).first()
        if account is not None:
            out[POOL] = account
    return out


def _party(account: MoneyAccount) -> Party:
    return POOL if account.kind == MoneyAccount.Kind.POOL else account.player_id


def _party_name(account: MoneyAccount) -> str:
    return POOL if account.kind == MoneyAccount.Kind.POOL else account.player.name


# --- posting ---------------------------------------------------------------------------------------


def _post(*, club_id: int, kind: str, currency: str, amounts: dict[int, int], **fields: Any) -> MoneyTransaction | None:
    """One transaction with an entry per account id in `amounts` (zero amounts dropped); None if empty."""
    amounts = {account_id: amount for account_id, amount in amounts.items() if amount}
    if not amounts:
        return None
    if sum(amounts.values()) != 0 or len(amounts) < 2:
        raise ValueError(f"a money transaction's entries must be two or more adding up to 0, not {amounts}")
    if any(abs(a) > MAX_CENTS for a in amounts.values()):
        raise InvalidRequest.field("cents", f"an amount above {MAX_CENTS} minor units cannot be stored")
    tx = MoneyTransaction.objects.create(club_id=club_id, kind=kind, currency=currency, **fields)
    MoneyEntry.objects.bulk_create(
        MoneyEntry(transaction=tx, account_id=account_id, amount=amount)
        for account_id, amount in sorted(amounts.items())
    )
    return tx


def _reverse(tx: MoneyTransaction) -> MoneyTransaction:
    opposite = {e.account_id: -e.amount for e in tx.entries.all()}
    reversal = _post(
        club_id=tx.club_id,
        kind=MoneyTransaction.Kind.REVERSAL,
        currency=tx.currency,
        amounts=opposite,
        session_id=tx.session_id,
        close_version=tx.close_version,
        reverses=tx,
    )
    assert reversal is not None
    return reversal


@dataclass(frozen=True)
class ExpectedClose:
    """The money a closed session's close posts: minor units per account id, in one currency."""

    close_version: int
    currency: str
    amounts: dict[int, int]


def expected_close(session: Session) -> ExpectedClose | None:
    """What the session's current state puts in the ledger: its close's `money` per seat's player and
    its `pool_money` to the pool account; None when it is open, has no stake or moved no money."""
    closing = session.closing
    if session.status != Session.Status.CLOSED or not closing or "money" not in closing:
        return None
    per_party: dict[Party, int] = defaultdict(int)
    for player, cents in zip(session_players(session=session), closing["money"], strict=True):
        per_party[player.pk] += cents
    per_party[POOL] += closing.get("pool_money", 0)
    per_party = {p: a for p, a in per_party.items() if a}
    if not per_party:
        return None
    players = [p for p in per_party if p != POOL]
    accounts = _accounts(session.club_id, players, pool=POOL in per_party)  # type: ignore[arg-type]
    return ExpectedClose(
        close_version=session.version,
        currency=closing["currency"],
        amounts={accounts[p].pk: a for p, a in per_party.items()},
    )


@dataclass(frozen=True)
class MoneySync:
    """What `session_money_post` did for the session at `version`."""

    session_id: int
    version: int
    posted: list[int] = field(default_factory=list)  # transaction ids
    reversed: list[int] = field(default_factory=list)  # ids of the close transactions it reversed


def session_money_post(*, session_id: int) -> MoneySync | None:
    """Bring the ledger in line with the session's current state; None if there is no such session.

    Expected: one `close` transaction for the session's close version when it is closed with money.
    Every other close of the session still standing gets its reversal; the expected one is posted
    unless it already is. Runs under the session's row lock, so it sees a settled state and concurrent
    runs wait for each other: the second finds nothing left to do.
    """
    with transaction.atomic(durable=True):
        session = Session.objects.select_for_update().filter(pk=session_id).first()
        if session is None:
            return None
        expected = expected_close(session)
        standing = list(
            MoneyTransaction.objects.filter(
                session=session, kind=MoneyTransaction.Kind.CLOSE, reversed_by__isnull=True
            ).prefetch_related("entries")
        )
        posted, reversed_ = [], []
        for tx in standing:
            if expected is None or tx.close_version != expected.close_version:
                posted.append(_reverse(tx).pk)
                reversed_.append(tx.pk)
        if expected is not None and not any(tx.close_version == expected.close_version for tx in standing):
            already = MoneyTransaction.objects.filter(
                session=session, kind=MoneyTransaction.Kind.CLOSE, close_version=expected.close_version
            ).exists()
            if not already:  # (a close of this version that was reversed is never posted again)
                tx = _post(
                    club_id=session.club_id,
                    kind=MoneyTransaction.Kind.CLOSE,
                    currency=expected.currency,
                    amounts=expected.amounts,
                    session=session,
                    close_version=expected.close_version,
                )
                if tx is not None:
                    posted.append(tx.pk)
        return MoneySync(session_id=session.pk, version=session.version, posted=posted, reversed=reversed_)


# --- payments --------------------------------------------------------------------------------------

PAYMENT_STATUSES = ("paid", "partly_paid", "written_off")


def _payment_account(club_id: int, party: Party, field_name: str) -> MoneyAccount:
    if party == POOL:
        account = MoneyAccount.objects.filter(club_id=club_id, kind=MoneyAccount.Kind.POOL).first()
    elif isinstance(party, int) and not isinstance(party, bool):
        if not Player.objects.filter(pk=party, club_id=club_id).exists():
            raise InvalidRequest.field(field_name, f"no player {party} in this club")
        account = MoneyAccount.objects.filter(club_id=club_id, player_id=party).first()
    else:
        raise InvalidRequest.field(field_name, 'a party is a player id of the club or "pool"')
    if account is None:
        raise InvalidRequest.field(field_name, "this party has no money in the club's ledger")
    return account


def account_balance(account_id: int, currency: str) -> int:
    total = MoneyEntry.objects.filter(account_id=account_id, transaction__currency=currency).aggregate(
        total=Sum("amount")
    )["total"]
    return total or 0


def payment_record(
    *,
    actor: AbstractBaseUser,
    club_id: int,
    payer: Party,
    payee: Party,
    currency: str,
    cents: int,
    status: str,
    note: str = "",
    claim: IdempotencyClaim | None = None,
    render: Callable[[MoneyTransaction], tuple[int, dict[str, Any]]] | None = None,
) -> MoneyTransaction:
    """Record that `payer` paid `payee` (treasurers and above): `paid`, `partly_paid`, or `written_off`
    (the payee gave the money up). The payer's balance rises by `cents`, the payee's falls by as much.

    The payer must owe and the payee be owed at least `cents` in `currency`; both accounts are locked
    (primary-key order) while that is checked, so two payments at once cannot overpay. With `claim` and
    `render`, the answer is stored as the Idempotency-Key's in the same transaction.
    """
    if status not in PAYMENT_STATUSES:
        raise InvalidRequest.field("status", "status must be one of " + ", ".join(PAYMENT_STATUSES))
    if type(cents) is not int or not 0 < cents <= MAX_CENTS:
        raise InvalidRequest.field("cents", f"cents must be a whole number from 1 to {MAX_CENTS}")
    if payer == payee:
        raise InvalidRequest.field("to", "a payment goes from one party to another")
    note = "".join(c if c.isprintable() else " " for c in (note or "")).strip()[:NOTE_MAX]
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.TREASURER)
        accounts = [_payment_account(club_id, payer, "from"), _payment_account(club_id, payee, "to")]
        ids = sorted(a.pk for a in accounts)
        list(MoneyAccount.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk"))
        owed_by_payer = -account_balance(accounts[0].pk, currency)
        owed_to_payee = account_balance(accounts[1].pk, currency)
        if owed_by_payer < cents:
            raise InvalidRequest.field(
                "cents", f"the payer owes {max(owed_by_payer, 0)} {currency} minor units, less than {cents}"
            )
        if owed_to_payee < cents:
            raise InvalidRequest.field(
                "cents", f"the payee is owed {max(owed_to_payee, 0)} {currency} minor units, less than {cents}"
            )
        tx = _post(
            club_id=club_id,
            kind=status,
            currency=currency,
            amounts={accounts[0].pk: cents, accounts[1].pk: -cents},
            note=note,
            created_by=actor,
        )
        assert tx is not None
        if claim is not None and render is not None:
            code, body = render(tx)
            IdempotencyRecord.objects.filter(pk=claim.record_id).update(
                state=IdempotencyRecord.State.DONE, status=code, response=body, etag=""
            )
    return tx


# --- reads -----------------------------------------------------------------------------------------


def balances(*, club_id: int) -> dict[str, dict[int, int]]:
    """Open balances of the club's accounts: {currency: {account id: minor units}} (zeros left out)."""
    out: dict[str, dict[int, int]] = defaultdict(dict)
    rows = (
        MoneyEntry.objects.filter(account__club_id=club_id)
        .values("transaction__currency", "account_id")
        .annotate(total=Sum("amount"))
        .order_by("transaction__currency", "account_id")
    )
    for row in rows:
        if row["total"]:
            out[row["transaction__currency"]][row["account_id"]] = row["total"]
    return dict(out)


def ledger_totals(*, club_id: int | None = None) -> dict[str, int]:
    """The sum of every entry per currency (of one club, or of all): 0 in each, by invariant 2."""
    entries = MoneyEntry.objects.all() if club_id is None else MoneyEntry.objects.filter(account__club_id=club_id)
    rows = entries.values("transaction__currency").annotate(total=Sum("amount")).order_by("transaction__currency")
    return {row["transaction__currency"]: row["total"] for row in rows}


@dataclass(frozen=True)
class Transfer:
    payer: MoneyAccount
    payee: MoneyAccount
    cents: int


@dataclass(frozen=True)
class CurrencyPlan:
    """One currency's open balances (by account) and the fewest transfers that square them."""

    currency: str
    balances: list[tuple[MoneyAccount, int]]
    transfers: list[Transfer]


def settle_up_plan(*, user: AbstractBaseUser, club_id: int) -> list[CurrencyPlan]:
    """Per currency, everyone's open balance and the fewest transfers after which all are at zero
    (`ledger.engine.settle_up`: exact up to 12 open balances, at most n - 1 transfers beyond)."""
    club_role(user=user, club_id=club_id, role=Role.TREASURER)
    open_ = balances(club_id=club_id)
    ids = {account_id for per in open_.values() for account_id in per}
    accounts = {a.pk: a for a in MoneyAccount.objects.filter(pk__in=ids).select_related("player")}
    plans = []
    for currency, per in sorted(open_.items()):
        transfers = settle_up(per)
        plans.append(
            CurrencyPlan(
                currency=currency,
                balances=[(accounts[a], amount) for a, amount in per.items()],
                transfers=[Transfer(accounts[p], accounts[q], c) for p, q, c in transfers],  # type: ignore[index]
            )
        )
    return plans


def payment_list(*, user: AbstractBaseUser, club_id: int) -> QuerySet[MoneyTransaction]:
    """The club's recorded payments and write-offs, newest first (treasurers and above)."""
    club_role(user=user, club_id=club_id, role=Role.TREASURER)
    return (
        MoneyTransaction.objects.filter(club_id=club_id, kind__in=MoneyTransaction.PAYMENT_KINDS)
        .select_related("created_by")
        .prefetch_related("entries__account__player")
        .order_by("-id")
    )


def statement_player(*, user: AbstractBaseUser, player_id: int) -> Player:
    """The player whose statement the user may read: their own, or any of the club's for a treasurer."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound("no such player")
    try:
        role = club_role(user=user, club_id=player.club_id)
    except NotFound:
        raise NotFound("no such player") from None
    if player.user_id != user.pk and Role.rank(role) < Role.rank(Role.TREASURER):
        raise PermissionDenied("a player's statement is for the player and the club's treasurers")
    return player


def statement_entries(*, player: Player) -> QuerySet[MoneyEntry]:
    """The player's entries, oldest first, each with `balance`: the running balance in its currency."""
    return (
        MoneyEntry.objects.filter(account__player=player)
        .select_related("transaction", "transaction__created_by")
        .prefetch_related("transaction__entries__account__player")
        .annotate(
            balance=Window(
                Sum("amount"),
                partition_by=[F("transaction__currency")],
                order_by=[F("transaction_id").asc(), F("id").asc()],
            )
        )
        .order_by("transaction_id", "id")
    )


def statement_balances(*, player: Player) -> dict[str, int]:
    rows = (
        MoneyEntry.objects.filter(account__player=player)
        .values("transaction__currency")
        .annotate(total=Sum("amount"))
        .order_by("transaction__currency")
    )
    return {row["transaction__currency"]: row["total"] for row in rows}


def counterparties(entry: MoneyEntry) -> list[str]:
    """The names of the other accounts in the entry's transaction."""
    return [
        _party_name(other.account) for other in entry.transaction.entries.all() if other.account_id != entry.account_id
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


def format_minor(amount: int, currency: str) -> str:
    """Minor units as a decimal string of the currency (-1234 USD: "-12.34"; JPY: "-1234")."""
    exponent = minor_unit_exponent(currency)
    return str(Decimal(amount).scaleb(-exponent)) if exponent else str(amount)


def carried_pools(*, user: AbstractBaseUser, club_id: int) -> QuerySet[Session]:
    """The club's closed sessions that carried pools (more than 0 counters) nobody has claimed yet,
    oldest first: what `carry_pools_from` may name when a session is opened."""
    club_role(user=user, club_id=club_id)
    return (
        Session.objects.filter(club_id=club_id, status=Session.Status.CLOSED, pools_claimed_by__isnull=True)
        .exclude(closing__carried=[])
        .exclude(closing__carried=[0])
        .order_by("closed_at", "id")
    )


def statement_rows(*, player: Player) -> Iterator[dict[str, Any]]:
    """The whole statement as flat rows (the CSV's), oldest first."""
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
