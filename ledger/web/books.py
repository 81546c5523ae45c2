"""Reads of the club's books pages (treasurer and admin) and of a player's own statement, composed from
the money ledger's selectors and scoped the same way (a stranger gets NotFound, a player without the
role PermissionDenied). Amounts stay integers in the currency's minor unit; the templates format them."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

from django.utils.translation import gettext, pgettext_lazy

from ledger import display, selectors
from ledger.models import MoneyAccount, MoneyEntry, MoneyTransaction, Player, Role, Session
from ledger.money import selectors as money_reads
from ledger.selectors import Reader

PAYMENT_LABELS = {
    "paid": pgettext_lazy("payment", "paid"),
    "partly_paid": pgettext_lazy("payment", "partly paid"),
    "written_off": pgettext_lazy("payment", "written off"),
}


def club_currencies(*, user: Reader, club_id: int) -> list[str]:
    """The currencies the club's closed sessions were played for, the most used first (then A-Z)."""
    sessions = selectors.session_list(user=user, club=club_id, status=Session.Status.CLOSED)
    counts = Counter(c for c in sessions.values_list("stake__currency", flat=True) if isinstance(c, str) and c)
    return sorted(counts, key=lambda c: (-counts[c], c))


def own_player(*, user: Reader, club_id: int) -> Player | None:
    """The user's own player in the club (his statement is his), if he has one."""
    return selectors.player_list(user=user, club_id=club_id).filter(user_id=selectors.user_id(user)).first()


def _name(account: MoneyAccount) -> str:
    return gettext("the club's pool") if account.player is None else account.player.name


def _party(account: MoneyAccount) -> str:
    return "pool" if account.kind == MoneyAccount.Kind.POOL else str(account.player_id)


@dataclass
class BalanceLine:
    party: str  # a player id or "pool", as the payment form sends it
    name: str
    player_id: int | None
    balance: int


@dataclass
class TransferLine:
    payer: str
    payer_name: str
    payee: str
    payee_name: str
    cents: int


@dataclass
class CurrencyBook:
    currency: str
    balances: list[BalanceLine]
    transfers: list[TransferLine]
    owed: int  # the sum of what the debtors owe (= what the others are owed)


@dataclass
class PaymentLine:
    tx: MoneyTransaction
    label: str
    payer_name: str
    payee_name: str
    cents: int
    reversal: MoneyTransaction | None = None


@dataclass
class Books:
    currencies: list[CurrencyBook] = field(default_factory=list)
    payments: list[PaymentLine] = field(default_factory=list)
    parties: list[tuple[str, str]] = field(default_factory=list)  # (party, name) for the payment form


def club_books(*, user: Reader, club_id: int, history: int = 50) -> Books:
    """Every member's open balance per currency, the fewest transfers that square them, and the latest
    payments with their reversals (treasurers and above)."""
    out = Books()
    for plan in money_reads.settle_up_plan(user=user, club_id=club_id):
        lines = sorted(
            (BalanceLine(_party(a), _name(a), a.player_id, amount) for a, amount in plan.balances),
            key=lambda b: (b.player_id is None, b.name.casefold()),
        )
        out.currencies.append(
            CurrencyBook(
                currency=plan.currency,
                balances=lines,
                transfers=[
                    TransferLine(_party(t.payer), _name(t.payer), _party(t.payee), _name(t.payee), t.cents)
                    for t in plan.transfers
                ],
                owed=sum(-b.balance for b in lines if b.balance < 0),
            )
        )
    payments = list(money_reads.payment_list(user=user, club_id=club_id)[:history])
    reversals = money_reads.reversals_of(transactions=payments)
    for tx in payments:
        entries = list(tx.entries.all())
        payer = next(e for e in entries if e.amount > 0)
        payee = next(e for e in entries if e.amount < 0)
        out.payments.append(
            PaymentLine(
                tx,
                str(PAYMENT_LABELS[tx.kind]),
                _name(payer.account),
                _name(payee.account),
                payer.amount,
                reversals.get(tx.pk),
            )
        )
    players = selectors.player_list(user=user, club_id=club_id)
    out.parties = [(str(p.pk), p.name) for p in players]
    if money_reads.has_pool_account(club_id=club_id):
        out.parties.append(("pool", gettext("the club's pool")))
    return out


@dataclass
class StatementLine:
    entry: MoneyEntry
    description: str
    balance: int
    when: dt.datetime | None = None  # when it was entered in the books (a close: when it was closed)
    played: dt.datetime | None = None  # a close's evening, when it is another day than `when`


@dataclass
class StatementTable:
    currency: str
    balance: int
    lines: list[StatementLine]  # oldest first: the running balance reads down


@dataclass
class Statement:
    player: Player
    balances: dict[str, int]
    tables: list[StatementTable]  # one per currency, A-Z, the page's order and the CSV's


def statement(*, user: Reader, player_id: int) -> Statement:
    """The player's statement: a table per currency of every entry with the running balance in that
    currency (the player himself, and the club's treasurers)."""
    player = money_reads.statement_player(user=user, player_id=player_id)
    balances = money_reads.statement_balances(player=player)
    tables = {currency: StatementTable(currency, cents, []) for currency, cents in sorted(balances.items())}
    entries = list(money_reads.statement_entries(player=player))
    entered = display.entered_at(entries)
    for e in entries:
        table = tables[e.transaction.currency]
        when = max(entered.get(e.transaction_id, e.transaction.created_at), e.transaction.created_at)
        played = e.transaction.created_at if when.date() != e.transaction.created_at.date() else None
        table.lines.append(StatementLine(e, display.describe(e), e.balance, when, played))  # type: ignore[attr-defined]
    return Statement(player, balances, list(tables.values()))


def may_keep_books(role: str) -> bool:
    return Role.rank(role) >= Role.rank(Role.TREASURER)
