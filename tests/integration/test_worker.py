"""Closing and reopening through the API with a real Redis and real Celery workers: the worker posts the
money and runs the registered handlers; a worker killed mid-task still ends with exactly one effect once
a worker runs again; with the broker down, recording and closing succeed and the periodic catch-up
(Celery beat) does the work once the broker is back.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from ledger.models import MoneyTransaction, Player, Session
from ledger.money import selectors as money_selectors
from ledger.stats.models import PlayerSession
from tests.integration import probe
from tests.integration.conftest import RedisServer, Workers, wait_for
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, record_all
from tests.money.helpers import assert_ledger_balanced, party_balances, standing_money

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

DONE_SECONDS = 60


def close_via_api(api: Any, session: Session, pools: str = "divide") -> Any:
    version = fresh(session).version
    response = api.json(
        "POST", f"/api/v1/sessions/{session.pk}/close/", {"pools": pools}, **{"If-Match": f'"{version}"'}
    )
    assert response.status_code == 200, response.json()
    return response


def background(api: Any, session: Session) -> str:
    return api.get(f"/api/v1/sessions/{session.pk}/").json()["background"]


# What each periodic catch-up returned (the sessions it completed), as the worker logs it.
CATCH_UP_RESULT = re.compile(r"Task ledger\.tasks\.followup_catch_up\[[^]]+\] succeeded in [0-9.e-]+s: (\[[^]]*\])")


def wait_done(api: Any, session: Session, workers: Workers, seconds: float = DONE_SECONDS) -> None:
    try:
        wait_for(lambda: background(api, session) == "done", seconds, f"session {session.pk}'s background work")
    except AssertionError as failed:
        logs = "\n".join(w.text()[-4000:] for w in workers.started)
        raise AssertionError(f"{failed}\n--- worker logs ---\n{logs}") from None


def test_the_worker_posts_the_money_and_runs_the_handlers_after_close_and_reopen(
    api: Any, admin: Any, club: Any, players: list[Player], session: Session, workers: Workers
) -> None:
    workers.start()
    record_all(admin, session, AMERICAN_HANDS)
    close_via_api(api, session)
    wait_done(api, session, workers)
    (tx,) = MoneyTransaction.objects.filter(session=session, kind="close")
    assert {(e.account.player_id, e.amount) for e in tx.entries.select_related("account")} == set(
        standing_money(session).items()
    )
    assert PlayerSession.objects.filter(session=session).count() == 4  # the "stats" handler ran
    assert probe.runs(workers.probe_dir) == [session.pk]  # and every other registered handler

    version = fresh(session).version
    reopened = api.json("POST", f"/api/v1/sessions/{session.pk}/reopen/", None, **{"If-Match": f'"{version}"'})
    assert reopened.status_code == 200
    wait_done(api, session, workers)
    assert MoneyTransaction.objects.filter(session=session, kind="reversal", reverses=tx).count() == 1
    assert party_balances(club.pk) == {}
    assert PlayerSession.objects.filter(session=session).count() == 0  # an open session has no statistics
    assert probe.runs(workers.probe_dir) == [session.pk, session.pk]
    assert_ledger_balanced()


def test_a_worker_killed_mid_task_ends_with_exactly_one_effect_once_a_worker_runs_again(
    api: Any, admin: Any, club: Any, session: Session, workers: Workers
) -> None:
    first = workers.start()
    record_all(admin, session, AMERICAN_HANDS)
    (workers.probe_dir / "hold").touch()  # the probe handler will wait: the task is caught mid-way
    close_via_api(api, session)
    wait_for(lambda: list(workers.probe_dir.glob(f"held-{session.pk}-*")), 30, "the task to reach the probe")
    first.kill()
    (workers.probe_dir / "hold").unlink()
    assert background(api, session) == "pending"
    assert probe.runs(workers.probe_dir) == []  # the killed run never finished

    # A new worker: Redis hands the unacknowledged message out again after the visibility timeout, and
    # its beat's catch-up finds the pending session too. Both may run it: the effect is still one.
    workers.start(beat=True, CELERY_VISIBILITY_TIMEOUT="2", FOLLOWUP_CATCH_UP_SECONDS="1", FOLLOWUP_GRACE_SECONDS="0")
    wait_done(api, session, workers)
    time.sleep(3)  # room for a redelivered duplicate to run as well
    (tx,) = MoneyTransaction.objects.filter(session=session)
    assert tx.kind == "close" and tx.entries.count() == 4
    assert party_balances(club.pk) == {("USD", p): a for p, a in standing_money(session).items()}
    assert session.pk in probe.runs(workers.probe_dir)
    assert PlayerSession.objects.filter(session=session).count() == 4
    assert_ledger_balanced()


def test_with_the_broker_down_recording_and_closing_succeed_and_the_catch_up_runs_the_work_later(
    own_redis: RedisServer, broker_at: Any, api: Any, admin: Any, club: Any, session: Session, workers: Workers
) -> None:
    own_redis.start()
    broker_at(own_redis.url)
    record_all(admin, session, AMERICAN_HANDS[:3])
    own_redis.stop()  # the broker goes down

    started = time.monotonic()
    recorded = api.record(session.pk, dict(AMERICAN_HANDS[3], number=4))
    assert recorded.status_code == 201
    close_via_api(api, session)
    assert time.monotonic() - started < 15  # an unreachable broker does not hold the request up
    assert fresh(session).status == "closed" and background(api, session) == "pending"
    assert not MoneyTransaction.objects.filter(session=session).exists()

    own_redis.start()  # the broker is back; a worker with its beat runs the periodic catch-up
    workers.start(redis_url=own_redis.url, beat=True, FOLLOWUP_CATCH_UP_SECONDS="1", FOLLOWUP_GRACE_SECONDS="0")
    wait_done(api, session, workers)
    time.sleep(2)
    assert MoneyTransaction.objects.filter(session=session).count() == 1
    # Two catch-ups a second apart may both run the work on a slow machine (the first not done when the
    # second starts): one effect all the same. A catch-up after the work is done finds nothing to do.
    assert set(probe.runs(workers.probe_dir)) == {session.pk}
    catch_ups = CATCH_UP_RESULT.findall(workers.started[-1].text())
    assert f"[{session.pk}]" in catch_ups and catch_ups[-1] == "[]", catch_ups
    assert money_selectors.ledger_totals(club_id=club.pk) == {"USD": 0}
