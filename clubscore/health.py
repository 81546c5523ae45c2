"""`GET /health/`: whether this server can take a deal now, for the proxy and for people (issue 27).

200 when every check passes, else 503 with `Retry-After`; the JSON names each check:
- `database`: a `SELECT 1` answers;
- `migrations`: none of the code's migrations is left unapplied (an upgrade half done);
- `redis`: the broker and cache answer a PING (with `REDIS_URL` unset, tasks run in-process: `eager`);
- `worker`: a Celery worker ran beat's heartbeat task (`ledger.tasks.heartbeat`) lately, so the
  session's background work (money, statistics) is being done;
- `version`: the release (`CLUBSCORE_VERSION`, the commit `bin/production` installed);
- `backup`, once the nightly backup has run (`ledger.tasks.nightly_backup`): whether its last run
  succeeded, when, and the snapshot or the error. Shown, not counted in the 200/503: a failed backup
  does not stop a deal, and the proxy's and the upgrade's checks must not wait for one (issue 39).
Anonymous, never throttled or cached, and it reads nothing of any club. Anyone is told the status and
whether each check passes; the details (the version, errors, the heartbeat's age, the database's
vendor) only a logged-in staff member (issue 39, item 13): they tell a stranger which release to attack.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

HEARTBEAT_KEY = "clubscore:worker-heartbeat"
BACKUP_KEY = "clubscore:nightly-backup"
RETRY_AFTER_SECONDS = 5
_migrated = False  # once every migration is applied, it stays so for this process's code


def redis_client() -> Any:
    import redis

    return redis.Redis.from_url(str(settings.REDIS_URL), socket_timeout=1, socket_connect_timeout=1)


def write_heartbeat() -> float:
    now = time.time()
    if settings.REDIS_URL:
        redis_client().set(HEARTBEAT_KEY, repr(now), ex=int(max(60, 10 * settings.HEARTBEAT_SECONDS)))
    return now


def write_backup_status(*, ok: bool, detail: str) -> None:
    """The nightly backup's outcome, for `/health/` (kept until the next run writes its own)."""
    if settings.REDIS_URL:
        status = {"ok": ok, "at": round(time.time()), ("snapshot" if ok else "error"): detail}
        redis_client().set(BACKUP_KEY, json.dumps(status))


def _backup() -> dict[str, Any] | None:
    if not settings.REDIS_URL:
        return None
    try:
        raw = redis_client().get(BACKUP_KEY)
    except Exception:  # Redis down: its own check says so
        return None
    return json.loads(raw) if raw else None


def _database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True, "vendor": connection.vendor}


def _migrations() -> dict[str, Any]:
    global _migrated
    if _migrated:
        return {"ok": True, "unapplied": 0}
    try:
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError as exc:
        return {"ok": False, "error": type(exc).__name__}
    _migrated = not plan
    return {"ok": not plan, "unapplied": len(plan)}


def _redis_and_worker() -> tuple[dict[str, Any], dict[str, Any]]:
    if not settings.REDIS_URL:
        return {"ok": True, "mode": "eager"}, {"ok": True, "mode": "eager"}
    try:
        client = redis_client()
        client.ping()
        beat = client.get(HEARTBEAT_KEY)
    except Exception as exc:  # any failure of the broker is "down", whatever redis-py calls it
        return {"ok": False, "error": type(exc).__name__}, {"ok": False, "error": "redis unreachable"}
    if beat is None:
        return {"ok": True}, {"ok": False, "error": "no heartbeat yet"}
    age = round(time.time() - float(beat), 1)
    return {"ok": True}, {"ok": age <= 3 * settings.HEARTBEAT_SECONDS + 5, "heartbeat_age_seconds": age}


def health_report() -> dict[str, Any]:
    database = _database()
    migrations = _migrations() if database["ok"] else {"ok": False, "error": "database unreachable"}
    redis, worker = _redis_and_worker()
    checks = {"database": database, "migrations": migrations, "redis": redis, "worker": worker}
    ok = all(check["ok"] for check in checks.values())
    backup = _backup()
    if backup is not None:
        checks["backup"] = backup  # shown, not counted (the module's docstring)
    return {"status": "ok" if ok else "unavailable", "version": settings.CLUBSCORE_VERSION, "checks": checks}


def public_report(report: dict[str, Any]) -> dict[str, Any]:
    """What anyone is told: the status and each check's `ok`, nothing of the release or the errors."""
    checks = {name: {"ok": check["ok"]} for name, check in report["checks"].items()}
    return {"status": report["status"], "checks": checks}


def _is_staff(request: HttpRequest) -> bool:
    """Whether a staff member asks; with the database down (the session unreadable) nobody is."""
    try:
        return bool(request.user.is_staff)
    except DatabaseError:
        return False


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    report = health_report()
    if not _is_staff(request):
        report = public_report(report)
    response = JsonResponse(report, status=200 if report["status"] == "ok" else 503)
    if response.status_code == 503:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
