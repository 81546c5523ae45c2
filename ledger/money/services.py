"""Writes of the club's money ledger, the only code that writes its tables (`ledger.money` lists the
invariants they keep): a session's money posted on close and reversed on reopen, and payments. One
durable transaction each, locks taken in primary-key order."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from ledger.currency import money_text
from ledger.exceptions import InvalidRequest, NotFound, SettledByNight
from ledger.models import MoneyAccount, MoneyEntry, MoneyTransaction, Night, Player, Role, Session
from ledger.selectors import closing_players, club_role

from . import MAX_CENTS, NOTE_MAX, PAYMENT_STATUSES, POOL, Party, chain
from .selectors import account_balance, evening_state, night_settlement, night_tied_paid, settled_by_night

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
        out[account.player_id or POOL] = account
    if pool:
        pool_account = MoneyAccount.objects.filter(club_id=club_id, kind=MoneyAccount.Kind.POOL).first()
        if pool_account is not None:
            out[POOL] = pool_account
    return out


# --- posting ---------------------------------------------------------------------------------------


def _post(*, club_id: int, kind: str, currency: str, amounts: dict[int, int], **fields: Any) -> MoneyTransaction | None:
    """One transaction with an entry per account id in `amounts` (zero amounts dropped); None if empty."""
    amounts = {account_id: amount for account_id, amount in amounts.items() if amount}
    if not amounts:
        return None
    if sum(amounts.values()) != 0 or len(amounts) < 2:
        raise ValueError(f"a money transaction's entries must be two or more adding up to 0, not {amounts}")
    if any(abs(a) > MAX_CENTS for a in amounts.values()):
        limit = money_text(MAX_CENTS, currency, with_currency=True)  # money, never "minor units"
        raise InvalidRequest.field("cents", f"an amount above {limit} cannot be stored")
    tx = MoneyTransaction.objects.create(club_id=club_id, kind=kind, currency=currency, **fields)
    MoneyEntry.objects.bulk_create(
        MoneyEntry(transaction=tx, account_id=account_id, amount=amount)
        for account_id, amount in sorted(amounts.items())
    )
    chain.append(tx, amounts)  # its link in the club's digest chain, in this same transaction
    return tx


def _reverse(tx: MoneyTransaction, **fields: Any) -> MoneyTransaction:
    opposite = {e.account_id: -e.amount for e in tx.entries.all()}
    reversal = _post(
        club_id=tx.club_id,
        kind=MoneyTransaction.Kind.REVERSAL,
        currency=tx.currency,
        amounts=opposite,
        session_id=tx.session_id,
        close_version=tx.close_version,
        reverses=tx,
        **fields,
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
    for player, cents in zip(closing_players(session=session), closing["money"], strict=True):
        per_party[player.pk] += cents
    per_party[POOL] += closing.get("pool_money", 0)
    per_party = {p: a for p, a in per_party.items() if a}
    if not per_party:
        return None
    players = [p for p in per_party if isinstance(p, int)]
    accounts = _accounts(session.club_id, players, pool=POOL in per_party)
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
                close = _post(
                    club_id=session.club_id,
                    kind=MoneyTransaction.Kind.CLOSE,
                    currency=expected.currency,
                    amounts=expected.amounts,
                    session=session,
                    close_version=expected.close_version,
                    # dated when the evening closed: an imported evening's money is of its day (`closed_at`)
                    **({"created_at": session.closed_at} if session.closed_at else {}),
                )
                if close is not None:
                    posted.append(close.pk)
        return MoneySync(session_id=session.pk, version=session.version, posted=posted, reversed=reversed_)


# --- payments --------------------------------------------------------------------------------------


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


class Overpayment(InvalidRequest):
    """A payment beyond what is owed, refused until it is confirmed (`overpay`): says what it would do
    to both balances. `owed` is what the payer owes the payee (for this evening's transfer when tied to
    one), the balances are the two parties' open balances in the currency before and after."""

    def __init__(
        self, message: str, *, owed: int, cents: int, payer_balance: int, payee_balance: int, currency: str
    ) -> None:
        super().__init__(message, {"cents": [message]})
        self.owed = owed
        self.cents = cents
        self.payer_balance = payer_balance
        self.payee_balance = payee_balance
        self.currency = currency


