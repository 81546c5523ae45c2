"""Backups proven, not hoped (ledger/backup.py; `manage.py backup`, `restore`, `verify`).

On the database the suite runs on (SQLite, or PostgreSQL in CI's step 2): the demo club's closed
sessions, money and statistics are snapshotted in one transaction, restored by `manage.py restore`
in a process of its own into a fresh database, and verified there; `verify` finds a stored balance,
a statistic or a payment that no longer matches a replay; the last N snapshots are kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from ledger import backup
from ledger.models import MoneyAccount, MoneyTransaction, Session
from ledger.money import selectors as money_selectors
from ledger.money import services as money_services
from ledger.stats.models import PlayerSession
from tests.ledger_fixtures import AMERICAN_HANDS, open_session, record_all
from tests.money.helpers import close

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def demo(admin: Any, club: Any, players: list[Any], background_work_in_process: None) -> None:
    """A club with a closed session that moved money (its statistics and ratings written by the
    close's background work, in process), a payment, and an open session with deals."""
    closed = open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})
    record_all(admin, closed, AMERICAN_HANDS)
    close(admin, closed)
    money = money_selectors.balances(club_id=club.pk)["USD"]
    owes = min(money, key=lambda a: money[a])
    owed = max(money, key=lambda a: money[a])
    payer, payee = (MoneyAccount.objects.get(pk=a).player_id for a in (owes, owed))
    money_services.payment_record(
        actor=admin, club_id=club.pk, payer=payer, payee=payee, currency="USD", cents=1, status="partly_paid"
    )
    record_all(admin, open_session(admin, club, players), AMERICAN_HANDS[:2])
    assert Session.objects.filter(status=Session.Status.CLOSED).exists()
    assert MoneyTransaction.objects.filter(kind="close").exists()
    assert PlayerSession.objects.exists()


@pytest.fixture
def fresh_database(tmp_path: Path) -> Iterator[str]:
    """The URL of a database that exists and is empty, of the suite's kind."""
    if connection.vendor == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
        return
    import psycopg

    db = settings.DATABASES["default"]
    name = f"clubscore_restore_{uuid.uuid4().hex[:10]}"
    server = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{server}/{name}"
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env["DATABASE_URL"] = database_url
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args], env=env, capture_output=True, text=True, timeout=300
    )


def test_verify_says_all_equal_on_a_consistent_database(demo: None) -> None:
    result = backup.verify()
    assert result.ok, result.problems
    assert result.sessions == Session.objects.count() and result.hands > 0
    assert result.accounts > 0 and result.statistics_rows > 0


def test_verify_finds_what_no_replay_gives_and_changes_nothing(demo: None) -> None:
    session = Session.objects.filter(status=Session.Status.CLOSED).order_by("pk").first()
    balances = list(session.balances)
    balances[0] += 1
    Session.objects.filter(pk=session.pk).update(balances=balances)
    row = PlayerSession.objects.order_by("pk").first()
    PlayerSession.objects.filter(pk=row.pk).update(counters=row.counters + 7)
    result = backup.verify()
    assert not result.ok
    assert any(f"session {session.pk}: its stored balances" in p for p in result.problems), result.problems
    assert any("statistics: PlayerSession" in p for p in result.problems), result.problems
    # verify rolled its rebuild back: the tampered row is as it was left
    assert PlayerSession.objects.get(pk=row.pk).counters == row.counters + 7


def test_a_snapshot_restores_into_a_fresh_database_and_verifies(
    demo: None, tmp_path: Path, fresh_database: str
) -> None:
    snapshot = backup.backup_write(folder=tmp_path / "backups", keep=3)
    manifest = json.loads((snapshot / "manifest.json").read_text())
    assert manifest["database"] == connection.vendor
    assert manifest["counts"]["sessions"] == Session.objects.count()
    export = json.loads((snapshot / "clubs" / f"{Session.objects.first().club_id}.json").read_text())
    assert {"members", "players", "sessions", "presets", "money"} <= set(export)
    assert all(s["sheet"]["hands"] is not None and "opened_at" in s for s in export["sessions"])
    assert any(m["kind"] == "close" for m in export["money"])

    done = manage(fresh_database, "restore", str(snapshot))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verify: all equal" in done.stdout and "restore verified" in done.stdout
    again = manage(fresh_database, "verify")
    assert again.returncode == 0, again.stdout + again.stderr
    # a second restore refuses: the database is not fresh any more
    refused = manage(fresh_database, "restore", str(snapshot))
    assert refused.returncode != 0 and "not empty" in refused.stderr


