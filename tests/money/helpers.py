"""Helpers of the money-ledger tests: writes through the services, and the ledger's invariants."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Count, Sum

from ledger import followup
from ledger.models import MoneyAccount, MoneyEntry, MoneyTransaction, Session
from ledger.money import selectors as money_selectors
from ledger.services.sessions import session_close, session_reopen
from tests.ledger_fixtures import fresh


def close(actor: Any, session: Session, pools: str = "divide") -> Session:
    current = fresh(session)
    session_close(actor=actor, session_id=current.pk, pools=pools, expected_version=current.version)
    return fresh(current)


def reopen(actor: Any, session: Session) -> Session:
    current = fresh(session)
    return session_reopen(actor=actor, session_id=current.pk, expected_version=current.version)


def run_followup(session: Session) -> followup.FollowupResult:
    result = followup.followup_run(session_id=session.pk)
    assert result is not None
    return result


def assert_ledger_balanced(club_id: int | None = None) -> None:
    """Invariant 2 of ledger/money/: each transaction two or more entries adding up to zero, so the
    whole ledger (and each club's) sums to zero in every currency."""
    totals = money_selectors.ledger_totals(club_id=club_id)
    assert all(total == 0 for total in totals.values()), totals
    per_tx = MoneyEntry.objects.values("transaction").annotate(total=Sum("amount"), n=Count("id"))
    bad = [row for row in per_tx if row["total"] != 0 or row["n"] < 2]
    assert not bad, bad
    assert not MoneyTransaction.objects.filter(entries__isnull=True).exists()


def party_balances(club_id: int) -> dict[tuple[str, Any], int]:
    """{(currency, player id or "pool"): open balance}, zeros left out."""
    out: dict[tuple[str, Any], int] = defaultdict(int)
    for entry in MoneyEntry.objects.filter(account__club_id=club_id).select_related("transaction", "account"):
        party = "pool" if entry.account.kind == MoneyAccount.Kind.POOL else entry.account.player_id
        out[entry.transaction.currency, party] += entry.amount
    return {k: v for k, v in out.items() if v}


def close_transactions(session: Session) -> list[MoneyTransaction]:
    return list(MoneyTransaction.objects.filter(session=session, kind=MoneyTransaction.Kind.CLOSE).order_by("id"))


def standing_money(session: Session) -> dict[Any, int]:
    """What the session's close puts on each party (player id or "pool"), from its closing JSON."""
    session = fresh(session)
    closing = session.closing or {}
    if session.status != Session.Status.CLOSED or "money" not in closing:
        return {}
    seats = {s.seat: s.player_id for s in session.seats.all()}
    out: dict[Any, int] = defaultdict(int)
    for seat, cents in enumerate(closing["money"]):
        out[seats[seat]] += cents
    out["pool"] += closing["pool_money"]
    return {k: v for k, v in out.items() if v}
