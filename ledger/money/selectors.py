"""Reads of the club's money ledger (`ledger.money` lists its invariants): balances, settle-up, payments,
statements and the carried pools nobody has claimed. Scoped like `ledger.selectors`: a non-member gets
`NotFound`, a member without the role `PermissionDenied`."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import F, Q, QuerySet, Sum, Window

from ledger.engine.room import room_settlement, room_totals, table_results
from ledger.engine.settle_up import evening_left, settle_up
from ledger.exceptions import NotFound, PermissionDenied
from ledger.models import MoneyAccount, MoneyEntry, MoneyTransaction, NightTable, Player, Role, Session
from ledger.selectors import Reader, closing_players, club_role

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
        .select_related("created_by", "reversed_by")
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
    cents: int  # the evening's transfer, as printed (or, owed back, what squares the evening)
    paid: int  # what the payments tied to it add up to, net of any the other way (reversed ones left out)
    left: int = 0  # what is still to pay of it: never what its payer has already paid tonight
    written_off: int = 0  # of `paid`, what was written off rather than handed over
    refund: bool = False  # owed back: the payee paid the payer more than tonight asked

    @property
    def cash(self) -> int:
        """What was handed over of it (paid less written off)."""
        return self.paid - self.written_off


@dataclass
class DebtorPaid:
    name: str  # "pool" for the club's pool account: the page says it in words
    owed: int  # what the evening's transfers have him pay
    paid: int  # what he paid tonight by payments tied to the evening, net of refunds (may exceed `owed`)
    party: Party = POOL
    written_off: int = 0  # of `paid`, what the treasurer wrote off: settled, but never handed over

    @property
    def cash(self) -> int:
        """What he handed over (paid less written off): what his line says he paid."""
        return self.paid - self.written_off


@dataclass
class TiedPayment:
    """A payment tied to the evening, as recorded: it stays tied whatever an amendment does."""

    tx: MoneyTransaction
    payer: Party
    payee: Party
    cents: int
    payer_name: str = ""
    payee_name: str = ""
    label: str = ""  # its kind in words (the page's)


@dataclass
class EveningPaid:
    currency: str
    owed: int
    paid: int  # what is settled of the printed transfers (`owed` less what is left): the percentage's
    debtors: list[DebtorPaid]
    transfers: list[TransferPaid] = field(default_factory=list)
    back: list[TransferPaid] = field(default_factory=list)  # what payments moved beyond tonight's transfers
    tied: list[TiedPayment] = field(default_factory=list)

    @property
    def percent(self) -> int:
        return 100 if not self.owed else self.paid * 100 // self.owed

    @property
    def paid_in(self) -> int:
        """What the debtors handed over tonight, overpayments included (the headline's "paid"): a
        write-off settles a transfer but is no payment, so it is said apart (`written_off`)."""
        return sum(d.cash for d in self.debtors)

    @property
    def written_off(self) -> int:
        return sum(d.written_off for d in self.debtors)


@dataclass(frozen=True)
class EveningState:
    """An evening's printed transfers and the payments tied to it, by party, and what is left of each
    transfer and owed back (`ledger.engine.settle_up.evening_left`)."""

    currency: str
    printed: list[tuple[Party, Party, int]]
    tied: list[TiedPayment]
    lefts: list[int]
    back: list[tuple[Party, Party, int]]

    def owed(self, payer: Party, payee: Party) -> int:
        """What the payer still owes the payee tonight: left of their transfer, and owed back."""
        left = sum(n for (p, q, _), n in zip(self.printed, self.lefts, strict=True) if (p, q) == (payer, payee))
        return left + sum(c for p, q, c in self.back if (p, q) == (payer, payee))


def evening_state(session: Session) -> EveningState | None:
    """The session's transfers as its close prints them and the payments tied to it; None while open."""
    closing = session.closing or {}
    if session.status != Session.Status.CLOSED or not closing.get("currency"):
        return None
    currency = str(closing["currency"])
    seats = [p.pk for p in closing_players(session=session)]

    def who(value: object) -> Party:
        return POOL if value == POOL else seats[int(str(value))]

    printed = [(who(t["from"]), who(t["to"]), int(t["cents"])) for t in closing.get("payments", [])]
    tied = []
    payments = (
        MoneyTransaction.objects.filter(
            for_session=session,
            currency=currency,
            kind__in=MoneyTransaction.PAYMENT_KINDS,
            reversed_by__isnull=True,
        )
        .prefetch_related("entries__account")
        .order_by("id")
    )
    for tx in payments:
        entries = list(tx.entries.all())
        payer = next(e for e in entries if e.amount > 0)
        payee = next(e for e in entries if e.amount < 0)
        tied.append(TiedPayment(tx, party(payer.account), party(payee.account), payer.amount))
    lefts, back = evening_left(printed, [(t.payer, t.payee, t.cents) for t in tied])
    return EveningState(currency, printed, tied, lefts, back)


def evening_paid(*, session: Session) -> EveningPaid | None:
    """How much of the session's transfers is paid: None while it has no close in the ledger.

    Only the payments tied to the evening count (invariant 5): money netted against other evenings
    squares the club's books, not tonight's settlement. A tied payment stays tied after a reopen and an
    amendment changed the transfers: what it paid beyond the new ones is owed back (issue 38)."""
    session = Session.objects.filter(pk=session.pk).first() or session  # as it stands now
    close = MoneyTransaction.objects.filter(
        session=session, kind=MoneyTransaction.Kind.CLOSE, reversed_by__isnull=True
    ).first()
    state = evening_state(session)
    if close is None or state is None:
        return None
    names = {p.pk: p.name for p in closing_players(session=session)}

    def name(p: Party) -> str:
        return POOL if p == POOL else names.get(p) or Player.objects.get(pk=p).name

    def on(pair: tuple[Party, Party], written_off: bool = False) -> int:
        total = 0
        for t in state.tied:
            if written_off and t.tx.kind != MoneyTransaction.Kind.WRITTEN_OFF:
                continue
            total += t.cents if (t.payer, t.payee) == pair else -t.cents if (t.payee, t.payer) == pair else 0
        return max(total, 0)

    transfers = [
        TransferPaid(p, q, name(p), name(q), cents, on((p, q)), left, on((p, q), True))
        for (p, q, cents), left in zip(state.printed, state.lefts, strict=True)
    ]
    back = [
        TransferPaid(
            p, q, name(p), name(q), cents, 0, cents, refund=any((t.payer, t.payee) == (q, p) for t in state.tied)
        )
        for p, q, cents in state.back
    ]
    for tied in state.tied:
        tied.payer_name, tied.payee_name = name(tied.payer), name(tied.payee)
    debtors: dict[Party, DebtorPaid] = {}
    for t in transfers:
        debtors.setdefault(t.payer, DebtorPaid(t.payer_name, 0, 0, t.payer)).owed += t.cents
    for d in debtors.values():
        net = sum(t.cents for t in state.tied if t.payer == d.party) - sum(
            t.cents for t in state.tied if t.payee == d.party
        )
        d.paid = max(net, 0)
        off = sum(t.cents for t in state.tied if t.payer == d.party and t.tx.kind == MoneyTransaction.Kind.WRITTEN_OFF)
        d.written_off = min(off, d.paid)
    owed = sum(t.cents for t in transfers)
    return EveningPaid(
        currency=state.currency,
        owed=owed,
        paid=owed - sum(state.lefts),
        debtors=list(debtors.values()),
        transfers=transfers,
        back=back,
        tied=state.tied,
    )


# --- a club night's room settlement (issue 37) ------------------------------------------------------


@dataclass
class RoomTransfer:
    payer: Party
    payee: Party
    payer_name: str
    payee_name: str
    cents: int  # the room's transfer, as printed
    paid: int  # what the payments tied to it (for the night) add up to, reversals left out

    @property
    def left(self) -> int:
        return max(self.cents - self.paid, 0)


@dataclass
class RoomSettlement:
    """A night's one settlement: `ready` once every table is closed and their money is in one currency
    (else `refusal` says why not); `totals` each party's results added up over the tables."""

    tables: list[Session]
    ready: bool
    games: list[tuple[int, int]] = field(default_factory=list)  # each session's (table number, game)
    refusal: str = ""
    currencies: list[str] = field(default_factory=list)  # the tables' currencies, when more than one
    currency: str = ""
    totals: list[tuple[Party, str, int]] = field(default_factory=list)
    transfers: list[RoomTransfer] = field(default_factory=list)
    alone: list[int] = field(default_factory=list)  # the sessions paid on their own: the room leaves them out

    @property
    def owed(self) -> int:
        return sum(t.cents for t in self.transfers)

    @property
    def paid(self) -> int:
        return sum(min(t.paid, t.cents) for t in self.transfers)


NOT_ALL_CLOSED = "the room is settled once every table is closed"
NO_TABLES = "no table has been drawn tonight"


def night_settlement(*, night_id: int) -> RoomSettlement:
    """The night's room settlement, from its tables' closes: each table's money per seat's player and
    its pool money (the club's pool account) added up per party, and squared with the fewest transfers
    (`ledger.engine.room`). Tables played for different currencies are refused (docs/decisions.md).
    A table with a payment of its own (`tables_paid_alone`) is settled on its own page: left out of the
    sums, listed in `alone`, so the room's transfers never cover it again."""
    rows = list(NightTable.objects.filter(night_id=night_id).select_related("session").order_by("number", "game"))
    tables, games = [t.session for t in rows], [(t.number, t.game) for t in rows]
    if not tables:
        return RoomSettlement(tables=tables, games=games, ready=False, refusal=NO_TABLES)
    if any(s.status != Session.Status.CLOSED for s in tables):
        return RoomSettlement(tables=tables, games=games, ready=False, refusal=NOT_ALL_CLOSED)
    alone = tables_paid_alone([s.pk for s in tables])
    names: dict[Party, str] = {POOL: POOL}
    results: list[dict[Party, int]] = []
    currencies: set[str] = set()
    for session in tables:
        closing = session.closing or {}
        if "money" not in closing or session.pk in alone:
            continue  # a table played without a stake moves no money; one paid on its own is settled there
        currencies.add(str(closing["currency"]))
        parties = closing_players(session=session)  # a leaver and his substitute each his own (issue 37)
        names.update((player.pk, player.name) for player in parties)
        results.append(table_results([player.pk for player in parties], closing))
    if len(currencies) > 1:
        refusal = (
            "the tables were played for " + ", ".join(sorted(currencies)) + ": the room is settled in one "
            "currency only; settle each table on its own"
        )
        return RoomSettlement(
            tables=tables,
            games=games,
            ready=False,
            refusal=refusal,
            currencies=sorted(currencies),
            alone=[s.pk for s in tables if s.pk in alone],
        )
    currency = currencies.pop() if currencies else ""
    totals = room_totals(results)
    transfers = room_settlement(results)
    accounts = {
        party(a): a.pk
        for a in MoneyAccount.objects.filter(
            Q(player_id__in=[p for p in totals if p != POOL]) | Q(kind=MoneyAccount.Kind.POOL),
            club_id=tables[0].club_id,
        )
    }
    out = []
    for payer, payee, cents in transfers:
        paid = 0
        if payer in accounts and payee in accounts:
            paid = night_tied_paid(night_id, accounts[payer], accounts[payee], currency)
        out.append(RoomTransfer(payer, payee, names[payer], names[payee], cents, paid))
    return RoomSettlement(
        tables=tables,
        games=games,
        ready=True,
        currency=currency,
        totals=sorted(((p, names[p], a) for p, a in totals.items()), key=lambda t: (-t[2], t[1])),
        transfers=out,
        alone=[s.pk for s in tables if s.pk in alone],
    )


def _standing_payments() -> QuerySet[MoneyTransaction]:
    """Payments and write-offs that stand (not reversed)."""
    return MoneyTransaction.objects.filter(kind__in=MoneyTransaction.PAYMENT_KINDS, reversed_by__isnull=True)


def tables_paid_alone(session_ids: list[int]) -> set[int]:
    """The sessions among these with a payment of their own standing (tied to one of their transfers)."""
    found = _standing_payments().filter(for_session_id__in=session_ids).values_list("for_session_id", flat=True)
    return {pk for pk in found if pk is not None}


def settled_by_night(*, session_id: int) -> NightTable | None:
    """The night table (its night, number and game) of a session whose own transfers its night's room
    settlement pays: the session is a table of a night with a payment standing, and has none of its own
    (a table paid on its own is left out of the room, so its own page goes on taking its payments).
    None when its own payments are the ones to record (docs/decisions.md, "Paid once")."""
    table = NightTable.objects.filter(session_id=session_id).select_related("night").first()
    if table is None or not _standing_payments().filter(for_night_id=table.night_id).exists():
        return None
    if tables_paid_alone([session_id]):
        return None
    return table


def night_tied_paid(night_id: int, payer_account: int, payee_account: int, currency: str) -> int:
    """What the payments tied to the night's transfer payer -> payee add up to, reversals left out."""
    rows = MoneyEntry.objects.filter(
        account_id=payer_account,
        amount__gt=0,
        transaction__for_night_id=night_id,
        transaction__currency=currency,
        transaction__reversed_by__isnull=True,
        transaction__entries__account_id=payee_account,
    ).aggregate(total=Sum("amount"))
    return int(rows["total"] or 0)