def test_a_damaged_snapshot_is_refused(demo: None, tmp_path: Path, fresh_database: str) -> None:
    snapshot = backup.backup_write(folder=tmp_path, keep=0)
    club_file = next((snapshot / "clubs").glob("*.json"))
    club_file.write_text(club_file.read_text().replace('"name"', '"nom"', 1))
    done = manage(fresh_database, "restore", str(snapshot))
    assert done.returncode != 0 and "checksum" in done.stderr


def test_the_last_n_snapshots_are_kept(demo: None, tmp_path: Path) -> None:
    made = [backup.backup_write(folder=tmp_path, keep=2) for _ in range(3)]
    assert backup.backup_list(tmp_path) == made[1:]
    assert not list(tmp_path.glob("*.partial"))


def test_the_nightly_task_is_scheduled_when_backup_dir_is_set() -> None:
    env = dict(os.environ, BACKUP_DIR="/tmp/x", BACKUP_KEEP="5")
    code = "from django.conf import settings; print(settings.CELERY_BEAT_SCHEDULE['nightly-backup']['task'])"
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env=dict(env, DJANGO_SETTINGS_MODULE="clubscore.settings"),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.stdout.strip() == "ledger.tasks.nightly_backup", out.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can write a snapshot another user owns")
def test_a_snapshot_written_by_root_belongs_to_the_service_user(settings: Any, tmp_path: Path) -> None:
    """Issue 39: root's `manage.py backup` left a snapshot the service user (the nightly task) could
    not prune, and the prune failed every night after. It is handed to BACKUP_OWNER now."""
    import pwd

    settings.BACKUP_OWNER = "nobody"
    nobody = pwd.getpwnam("nobody")
    snapshot = backup.backup_write(folder=tmp_path)
    paths = [snapshot, *snapshot.rglob("*")]
    assert len(paths) >= 4  # the folder, the dump, clubs/, the manifest
    assert {(p.stat().st_uid, p.stat().st_gid) for p in paths} == {(nobody.pw_uid, nobody.pw_gid)}


def test_a_failed_nightly_backup_shows_on_health(settings: Any, tmp_path: Path) -> None:
    """Issue 39: the nightly backup's failure is on `/health/` (`checks.backup`), shown but not
    counted in the 200/503 (its error to a staff member only, as every check's); the next good run
    clears it."""
    from django.contrib.auth import get_user_model
    from django.test import Client as AnyClient

    from clubscore import health
    from ledger import tasks

    staff = get_user_model().objects.create_user("backup-watcher", password="x" * 12, is_staff=True)

    def Client() -> AnyClient:  # a staff member's client
        client = AnyClient()
        client.force_login(staff)
        return client

    settings.REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/7"
    health.redis_client().delete(health.BACKUP_KEY)
    health.write_heartbeat()
    assert "backup" not in Client().get("/health/").json()["checks"]  # never ran: nothing to say

    (tmp_path / "a-file").write_text("")
    settings.BACKUP_DIR = str(tmp_path / "a-file" / "backups")  # a folder that cannot be made
    with pytest.raises(OSError):
        tasks.nightly_backup()
    response = Client().get("/health/")
    check = response.json()["checks"]["backup"]
    assert (response.status_code, check["ok"]) == (200, False), response.json()
    assert "NotADirectoryError" in check["error"]

    settings.BACKUP_DIR = str(tmp_path / "backups")
    tasks.nightly_backup()
    check = Client().get("/health/").json()["checks"]["backup"]
    assert check["ok"] is True and check["snapshot"].startswith(backup.PREFIX), check
    assert AnyClient().get("/health/").json()["checks"]["backup"] == {"ok": True}  # a stranger: only ok
    health.redis_client().delete(health.BACKUP_KEY)
