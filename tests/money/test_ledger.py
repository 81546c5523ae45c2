"""The club's money ledger through its services: what a close posts, what a reopen reverses, payments,
settle-up, and the invariants of ledger/money/ after every operation."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from ledger import followup, tasks
from ledger.exceptions import InvalidRequest, NotFound, PermissionDenied
from ledger.models import MoneyAccount, MoneyEntry, MoneyTransaction, Player, Role, Session
from ledger.money import selectors as money_selectors
from ledger.money import services as money_services
from ledger.services.clubs import club_create, player_create
from ledger.services.hands import hand_amend
from ledger.services.sessions import session_close, session_import
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, member, open_session, other_valid_hand, record_all
from tests.money.helpers import (
    assert_ledger_balanced,
    close,
    close_transactions,
    party_balances,
    reopen,
    run_followup,
    standing_money,
)

pytestmark = pytest.mark.django_db

USD = {"currency": "USD", "per_counter": "0.01"}


def pay(treasurer: Any, club: Any, payer: Any, payee: Any, cents: int, status: str = "paid", **kw: Any) -> Any:
    return money_services.payment_record(
        actor=treasurer,
        club_id=club.pk,
        payer=payer,
        payee=payee,
        currency=kw.pop("currency", "USD"),
        cents=cents,
        status=status,
        **kw,
    )


def test_a_close_posts_each_players_money_and_the_pools_money(
    admin: Any, club: Any, players: list[Player], session: Session
) -> None:
    record_all(admin, session, AMERICAN_HANDS[:3])
    closed = close(admin, session, "carry")
    assert closed.background_pending and followup.background_state(closed) == "pending"
    assert MoneyTransaction.objects.count() == 0  # nothing until the follow-up runs

    result = run_followup(closed)
    (tx,) = close_transactions(closed)
    assert (tx.kind, tx.currency, tx.close_version, tx.club_id) == ("close", "USD", closed.version, club.pk)
    assert result.posted == [tx.pk] and result.reversed == []
    assert closed.closing["money"] == [-20, -105, 100, 20] and closed.closing["pool_money"] == 5
    ann, ben, cleo, dan = (p.pk for p in players)
    assert party_balances(club.pk) == {
        ("USD", ann): -20,
        ("USD", ben): -105,
        ("USD", cleo): 100,
        ("USD", dan): 20,
        ("USD", "pool"): 5,
    }
    assert MoneyAccount.objects.get(club=club, kind="pool").player is None
    assert_ledger_balanced()
    done = fresh(closed)
    assert not done.background_pending and done.followup_done_version == done.version
    assert done.followup_done_at is not None


def test_the_follow_up_run_twice_has_the_effect_of_once(admin: Any, club: Any, session: Session) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    closed = close(admin, session)
    first = run_followup(closed)
    entries = list(MoneyEntry.objects.values_list("transaction_id", "account_id", "amount").order_by("id"))
    second = run_followup(closed)
    assert len(first.posted) == 1 and second.posted == [] and second.reversed == []
    assert list(MoneyEntry.objects.values_list("transaction_id", "account_id", "amount").order_by("id")) == entries
    assert first.receivers == second.receivers
    assert "ledger.stats.apps.session_refresh" in first.receivers


def test_the_follow_up_is_enqueued_only_when_the_write_commits(
    admin: Any, club: Any, session: Session, django_capture_on_commit_callbacks: Any
) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    stale = fresh(session).version - 1
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(Exception, match="version"):
        session_close(actor=admin, session_id=session.pk, pools="divide", expected_version=stale)
    assert callbacks == []  # a refused close enqueues nothing
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        close(admin, session)
    # the follow-up once (the live sheet's announcement, issue 25, is another callback)
    assert len([c for c in callbacks if getattr(c, "func", None) is tasks.followup_enqueue]) == 1
    closed = fresh(session)
    if settings.CELERY_TASK_ALWAYS_EAGER:  # no REDIS_URL: the task ran in-process, right after the commit
        assert not closed.background_pending
        assert len(close_transactions(closed)) == 1
    else:  # the task went to Redis; no worker runs in this test (tests/integration has them)
        assert closed.background_pending


def test_a_session_without_stake_or_without_money_posts_nothing_but_is_done(
    admin: Any, club: Any, players: list[Player]
) -> None:
    no_stake = open_session(admin, club, players)
    record_all(admin, no_stake, AMERICAN_HANDS[:2])
    no_stake = close(admin, no_stake)
    nothing_moved = open_session(admin, club, players, stake=USD)
    nothing_moved = close(admin, nothing_moved)
    for s in (no_stake, nothing_moved):
        assert run_followup(s).posted == []
        assert not fresh(s).background_pending
    assert MoneyTransaction.objects.count() == 0


def test_an_imported_closed_session_posts_its_money(admin: Any, club: Any) -> None:
    sheet = {
        "format": "clubscore-sheet/1",
        "variant": "american",
        "rules": {},
        "players": ["Ann", "Ben", "Cleo", "Dan"],
        "first_dealer": 0,
        "stake": {"currency": "JPY", "per_counter": "3"},
        "hands": AMERICAN_HANDS,
        "close": {"pools": "divide"},
    }
    imported = session_import(actor=admin, club_id=club.pk, sheet=sheet)
    assert fresh(imported).background_pending
    run_followup(imported)
    (tx,) = close_transactions(imported)
    assert tx.currency == "JPY" and tx.close_version == 1
    by_name = {e.account.player.name: e.amount for e in tx.entries.select_related("account__player")}
    assert by_name == {"Ann": -90, "Ben": -345, "Cleo": 270, "Dan": 165}


def test_reopen_reverses_the_close_and_the_next_close_posts_the_new_result_payments_stay(
    admin: Any, treasurer: Any, club: Any, players: list[Player], session: Session
) -> None:
    """Corrections after settlement: original, payment, reversal and new close are four statement lines."""
    ann, ben, cleo, _dan = players
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))  # money [-30, -115, 90, 55]
    paid = pay(treasurer, club, ann.pk, cleo.pk, 30, "paid", note="cash at the bar")
    part = pay(treasurer, club, ben.pk, cleo.pk, 40, "partly_paid")
    assert_ledger_balanced()
    assert ("USD", ann.pk) not in party_balances(club.pk)  # Ann is square

    reopened = reopen(treasurer, session)
    assert reopened.status == Session.Status.OPEN and reopened.background_pending
    result = run_followup(reopened)
    (original,) = close_transactions(session)
    assert result.reversed == [original.pk] and len(result.posted) == 1
    reversal = MoneyTransaction.objects.get(pk=result.posted[0])
    assert (reversal.kind, reversal.reverses_id, reversal.session_id) == ("reversal", original.pk, session.pk)
    assert {e.account_id: e.amount for e in reversal.entries.all()} == {
        e.account_id: -e.amount for e in original.entries.all()
    }
    # The payments stand: Ann paid 30 for a loss that no longer stands, so she is owed 30 back.
    assert MoneyTransaction.objects.filter(pk__in=[paid.pk, part.pk]).count() == 2
    assert party_balances(club.pk) == {("USD", ann.pk): 30, ("USD", ben.pk): 40, ("USD", cleo.pk): -70}
    assert_ledger_balanced()

    hand_amend(
        actor=admin,
        session_id=session.pk,
        number=4,
        hand=other_valid_hand(_sheet(session), 3, seed=4),
        expected_version=fresh(session).version,
    )
    reclosed = close(admin, session)
    run_followup(reclosed)
    closes = close_transactions(session)
    assert [c.close_version for c in closes] == [original.close_version, reclosed.version]
    new_money = standing_money(reclosed)
    expected = {("USD", p): a for p, a in new_money.items()}
    for party, paid_amount in ((ann.pk, 30), (ben.pk, 40), (cleo.pk, -70)):
        expected[("USD", party)] = expected.get(("USD", party), 0) + paid_amount
    assert party_balances(club.pk) == {k: v for k, v in expected.items() if v}
    assert_ledger_balanced()

    statement = [(e.transaction.kind, e.amount) for e in money_selectors.statement_entries(player=ann)]
    assert (
        statement
        == [
            ("close", -30),
            ("paid", 30),
            ("reversal", 30),
            ("close", new_money.get(ann.pk, 0)),
        ][: 3 + (ann.pk in new_money)]
    )
    running = [e.balance for e in money_selectors.statement_entries(player=ann)]  # type: ignore[attr-defined]
    assert running[:3] == [-30, 0, 30]


def _sheet(session: Session) -> dict[str, Any]:
    from ledger import selectors

    return selectors.session_sheet(session=fresh(session))


def test_a_reopen_and_close_before_the_follow_up_ran_posts_only_the_last_close(
    admin: Any, club: Any, session: Session
) -> None:
    record_all(admin, session, AMERICAN_HANDS[:3])
    close(admin, session, "divide")
    reopen(admin, session)
    last = close(admin, session, "carry")
    result = run_followup(last)
    assert result.reversed == [] and len(result.posted) == 1
    (tx,) = close_transactions(session)
    assert tx.close_version == last.version
    assert MoneyTransaction.objects.filter(kind="reversal").count() == 0
    assert run_followup(last).posted == []


def test_a_stale_follow_up_after_a_reopen_reverses_once(admin: Any, club: Any, session: Session) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))
    reopened = reopen(admin, session)
    for _ in range(3):  # the reopen's task, a redelivery, the catch-up
        run_followup(reopened)
    assert MoneyTransaction.objects.filter(kind="reversal").count() == 1
    assert money_selectors.ledger_totals() == {"USD": 0}
    assert party_balances(club.pk) == {}


# --- payments --------------------------------------------------------------------------------------


def test_payments_are_checked_against_the_open_balances(
    admin: Any, treasurer: Any, club: Any, players: list[Player], session: Session, other_admin: Any
) -> None:
    ann, ben, cleo, dan = players
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))  # [-30, -115, 90, 55]
    refusals: list[tuple[dict[str, Any], str]] = [
        ({"payer": ann.pk, "payee": cleo.pk, "cents": 31}, "cents"),  # Ann owes only 30
        ({"payer": cleo.pk, "payee": ann.pk, "cents": 1}, "cents"),  # Cleo owes nothing
        ({"payer": ben.pk, "payee": dan.pk, "cents": 56}, "cents"),  # Dan is owed only 55
        ({"payer": ann.pk, "payee": ann.pk, "cents": 1}, "to"),
        ({"payer": ann.pk, "payee": cleo.pk, "cents": 0}, "cents"),
        ({"payer": ann.pk, "payee": cleo.pk, "cents": 10, "currency": "EUR"}, "cents"),
        ({"payer": ann.pk, "payee": "pool", "cents": 1}, "to"),  # the pool account has no money yet
        ({"payer": 10**9, "payee": cleo.pk, "cents": 1}, "from"),
        ({"payer": "bank", "payee": cleo.pk, "cents": 1}, "from"),
        ({"payer": ann.pk, "payee": cleo.pk, "cents": 1, "status": "lost"}, "status"),
    ]
    for kwargs, field in refusals:
        kwargs = dict(kwargs)
        status = kwargs.pop("status", "paid")
        with pytest.raises(InvalidRequest) as caught:
            pay(treasurer, club, kwargs.pop("payer"), kwargs.pop("payee"), kwargs.pop("cents"), status, **kwargs)
        assert field in caught.value.fields, (kwargs, caught.value.fields)
    scorer = member(club, admin, "scorer-2", Role.SCORER)
    with pytest.raises(PermissionDenied):
        pay(scorer, club, ann.pk, cleo.pk, 30)
    with pytest.raises(NotFound):
        pay(other_admin, club, ann.pk, cleo.pk, 30)
    other_club = club_create(actor=other_admin, name="Elsewhere")
    stranger = player_create(actor=other_admin, club_id=other_club.pk, name="Zed")
    with pytest.raises(InvalidRequest):  # another club's player is no party here
        pay(treasurer, club, stranger.pk, cleo.pk, 1)
    assert MoneyTransaction.objects.exclude(kind="close").count() == 0

    tx = pay(treasurer, club, ann.pk, cleo.pk, 30, "written_off", note="  forgiven\n ")
    assert (tx.kind, tx.note, tx.created_by) == ("written_off", "forgiven", treasurer)
    assert party_balances(club.pk)[("USD", cleo.pk)] == 60
    assert ("USD", ann.pk) not in party_balances(club.pk)
    assert_ledger_balanced()


def test_settle_up_squares_everyone_and_recording_its_transfers_brings_every_balance_to_zero(
    admin: Any, treasurer: Any, club: Any, players: list[Player]
) -> None:
    more = [player_create(actor=admin, club_id=club.pk, name=n) for n in ("Eve", "Finn")]
    tables = [players, [players[0], players[1], more[0], more[1]], [more[1], players[3], players[2], more[0]]]
    for seats, hands in zip(tables, (AMERICAN_HANDS, AMERICAN_HANDS[:3], AMERICAN_HANDS[:1]), strict=True):
        s = open_session(admin, club, seats, stake=USD)
        record_all(admin, s, hands)
        run_followup(close(admin, s, "carry"))
    eur = open_session(admin, club, players, stake={"currency": "EUR", "per_counter": "0.05"})
    record_all(admin, eur, AMERICAN_HANDS[:2])
    run_followup(close(admin, eur))
    before = party_balances(club.pk)
    plans = money_selectors.settle_up_plan(user=treasurer, club_id=club.pk)
    assert [p.currency for p in plans] == ["EUR", "USD"]
    for plan in plans:
        open_parties = [a for a, amount in plan.balances if amount]
        assert len(plan.transfers) <= len(open_parties) - 1
        left = {money_selectors.party(a): amount for a, amount in plan.balances}
        for t in plan.transfers:
            assert left[money_selectors.party(t.payer)] < 0 < left[money_selectors.party(t.payee)]
            left[money_selectors.party(t.payer)] += t.cents
            left[money_selectors.party(t.payee)] -= t.cents
        assert set(left.values()) == {0}
        assert {(plan.currency, money_selectors.party(a)): amount for a, amount in plan.balances} == {
            k: v for k, v in before.items() if k[0] == plan.currency
        }
        for t in plan.transfers:
            pay(
                treasurer,
                club,
                money_selectors.party(t.payer),
                money_selectors.party(t.payee),
                t.cents,
                currency=plan.currency,
            )
            assert_ledger_balanced()
    assert party_balances(club.pk) == {}
    assert money_selectors.settle_up_plan(user=treasurer, club_id=club.pk) == []
    with pytest.raises(PermissionDenied):
        money_selectors.settle_up_plan(user=member(club, admin, "just-a-player", Role.PLAYER), club_id=club.pk)


def test_a_payment_is_recorded_once_by_its_client_key(
    admin: Any, treasurer: Any, club: Any, players: list[Player], session: Session
) -> None:
    """A retry (the answer was lost, the worker died) finds the payment instead of paying twice, even
    now that the debt it paid is settled and a second payment would be refused."""
    import uuid

    ann, _ben, cleo, _dan = players
    record_all(admin, session, AMERICAN_HANDS)
    run_followup(close(admin, session))  # Ann owes 30, Cleo is owed 90
    key = uuid.uuid4()
    first = pay(treasurer, club, ann.pk, cleo.pk, 30, client_key=key)
    again = pay(treasurer, club, ann.pk, cleo.pk, 30, client_key=key)
    assert again.pk == first.pk
    assert MoneyTransaction.objects.filter(kind="paid").count() == 1
    with pytest.raises(InvalidRequest):  # without the key it is a second payment: Ann owes nothing now
        pay(treasurer, club, ann.pk, cleo.pk, 30)
    assert_ledger_balanced()
