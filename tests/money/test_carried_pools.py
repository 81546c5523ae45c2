"""Pools carried over: they belong to the club (its pool account holds their money) until one later
session claims them, exactly once, under concurrency too."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from ledger.exceptions import InvalidRequest, PoolsClaimed
from ledger.models import Player, Session
from ledger.money import selectors as money_selectors
from ledger.services.sessions import session_reopen
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, open_session, record_all
from tests.money.helpers import assert_ledger_balanced, close, party_balances, run_followup

USD = {"currency": "USD", "per_counter": "0.01"}


def carried_source(admin: Any, club: Any, players: list[Player], stake: Any = USD) -> Session:
    """A closed session that carried [5] counters (5 cents at USD 0.01)."""
    source = open_session(admin, club, players, stake=stake)
    record_all(admin, source, AMERICAN_HANDS[:3])
    return close(admin, source, "carry")


@pytest.mark.django_db
def test_the_pool_account_holds_the_carried_money_until_the_claimant_pays_it_out(
    admin: Any, club: Any, players: list[Player]
) -> None:
    source = carried_source(admin, club, players)
    run_followup(source)
    assert party_balances(club.pk)[("USD", "pool")] == 5
    claimant = open_session(admin, club, players, stake=USD, carry_pools_from=source.pk)
    assert claimant.pools_in == [5]
    claimant = close(admin, claimant, "divide")  # 5 counters: 1 each, 1 carried again
    run_followup(claimant)
    assert claimant.closing["pool_money"] == -4
    assert party_balances(club.pk)[("USD", "pool")] == 1  # the counter carried again
    assert list(money_selectors.carried_pools(user=admin, club_id=club.pk)) == [fresh(claimant)]
    assert_ledger_balanced()


@pytest.mark.django_db
def test_a_claim_needs_pools_and_the_same_stake(admin: Any, club: Any, players: list[Player]) -> None:
    source = carried_source(admin, club, players)
    for stake in (None, {"currency": "EUR", "per_counter": "0.01"}, {"currency": "USD", "per_counter": "0.02"}):
        with pytest.raises(InvalidRequest, match="same stake") as caught:
            open_session(admin, club, players, stake=stake, carry_pools_from=source.pk)
        assert "carry_pools_from" in caught.value.fields
    same = open_session(
        admin, club, players, stake={"currency": "USD", "per_counter": "0.010"}, carry_pools_from=source.pk
    )
    assert same.pools_in == [5]
    nothing = open_session(admin, club, players)
    record_all(admin, nothing, AMERICAN_HANDS[:2])
    nothing = close(admin, nothing, "divide")
    assert nothing.closing["carried"] == []
    with pytest.raises(InvalidRequest, match="carried no pools"):
        open_session(admin, club, players, carry_pools_from=nothing.pk)
    assert session_reopen(actor=admin, session_id=nothing.pk, expected_version=nothing.version)


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls at the same moment, each in its own thread and connection; results or exceptions."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = calls[i]()
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


CONCURRENT = pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite's shared in-memory test database cannot take concurrent writers; run with PostgreSQL "
    "(DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubscore)",
)


@CONCURRENT
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_concurrent_claims_of_the_same_pools_exactly_one_wins(
    admin: Any, club: Any, players: list[Player], attempt: int
) -> None:
    source = carried_source(admin, club, players)
    claims = [(lambda: open_session(admin, club, players, stake=USD, carry_pools_from=source.pk)) for _ in range(6)]
    results = race(claims)
    winners = [r for r in results if isinstance(r, Session)]
    assert len(winners) == 1, results
    assert all(isinstance(r, PoolsClaimed) for r in results if r is not winners[0]), results
    assert Session.objects.filter(carry_pools_from=source).count() == 1


@CONCURRENT
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_a_claim_racing_the_sources_reopen_one_of_them_wins(
    admin: Any, club: Any, players: list[Player], attempt: int
) -> None:
    source = carried_source(admin, club, players)
    results = race(
        [
            lambda: open_session(admin, club, players, stake=USD, carry_pools_from=source.pk),
            lambda: session_reopen(actor=admin, session_id=source.pk, expected_version=source.version),
        ]
    )
    claimed, reopened = results
    source = fresh(source)
    if isinstance(claimed, Session):
        assert isinstance(reopened, PoolsClaimed) and source.status == "closed"
    else:
        assert isinstance(claimed, InvalidRequest) and source.status == "open", results
        assert not Session.objects.filter(carry_pools_from=source).exists()


@pytest.mark.django_db
def test_only_sessions_that_carried_counters_are_listed_for_claiming(
    admin: Any, club: Any, players: list[Player]
) -> None:
    """The pages and the API list the same sessions: carrying empty pools or dividing evenly carries nothing."""
    nothing_carried = close(admin, open_session(admin, club, players, stake=USD), "carry")
    evenly_divided = close(admin, open_session(admin, club, players, stake=USD), "divide")
    source = carried_source(admin, club, players)
    assert not any(nothing_carried.closing["carried"]) and not any(evenly_divided.closing["carried"])
    assert money_selectors.carried_pools(user=admin, club_id=club.pk) == [fresh(source)]
