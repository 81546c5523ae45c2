"""Property tests of the money ledger: random sequences of closes, carried pools claimed, reopens, late or
repeated follow-ups and payments. After every operation the ledger sums to zero per currency and every
party's balance is what a plain model of the operations says; at the end, settle-up squares everyone
with at most n - 1 transfers (exactly the fewest for small groups), and recording them zeroes the ledger.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import money
from ledger.engine.samples import random_sheet
from ledger.engine.variants import get_variant, variant_names
from ledger.exceptions import PoolsClaimed
from ledger.models import Player, Session
from ledger.money import selectors as money_selectors
from ledger.money import services as money_services
from ledger.services.clubs import club_create, player_create
from ledger.services.hands import hand_record
from ledger.services.sessions import session_close, session_import, session_open, session_reopen
from tests.exhaustive import most_zero_groups
from tests.ledger_fixtures import fresh
from tests.money.helpers import assert_ledger_balanced, party_balances, run_followup, standing_money

pytestmark = pytest.mark.django_db

STAKES = [
    {"currency": "USD", "per_counter": "0.01"},
    {"currency": "EUR", "per_counter": "0.05"},
    {"currency": "JPY", "per_counter": "3"},
]
OPERATIONS = ["import", "import", "claim", "reopen", "close", "followup", "pay", "pay", "pay"]


def claimed(session: Session) -> bool:
    return Session.objects.filter(carry_pools_from=session).exists()


class Model:
    """What the ledger should hold: the posted closes of each session, plus the payments."""

    def __init__(self, club_id: int) -> None:
        self.club_id = club_id
        self.posted: dict[int, tuple[str, dict[Any, int]]] = {}
        self.payments: dict[tuple[str, Any], int] = defaultdict(int)

    def followed_up(self, session: Session) -> None:
        session = fresh(session)
        currency = (session.stake or {}).get("currency", "")
        self.posted[session.pk] = (currency, standing_money(session))

    def paid(self, currency: str, payer: Any, payee: Any, cents: int) -> None:
        self.payments[currency, payer] += cents
        self.payments[currency, payee] -= cents

    def balances(self) -> dict[tuple[str, Any], int]:
        out: dict[tuple[str, Any], int] = defaultdict(int, self.payments)
        for currency, amounts in self.posted.values():
            for party, amount in amounts.items():
                out[currency, party] += amount
        return {k: v for k, v in out.items() if v}

    def check(self) -> None:
        assert_ledger_balanced(self.club_id)
        assert party_balances(self.club_id) == self.balances()


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_the_ledger_sums_to_zero_after_every_operation_and_matches_the_model(admin: Any, data: Any) -> None:
    club = club_create(actor=admin, name="Property Club")
    players = [player_create(actor=admin, club_id=club.pk, name=f"P{i}") for i in range(6)]
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    model = Model(club.pk)
    pending: set[int] = set()

    def seats() -> list[Player]:
        return rng.sample(players, 4)

    def maybe_follow_up(session: Session) -> None:
        pending.add(session.pk)
        if data.draw(st.booleans(), label="follow up now"):
            run_followup(session)
            model.followed_up(session)
            pending.discard(session.pk)

    for _ in range(data.draw(st.integers(6, 16), label="operations")):
        op = data.draw(st.sampled_from(OPERATIONS), label="operation")
        sessions = list(Session.objects.filter(club=club).order_by("id"))
        if op == "import" or not sessions:
            variant = rng.choice(variant_names())
            close = {"pools": rng.choice(["divide", "carry"])}
            sheet = random_sheet(variant, rng, rng.randint(0, 10), stake=rng.choice(STAKES), close=close)
            sheet["players"] = [p.name for p in seats()]
            maybe_follow_up(session_import(actor=admin, club_id=club.pk, sheet=sheet))
        elif op == "claim":
            sources = [s for s in sessions if s.status == "closed" and any(s.closing["carried"]) and not claimed(s)]
            if not sources:
                continue
            source = rng.choice(sources)
            multi = get_variant(source.variant).multi_pool
            variant = rng.choice([v for v in variant_names() if get_variant(v).multi_pool == multi])
            sheet = random_sheet(variant, rng, rng.randint(0, 6), pools=source.closing["carried"])
            claimant = session_open(
                actor=admin,
                club_id=club.pk,
                variant=variant,
                rules={},
                player_ids=[p.pk for p in seats()],
                first_dealer=sheet["first_dealer"],
                stake=source.stake,
                carry_pools_from=source.pk,
            )
            assert claimant.pools_in == source.closing["carried"]
            for hand in sheet["hands"]:
                hand_record(actor=admin, session_id=claimant.pk, hand=hand)
            with pytest.raises(PoolsClaimed):
                session_reopen(actor=admin, session_id=source.pk, expected_version=source.version)
        elif op == "reopen":
            closed = [s for s in sessions if s.status == "closed" and not claimed(s)]
            if not closed:
                continue
            s = rng.choice(closed)
            maybe_follow_up(session_reopen(actor=admin, session_id=s.pk, expected_version=s.version))
        elif op == "close":
            still_open = [s for s in sessions if s.status == "open"]
            if not still_open:
                continue
            s = rng.choice(still_open)
            pools = rng.choice(["divide", "carry"])
            session_close(actor=admin, session_id=s.pk, pools=pools, expected_version=s.version)
            maybe_follow_up(fresh(s))
        elif op == "followup":
            for session_id in sorted(pending, key=lambda _: rng.random()):
                session = Session.objects.get(pk=session_id)
                run_followup(session)
                if rng.random() < 0.3:  # a redelivered task
                    assert run_followup(session).posted == []
                model.followed_up(session)
            pending.clear()
        else:  # pay: one of settle-up's transfers, in full, in part or written off
            plans = money_selectors.settle_up_plan(user=admin, club_id=club.pk)
            if not plans:
                continue
            plan = rng.choice(plans)
            transfer = rng.choice(plan.transfers)
            status = rng.choice(money.PAYMENT_STATUSES)
            cents = transfer.cents if status != "partly_paid" or transfer.cents == 1 else rng.randint(1, transfer.cents)
            payer, payee = money_selectors.party(transfer.payer), money_selectors.party(transfer.payee)
            money_services.payment_record(
                actor=admin,
                club_id=club.pk,
                payer=payer,
                payee=payee,
                currency=plan.currency,
                cents=cents,
                status=status,
            )
            model.paid(plan.currency, payer, payee, cents)
        model.check()

    for session_id in sorted(pending):
        session = Session.objects.get(pk=session_id)
        run_followup(session)
        model.followed_up(session)
    model.check()
    for plan in money_selectors.settle_up_plan(user=admin, club_id=club.pk):
        amounts = tuple(amount for _, amount in plan.balances)
        assert all(amounts) and sum(amounts) == 0
        assert len(plan.transfers) <= len(amounts) - 1
        if len(amounts) <= 7:
            assert len(plan.transfers) == len(amounts) - most_zero_groups(amounts)
        for t in plan.transfers:
            payer, payee = money_selectors.party(t.payer), money_selectors.party(t.payee)
            money_services.payment_record(
                actor=admin,
                club_id=club.pk,
                payer=payer,
                payee=payee,
                currency=plan.currency,
                cents=t.cents,
                status="paid",
            )
            model.paid(plan.currency, payer, payee, t.cents)
            model.check()
    assert party_balances(club.pk) == {}
    assert money_selectors.settle_up_plan(user=admin, club_id=club.pk) == []
