"""Reads of the club's money ledger (`ledger.money` lists its invariants): balances, settle-up, payments,
statements and the carried pools nobody has claimed. Scoped like `ledger.selectors`: a non-member gets
`NotFound`, a member without the role `PermissionDenied`."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import F, Q, QuerySet, Sum, Window

from ledger.engine.settle_up import settle_up
from ledger.exceptions import NotFound, PermissionDenied
from ledger.models import MoneyAccount, MoneyEntry, MoneyTransaction, Player, Role, Session
from ledger.selectors import Reader, club_role, session_players

from . import POOL, Party


def party(account: MoneyAccount) -> Party:
    """The account's party: its player's id, or "pool" (the one account without a player)."""
    return POOL if account.player_id is None else account.player_id


def account_balance(account_id: int, currency: str) -> int:
    total = MoneyEntry.objects.filter(account_id=account_id, transaction__currency=currency).aggregate(
        total=Sum("amount")
    )["total"]
    return total or 0


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


def settle_up_plan(*, user: Reader, club_id: int) -> list[CurrencyPlan]:
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
                transfers=[Transfer(accounts[p], accounts[q], c) for p, q, c in transfers],
            )
        )
    return plans


def payment_list(*, user: Reader, club_id: int) -> QuerySet[MoneyTransaction]:
    """The club's recorded payments and write-offs, newest first (treasurers and above)."""
    club_role(user=user, club_id=club_id, role=Role.TREASURER)
    return (
        MoneyTransaction.objects.filter(club_id=club_id, kind__in=MoneyTransaction.PAYMENT_KINDS)
        .select_related("created_by")
        .prefetch_related("entries__account__player")
        .order_by("-id")
    )


def statement_player(*, user: Reader, player_id: int) -> Player:
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


def carried_pools(*, user: Reader, club_id: int) -> list[Session]:
    """The club's closed sessions that carried pools (more than 0 counters) nobody has claimed yet,
    oldest first: what `carry_pools_from` may name when a session is opened (members).

    The common empty cases (`[]`, a single `[0]`) are left out by the database; several pools that all
    came to 0 (an American carry of empty pools) by the sum, which JSON lookups cannot take portably."""
    club_role(user=user, club_id=club_id)
    unclaimed = (
        Session.objects.filter(club_id=club_id, status=Session.Status.CLOSED, pools_claimed_by__isnull=True)
        .exclude(closing__carried=[])
        .exclude(closing__carried=[0])
        .order_by("closed_at", "id")
    )
    return [session for session in unclaimed if carried_total(session) > 0]


def carried_total(session: Session) -> int:
    """The counters of the pools the session carried over (0 while it is open)."""
    return sum((session.closing or {}).get("carried") or [])


def reversals_of(*, transactions: list[MoneyTransaction]) -> dict[int, MoneyTransaction]:
    """The reversal of each of these transactions that has one, by the id of the one it reverses."""
    found = MoneyTransaction.objects.filter(reverses__in=[t.pk for t in transactions]).select_related("created_by")
    return {tx.reverses_id: tx for tx in found if tx.reverses_id is not None}


def has_pool_account(*, club_id: int) -> bool:
    return MoneyAccount.objects.filter(club_id=club_id, kind=MoneyAccount.Kind.POOL).exists()


@dataclass
class TransferPaid:
    payer: Party
    payee: Party
    payer_name: str
    payee_name: str
    cents: int  # the evening's transfer, as printed
    paid: int  # what the payments tied to it add up to (reversed ones left out)

    @property
    def left(self) -> int:
        return max(self.cents - self.paid, 0)


@dataclass
class DebtorPaid:
    name: str  # "pool" for the club's pool account: the page says it in words
    owed: int  # what the evening's transfers have him pay
    paid: int  # of which is paid by payments tied to them
    party: Party = POOL


@dataclass
class EveningPaid:
    currency: str
    owed: int
    paid: int
    debtors: list[DebtorPaid]
    transfers: list[TransferPaid] = field(default_factory=list)

    @property
    def percent(self) -> int:
        return 100 if not self.owed else self.paid * 100 // self.owed


def evening_paid(*, session: Session) -> EveningPaid | None:
    """How much of the session's transfers is paid: None while it has no close in the ledger.

    Only the payments tied to one of this evening's transfers count (invariant 5), each up to the
    transfer it pays: money netted against other evenings squares the club's books, not tonight's
    settlement."""
    session = Session.objects.filter(pk=session.pk).first() or session  # as it stands now
    close = MoneyTransaction.objects.filter(
        session=session, kind=MoneyTransaction.Kind.CLOSE, reversed_by__isnull=True
    ).first()
    closing = session.closing or {}
    if close is None or session.status != Session.Status.CLOSED or not closing.get("currency"):
        return None
    seats = list(session_players(session=session))
    accounts = {
        party(a): a
        for a in MoneyAccount.objects.filter(club_id=session.club_id).filter(
            Q(player_id__in=[p.pk for p in seats]) | Q(kind=MoneyAccount.Kind.POOL)
        )
    }

    def who(value: object) -> Party:
        return POOL if value == POOL else seats[int(str(value))].pk

    def name(p: Party) -> str:
        return POOL if p == POOL else next(s.name for s in seats if s.pk == p)

    transfers: list[TransferPaid] = []
    for t in closing.get("payments", []):
        payer, payee = who(t["from"]), who(t["to"])
        paid = 0
        if payer in accounts and payee in accounts:
            paid = tied_paid(session.pk, accounts[payer].pk, accounts[payee].pk, close.currency)
        transfers.append(TransferPaid(payer, payee, name(payer), name(payee), int(t["cents"]), paid))
    debtors: dict[Party, DebtorPaid] = {}
    for t in transfers:
        d = debtors.setdefault(t.payer, DebtorPaid(t.payer_name, 0, 0, t.payer))
        d.owed += t.cents
        d.paid += min(t.paid, t.cents)
    return EveningPaid(
        currency=close.currency,
        owed=sum(t.cents for t in transfers),
        paid=sum(min(t.paid, t.cents) for t in transfers),
        debtors=list(debtors.values()),
        transfers=transfers,
    )


def tied_paid(session_id: int, payer_account: int, payee_account: int, currency: str) -> int:
    """What the payments tied to the session's transfer payer -> payee add up to, reversals left out."""
    rows = MoneyEntry.objects.filter(
        account_id=payer_account,
        amount__gt=0,
        transaction__for_session_id=session_id,
        transaction__currency=currency,
        transaction__reversed_by__isnull=True,
        transaction__entries__account_id=payee_account,
    ).aggregate(total=Sum("amount"))
    return int(rows["total"] or 0)
