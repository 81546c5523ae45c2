"""A session's background work (ledger.followup): pending until done, run after the commit, a failing
handler leaves it pending without failing the write, and the periodic catch-up runs what was left.

The receiver "probe" (tests/integration/probe.py) records its runs, and fails or holds on
request, through files in the directory CLUBSCORE_PROBE_DIR names.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from ledger import followup, tasks
from ledger.models import MoneyTransaction, Session
from tests.integration import probe
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, open_session, record_all
from tests.money.helpers import close, close_transactions, reopen

pytestmark = pytest.mark.django_db


@pytest.fixture
def probe_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLUBSCORE_PROBE_DIR", str(tmp_path))
    return tmp_path


def age(session: Session, seconds: float) -> None:
    """As if the session's last write were `seconds` ago (for the catch-up's grace)."""
    Session.objects.filter(pk=session.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))


def test_receivers_run_after_the_money_in_the_order_they_connected(
    admin: Any, session: Session, probe_dir: Path
) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    result = followup.followup_run(session_id=close(admin, session).pk)
    assert result is not None
    names = result.receivers
    assert names.index("ledger.stats.apps.session_refresh") < names.index("tests.integration.probe.probe")
    assert len(names) == len(set(names))  # importing the probe again does not connect it twice
    assert probe.runs(probe_dir) == [session.pk]
    assert followup.followup_run(session_id=10**12) is None  # a session that is gone: nothing to do


def test_a_failing_handler_leaves_the_work_pending_and_the_catch_up_finishes_it(
    admin: Any, session: Session, probe_dir: Path
) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    closed = close(admin, session)
    (probe_dir / "fail").touch()
    with pytest.raises(RuntimeError, match="told to fail"):
        followup.followup_run(session_id=closed.pk)
    assert fresh(closed).background_pending
    assert len(close_transactions(closed)) == 1  # the money step committed on its own
    assert followup.followup_catch_up(grace_seconds=0) == []  # still failing: logged, left pending
    (probe_dir / "fail").unlink()
    assert followup.followup_due(grace_seconds=60) == []  # within the grace: its own task may still run
    age(closed, 120)
    assert followup.followup_due(grace_seconds=60) == [closed.pk]
    assert followup.followup_catch_up(grace_seconds=60) == [closed.pk]
    assert not fresh(closed).background_pending
    assert len(close_transactions(closed)) == 1
    assert followup.followup_catch_up(grace_seconds=0) == []


def test_a_close_stands_when_its_follow_up_fails_and_the_catch_up_runs_it_once(
    api: Any, admin: Any, session: Session, probe_dir: Path, django_capture_on_commit_callbacks: Any
) -> None:
    """Recording and closing never fail because of the background work: eagerly (no REDIS_URL) the
    handler's error is caught at the enqueue; with Redis the task is only enqueued here."""
    record_all(admin, session, AMERICAN_HANDS)
    (probe_dir / "fail").touch()
    version = fresh(session).version
    with django_capture_on_commit_callbacks(execute=True):
        response = api.json("POST", f"/api/v1/sessions/{session.pk}/close/", {}, **{"If-Match": f'"{version}"'})
    assert response.status_code == 200
    detail = api.get(f"/api/v1/sessions/{session.pk}/").json()
    assert (detail["status"], detail["background"]) == ("closed", "pending")
    (probe_dir / "fail").unlink()
    age(session, 3600)
    assert followup.followup_catch_up(grace_seconds=settings.FOLLOWUP_GRACE_SECONDS) == [session.pk]
    assert api.get(f"/api/v1/sessions/{session.pk}/").json()["background"] == "done"
    assert MoneyTransaction.objects.filter(session=session, kind="close").count() == 1
    assert probe.runs(probe_dir).count(session.pk) == 1


def test_the_catch_up_takes_the_oldest_first_within_its_limit_and_budget(
    admin: Any, club: Any, players: list[Any]
) -> None:
    sessions = []
    for i in range(3):
        s = open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})
        record_all(admin, s, AMERICAN_HANDS[:2])
        sessions.append(close(admin, s))
        age(s, 1000 - i)
    assert followup.followup_due(grace_seconds=10) == [s.pk for s in sessions]
    assert followup.followup_catch_up(grace_seconds=10, limit=2) == [s.pk for s in sessions[:2]]
    assert followup.followup_catch_up(grace_seconds=10, budget_seconds=-1) == []  # out of time at once
    assert followup.followup_catch_up(grace_seconds=10) == [sessions[2].pk]
    assert followup.followup_due(grace_seconds=0) == []


def test_reopen_marks_the_work_pending_again(admin: Any, session: Session) -> None:
    record_all(admin, session, AMERICAN_HANDS)
    closed = close(admin, session)
    assert (closed.followup_version, closed.followup_done_version) == (closed.version, 0)
    followup.followup_run(session_id=closed.pk)
    reopened = reopen(admin, session)
    assert reopened.followup_version == reopened.version == closed.version + 1
    assert fresh(reopened).background_pending
    followup.followup_run(session_id=reopened.pk)
    record_all(admin, reopened, AMERICAN_HANDS[:1])  # writes to an open session need no background work
    assert not fresh(reopened).background_pending


def test_the_tasks_ack_late_retry_a_bounded_number_of_times_and_the_catch_up_is_scheduled() -> None:
    task = tasks.session_followup
    assert task.acks_late and task.reject_on_worker_lost
    assert task.max_retries == tasks.FOLLOWUP_MAX_RETRIES and task.autoretry_for == (Exception,)
    assert task.retry_backoff and task.retry_backoff_max == 300
    assert (task.soft_time_limit, task.time_limit) == (100, 120)
    assert tasks.followup_catch_up.acks_late
    schedule = settings.CELERY_BEAT_SCHEDULE["session-followup-catch-up"]
    assert schedule == {"task": "ledger.tasks.followup_catch_up", "schedule": settings.FOLLOWUP_CATCH_UP_SECONDS}
    assert tasks.followup_catch_up.name == schedule["task"]