class LikelyDuplicate(InvalidRequest):
    """The same payment (parties, amount, currency, kind, evening) was recorded minutes ago: refused
    until it is confirmed (`duplicate_ok`), so a form sent from two tabs does not pay twice."""

    def __init__(self, message: str, *, earlier: MoneyTransaction) -> None:
        super().__init__(message, {"cents": [message]})
        self.earlier = earlier


DUPLICATE_WINDOW = timedelta(minutes=10)


def evening_transfer(session: Session, payer: Party, payee: Party) -> tuple[str, int] | None:
    """(currency, minor units) of the transfer `payer` -> `payee` the session's close prints, or None."""
    closing = session.closing or {}
    if session.status != Session.Status.CLOSED or not closing.get("currency"):
        return None
    seats = [p.pk for p in closing_players(session=session)]

    def who(value: Any) -> Party:
        return POOL if value == POOL else seats[value]

    total = sum(
        int(t["cents"]) for t in closing.get("payments", []) if (who(t["from"]), who(t["to"])) == (payer, payee)
    )
    return (str(closing["currency"]), total) if total else None


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
    client_key: uuid.UUID | None = None,
    session_id: int | None = None,
    night_id: int | None = None,
    overpay: bool = False,
    duplicate_ok: bool = True,
) -> MoneyTransaction:
    """Record that `payer` paid `payee` (treasurers and above): `paid`, `partly_paid`, or `written_off`
    (the payee gave the money up). The payer's balance rises by `cents`, the payee's falls by as much.

    Cash handed over is a fact, never refused for the balances of other evenings (invariant 5). With
    `session_id` the payment is tied to that evening's transfer payer -> payee (the settlement's
    "record" link): what is owed is that transfer less the payments already tied to it. Without, it is
    free, and what is owed is the least of what the payer owes and the payee is owed overall. Beyond
    what is owed it is refused (`Overpayment`, saying what it does to both balances) unless `overpay`.
    Both accounts are locked (primary-key order) while that is checked, so two at once cannot overpay
    unconfirmed. With `duplicate_ok` false (the books page), the same payment recorded in the last
    minutes is refused (`LikelyDuplicate`) until confirmed.

    A night is paid once (docs/decisions.md, "Paid once"): a table of a night whose room settlement has
    a payment is refused its own (`SettledByNight`, 409 `settled_by_night`), and a payment tied to the
    night is checked against the room without the tables paid on their own. Both are checked under the
    club's chain head lock, which every money write of the club takes, so two phones at once cannot both
    pay one table.

    Idempotent by `client_key` (the treasurer's key for it, unique per club and user; the API's
    Idempotency-Key, the books form's own key): a retry returns the payment its first attempt recorded
    instead of paying twice. The lookup runs only when the write is refused or hits the key's constraint.
    """
    if status not in PAYMENT_STATUSES:
        raise InvalidRequest.field("status", "status must be one of " + ", ".join(PAYMENT_STATUSES))
    if type(cents) is not int or not 0 < cents <= MAX_CENTS:
        raise InvalidRequest.field("cents", "the amount must be more than 0 and less than a million billion")
    if payer == payee:
        raise InvalidRequest.field("to", "a payment goes from one party to another")
    if session_id is not None and night_id is not None:
        raise InvalidRequest.field("night", "a payment is tied to one evening's transfer or one night's, not both")
    note = _clean_note(note)
    try:
        with transaction.atomic(durable=True):
            club_role(user=actor, club_id=club_id, role=Role.TREASURER)
            evening = _evening(club_id, session_id, payer, payee, currency)
            if night_id is not None and not Night.objects.filter(pk=night_id, club_id=club_id).exists():
                raise InvalidRequest.field("night", f"there is no night {night_id} in this club")
            accounts = [_payment_account(club_id, payer, "from"), _payment_account(club_id, payee, "to")]
            ids = sorted(a.pk for a in accounts)
            list(MoneyAccount.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk"))
            # The club's chain head, after the accounts (the order every money write takes them): a night
            # and its tables are paid by other accounts, so only the club-wide lock makes what they have
            # paid hold until this payment commits (two phones at once: the second sees the first).
            chain.lock(club_id)
            found = _payment_by_key(actor, club_id, client_key)  # a retry, seen under the locks
            if found is not None:
                return found
            if evening is not None:
                _not_settled_by_night(evening)
            night = _night(night_id, payer, payee, currency)  # its tables paid alone, as they stand
            payer_balance = account_balance(accounts[0].pk, currency)
            payee_balance = account_balance(accounts[1].pk, currency)
            if evening is not None:
                state = evening_state(evening)  # seen under the locks: the tied payments as they stand
                owed = state.owed(payer, payee) if state is not None else 0
            elif night is not None:
                owed = night[1] - night_tied_paid(night[0], accounts[0].pk, accounts[1].pk, currency)
            else:
                owed = min(-payer_balance, payee_balance)
            owed = max(owed, 0)
            if cents > owed and not overpay:
                raise Overpayment(
                    _overpay_text(
                        owed, cents, payer_balance, payee_balance, currency, evening is not None or night is not None
                    ),
                    owed=owed,
                    cents=cents,
                    payer_balance=payer_balance,
                    payee_balance=payee_balance,
                    currency=currency,
                )
            if not duplicate_ok:
                _check_duplicate(club_id, accounts, currency, cents, status, session_id, night_id)
            tx = _post(
                club_id=club_id,
                kind=status,
                currency=currency,
                amounts={accounts[0].pk: cents, accounts[1].pk: -cents},
                note=note,
                created_by=actor,
                client_key=client_key,
                for_session_id=session_id,
                for_night_id=night_id,
            )
            assert tx is not None
    except IntegrityError:
        found = _payment_by_key(actor, club_id, client_key)
        if found is None:
            raise
        return found
    return tx


def _evening(club_id: int, session_id: int | None, payer: Party, payee: Party, currency: str) -> Session | None:
    """The evening a payment is tied to, or None: one of its transfers as printed, or money its tied
    payments moved beyond them that is owed back after an amendment (issue 38)."""
    if session_id is None:
        return None
    session = Session.objects.filter(pk=session_id, club_id=club_id).first()
    if session is None:
        raise InvalidRequest.field("session", f"there is no session {session_id} in this club")
    transfer = evening_transfer(session, payer, payee)
    if transfer is None:
        state = evening_state(session)
        if state is None or not any((p, q) == (payer, payee) for p, q, _c in state.back):
            raise InvalidRequest.field("session", f"session {session_id} has no transfer from this payer to this payee")
        transfer = (state.currency, 0)
    if transfer[0] != currency:
        raise InvalidRequest.field("currency", f"session {session_id} was played for {transfer[0]}, not {currency}")
    return session


def _not_settled_by_night(session: Session) -> None:
    """Refuse a payment of the session's own transfers while its night's room settlement pays them."""
    table = settled_by_night(session_id=session.pk)
    if table is not None:
        raise SettledByNight(
            f"table {table.number} is paid with the room of the night of {table.night.date.isoformat()}: a payment"
            " is recorded there, and it counts this table already, so paying the table's own transfers would pay"
            " twice; record the payments on the night's settlement",
            night=table.night,
        )


def _night(night_id: int | None, payer: Party, payee: Party, currency: str) -> tuple[int, int] | None:
    """(night id, the transfer's minor units) of the room transfer a payment is tied to, or None. The
    room leaves out a table paid on its own, so a payment tied to the night never covers it again."""
    if night_id is None:
        return None
    room = night_settlement(night_id=night_id)
    if not room.ready:
        raise InvalidRequest.field("night", room.refusal)
    cents = sum(t.cents for t in room.transfers if (t.payer, t.payee) == (payer, payee))
    if not cents and room.alone:  # (it may have had one before a table was paid on its own)
        raise InvalidRequest.field(
            "night",
            f"night {night_id} has no transfer from this payer to this payee: the room leaves out the tables"
            " paid on their own",
        )
    if not cents:
        raise InvalidRequest.field("night", f"night {night_id} has no transfer from this payer to this payee")
    if room.currency != currency:
        raise InvalidRequest.field("currency", f"night {night_id} was played for {room.currency}, not {currency}")
    return night_id, cents


def _overpay_text(owed: int, cents: int, payer_balance: int, payee_balance: int, currency: str, tied: bool) -> str:
    def amount(value: int) -> str:
        return f"{money_text(value, currency, grouped=False, minus='-', signed=True)} {currency}"

    what = "this evening's transfer leaves" if tied else "the payer owes the payee"
    return (
        f"{what} {amount(owed).lstrip('+')} to pay, less than {amount(cents).lstrip('+')}: recorded, the payer's "
        f"balance goes from {amount(payer_balance)} to {amount(payer_balance + cents)} and the payee's from "
        f"{amount(payee_balance)} to {amount(payee_balance - cents)}; send `overpay: true` to record it"
    )


def _check_duplicate(
    club_id: int,
    accounts: list[MoneyAccount],
    currency: str,
    cents: int,
    status: str,
    session_id: int | None,
    night_id: int | None = None,
) -> None:
    since = timezone.now() - DUPLICATE_WINDOW
    earlier = (
        MoneyTransaction.objects.filter(
            club_id=club_id,
            kind=status,
            currency=currency,
            for_session_id=session_id,
            for_night_id=night_id,
            created_at__gte=since,
            reversed_by__isnull=True,
            entries__account_id=accounts[0].pk,
            entries__amount=cents,
        )
        .filter(pk__in=MoneyEntry.objects.filter(account_id=accounts[1].pk, amount=-cents).values("transaction_id"))
        .order_by("-pk")
        .first()
    )
    if earlier is not None:
        raise LikelyDuplicate(
            f"the same payment was recorded at {earlier.created_at:%H:%M} UTC (payment {earlier.pk}); "
            "send it again with `duplicate_ok` to record a second one",
            earlier=earlier,
        )


def _payment_by_key(actor: AbstractBaseUser, club_id: int, client_key: uuid.UUID | None) -> MoneyTransaction | None:
    """The payment this treasurer recorded in the club with this key, if any."""
    if client_key is None:
        return None
    return MoneyTransaction.objects.filter(club_id=club_id, created_by_id=actor.pk, client_key=client_key).first()


def _clean_note(note: str | None) -> str:
    return "".join(c if c.isprintable() else " " for c in (note or "")).strip()[:NOTE_MAX]


def payment_reverse(*, actor: AbstractBaseUser, club_id: int, transaction_id: int, note: str = "") -> MoneyTransaction:
    """Undo a recorded payment or write-off (treasurers and above): its exact opposite, with who and why,
    posted beside it, so the history keeps both (append-only) and the debt is open again.

    A payment is reversed at most once (one-to-one `reverses`): both accounts are locked (primary-key
    order, as `payment_record` does) before that is checked, so two reversals at once cannot both post.
    """
    note = _clean_note(note)
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.TREASURER)
        tx = (
            MoneyTransaction.objects.filter(pk=transaction_id, club_id=club_id, kind__in=MoneyTransaction.PAYMENT_KINDS)
            .prefetch_related("entries")
            .first()
        )
        if tx is None:
            raise NotFound("no such payment in this club")
        ids = sorted(e.account_id for e in tx.entries.all())
        list(MoneyAccount.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk"))
        if MoneyTransaction.objects.filter(reverses=tx).exists():
            raise InvalidRequest.field("transaction", f"payment {tx.pk} is already reversed")
        return _reverse(tx, note=note, created_by=actor)
