"""Backups proven, not hoped (issue 27): `manage.py backup`, `restore`, `verify`.

A snapshot is one folder `clubscore-<UTC time>/`:
- `database.dump` (PostgreSQL, `pg_dump -Fc`) or `database.sql` (SQLite's SQL text, `iterdump`);
- `clubs/<id>.json`: every club's open export: its members, players, every session's score sheet
  with its dates, every payment and close in the money ledger with its entries;
- `manifest.json`: when, which release, what it holds, and each file's SHA-256.
Both are taken in **one transaction**: on PostgreSQL a REPEATABLE READ transaction exports its
snapshot and `pg_dump --snapshot` dumps exactly what the export reads; on SQLite the transaction
holds the write lock (IMMEDIATE) while the file is copied and the export read. A ledger copied while
it is being written is the classic way to lose money.

`verify` replays every session's sheet through the engine and compares it with what the database
holds (each hand's settlement, the balances, pools and close), re-derives every money balance from
the closes the sessions expect and the payments, recomputes each club's money digest chain (an edit
of written money that keeps every balance re-derivable shows there, `ledger/money/chain.py`), and
rebuilds every statistic and rating, all in a transaction that is rolled back, so the database is
never changed by it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import subprocess
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import Sum

from ledger import selectors
from ledger.engine import EngineError, settle
from ledger.models import Club, Hand, Membership, MoneyEntry, MoneyTransaction, Player, Preset, Session

PREFIX = "clubscore-"


class BackupError(Exception):
    pass


# --- the export ---------------------------------------------------------------------------------


def club_export(club: Club) -> dict[str, Any]:
    """One club's open export: members, players, sessions (sheet, dates, the preset version they were
    opened from), the presets with every version, the money ledger."""
    members = [
        {"username": m.user.get_username(), "role": m.role, "since": m.created_at}
        for m in Membership.objects.filter(club=club).select_related("user").order_by("pk")
    ]
    players = [
        {"id": p.pk, "name": p.name, "user": p.user.get_username() if p.user else None, "since": p.created_at}
        for p in Player.objects.filter(club=club).select_related("user").order_by("pk")
    ]
    sessions = []
    for s in Session.objects.filter(club=club).select_related("preset_version").order_by("pk"):
        sessions.append(
            {
                "id": s.pk,
                "variant": s.variant,
                "status": s.status,
                "version": s.version,
                "opened_at": s.opened_at,
                "closed_at": s.closed_at,
                "updated_at": s.updated_at,
                "players": [p.pk for p in selectors.session_players(session=s)],
                "sheet": selectors.session_sheet(session=s),
                "preset": (
                    {"id": s.preset_version.preset_id, "version": s.preset_version.version}
                    if s.preset_version
                    else None
                ),
            }
        )
    presets = [  # the club's house rules (issue 42), every version
        {
            "id": p.pk,
            "name": p.name,
            "version": p.version,
            "archived_at": p.archived_at,
            "versions": [
                {"version": v.version, "variant": v.variant, "rules": v.rules, "stake": v.stake, "at": v.created_at}
                for v in p.versions.order_by("version")
            ],
        }
        for p in Preset.objects.filter(club=club).order_by("pk")
    ]
    money = []
    for tx in MoneyTransaction.objects.filter(club=club).prefetch_related("entries__account").order_by("pk"):
        money.append(
            {
                "id": tx.pk,
                "kind": tx.kind,
                "currency": tx.currency,
                "session": tx.session_id,
                "close_version": tx.close_version,
                "reverses": tx.reverses_id,
                "note": tx.note,
                "created_at": tx.created_at,
                "entries": [
                    {"player": e.account.player_id, "pool": e.account.player_id is None, "amount": e.amount}
                    for e in sorted(tx.entries.all(), key=lambda e: e.account_id)
                ],
            }
        )
    return {
        "club": {"id": club.pk, "name": club.name, "created_at": club.created_at},
        "members": members,
        "players": players,
        "sessions": sessions,
        "presets": presets,
        "money": money,
    }


def exports() -> dict[int, str]:
    """Every club's export as the JSON text a snapshot keeps."""
    return {
        club.pk: json.dumps(club_export(club), cls=DjangoJSONEncoder, ensure_ascii=False, indent=1, sort_keys=True)
        for club in Club.objects.order_by("pk")
    }


# --- backup -------------------------------------------------------------------------------------


def _pg_env() -> tuple[list[str], dict[str, str]]:
    db = settings.DATABASES["default"]
    args = ["-h", str(db.get("HOST") or "127.0.0.1"), "-p", str(db.get("PORT") or 5432)]
    args += ["-U", str(db.get("USER") or "postgres")]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def backup_write(*, folder: str | Path, keep: int | None = None) -> Path:
    """Write one consistent snapshot into `folder`; keep the last `keep` snapshots there."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    name = PREFIX + dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    partial = root / (name + ".partial")
    partial.mkdir()
    (partial / "clubs").mkdir()
    try:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    cursor.execute("SELECT pg_export_snapshot()")
                    snapshot = cursor.fetchone()[0]
                args, env = _pg_env()
                dump = [
                    "pg_dump", *args, "-Fc", "--no-owner", "--snapshot", snapshot,
                    "-f", str(partial / "database.dump"), str(settings.DATABASES["default"]["NAME"]),
                ]  # fmt: skip
                subprocess.run(dump, env=env, check=True, capture_output=True)
                dump_file = "database.dump"
            elif connection.vendor == "sqlite":
                # The SQL text of every table, read in this transaction (SQLite's backup API would wait
                # forever for the write lock this transaction holds).
                connection.ensure_connection()
                with (partial / "database.sql").open("w", encoding="utf-8") as out:
                    for line in connection.connection.iterdump():
                        out.write(line + "\n")
                dump_file = "database.sql"
            else:
                raise BackupError(f"no backup for the {connection.vendor} database")
            texts = exports()
            counts = {
                "clubs": len(texts),
                "sessions": Session.objects.count(),
                "hands": Hand.objects.count(),
                "money_transactions": MoneyTransaction.objects.count(),
            }
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(partial, ignore_errors=True)
        raise BackupError(f"pg_dump failed: {exc.stderr.decode(errors='replace').strip()}") from exc
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    for club_id, text in texts.items():
        (partial / "clubs" / f"{club_id}.json").write_text(text, encoding="utf-8")
    files = sorted(p for p in partial.rglob("*") if p.is_file())
    manifest = {
        "created_at": dt.datetime.now(dt.UTC).isoformat(),
        "version": settings.CLUBSCORE_VERSION,
        "database": connection.vendor,
        "dump": dump_file,
        "counts": counts,
        "sha256": {str(p.relative_to(partial)): _sha256(p) for p in files},
    }
    (partial / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    _hand_over(partial)
    partial.rename(root / name)
    if keep:
        backup_prune(root, keep)
    return root / name


def _hand_over(snapshot: Path) -> None:
    """A snapshot written by root (`manage.py backup` from an admin's shell) becomes the service
    user's (BACKUP_OWNER, bin/production's CLUBSCORE_USER), as one the nightly task writes is, so the
    nightly prune can remove it when its turn comes (issue 39). Anyone else writes as themselves."""
    owner = settings.BACKUP_OWNER
    if not owner or os.geteuid() != 0:
        return
    import pwd

    try:
        user = pwd.getpwnam(owner)
    except KeyError as exc:
        raise BackupError(f"BACKUP_OWNER {owner!r} is no user of this machine") from exc
    for path in [snapshot, *snapshot.rglob("*")]:
        os.chown(path, user.pw_uid, user.pw_gid, follow_symlinks=False)


def backup_list(folder: str | Path) -> list[Path]:
    return sorted(p for p in Path(folder).glob(PREFIX + "*") if p.is_dir() and not p.name.endswith(".partial"))


def backup_prune(folder: str | Path, keep: int) -> list[Path]:
    old = backup_list(folder)[:-keep] if keep > 0 else []
    failed = []
    for path in old:  # each one tried: one that cannot be removed does not keep the others
        try:
            shutil.rmtree(path)
        except OSError as exc:
            failed.append(f"{path.name}: {exc.strerror or exc}")
    if failed:
        raise BackupError("old snapshots not removed: " + "; ".join(failed))
    return old


# --- restore ------------------------------------------------------------------------------------


def _manifest(snapshot: Path) -> dict[str, Any]:
    manifest = json.loads((snapshot / "manifest.json").read_text(encoding="utf-8"))
    for name, digest in manifest["sha256"].items():
        if _sha256(snapshot / name) != digest:
            raise BackupError(f"{name} does not match its checksum: the snapshot is damaged")
    return manifest


def backup_restore(snapshot: str | Path) -> dict[str, Any]:
    """Load a snapshot into the configured database, which must be empty (fresh). Returns its manifest."""
    path = Path(snapshot)
    manifest = _manifest(path)
    if manifest["database"] != connection.vendor:
        raise BackupError(f"the snapshot is of a {manifest['database']} database, this is {connection.vendor}")
    if connection.introspection.table_names():
        raise BackupError("the database is not empty: restore into a fresh one (DATABASE_URL)")
    if connection.vendor == "postgresql":
        args, env = _pg_env()
        restore = [
            "pg_restore", *args, "--no-owner", "--exit-on-error", "--single-transaction",
            "-d", str(settings.DATABASES["default"]["NAME"]), str(path / manifest["dump"]),
        ]  # fmt: skip
        done = subprocess.run(restore, env=env, capture_output=True)
        if done.returncode:
            raise BackupError(f"pg_restore failed: {done.stderr.decode(errors='replace').strip()}")
    else:
        connection.ensure_connection()
        raw = connection.connection  # the dump creates tables in name order: references are checked after
        raw.execute("PRAGMA foreign_keys = OFF")
        raw.executescript((path / manifest["dump"]).read_text(encoding="utf-8"))
        raw.execute("PRAGMA foreign_keys = ON")
        if raw.execute("PRAGMA foreign_key_check").fetchall():
            raise BackupError("the restored database breaks its foreign keys")
    connection.close()
    return manifest


def exports_match(snapshot: str | Path) -> list[str]:
    """The clubs whose export from the database differs from the snapshot's (after a restore: none)."""
    path = Path(snapshot)
    kept = {int(p.stem): p.read_text(encoding="utf-8") for p in (path / "clubs").glob("*.json")}
    now = exports()
    return [f"club {cid}: its export differs from the snapshot's" for cid in sorted(set(kept) | set(now))
            if kept.get(cid) != now.get(cid)]  # fmt: skip


# --- verify -------------------------------------------------------------------------------------


@dataclass
class Verification:
    sessions: int = 0
    hands: int = 0
    accounts: int = 0
    statistics_rows: int = 0
    pending: list[int] = field(default_factory=list)  # sessions whose background work has not run yet
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class _Rollback(Exception):
    pass


def _verify_sessions(result: Verification) -> None:
    for session in Session.objects.order_by("pk").iterator():
        result.sessions += 1
        hands = list(Hand.objects.filter(session=session).order_by("number").values_list("settled", flat=True))
        result.hands += len(hands)
        try:
            settlement = settle(selectors.session_sheet(session=session))
        except EngineError as exc:
            result.problems.append(f"session {session.pk}: its sheet no longer settles: {exc}")
            continue
        stored = {
            "hands": hands,
            "balances": session.balances,
            "pools": session.pools,
            "close": session.closing,
            "hands_count": session.hands_count,
        }
        derived = {
            "hands": settlement["hands"],
            "balances": settlement["balances"],
            "pools": settlement["pools"],
            "close": settlement.get("close"),
            "hands_count": len(settlement["hands"]),
        }
        for key in stored:
            if stored[key] != derived[key]:
                result.problems.append(f"session {session.pk}: its stored {key} differ from the replay's")


def _verify_money(result: Verification) -> None:
    from ledger.money.services import expected_close

    expected: dict[tuple[str, int], int] = defaultdict(int)
    for session in Session.objects.filter(status=Session.Status.CLOSED).order_by("pk"):
        if session.followup_done_version < session.followup_version:
            result.pending.append(session.pk)
            continue
        close = expected_close(session)
        if close is not None:
            for account_id, amount in close.amounts.items():
                expected[(close.currency, account_id)] += amount
    payment_kinds = set(MoneyTransaction.PAYMENT_KINDS)
    for entry in MoneyEntry.objects.select_related("transaction", "transaction__reverses"):
        tx = entry.transaction
        if tx.kind in payment_kinds or (tx.reverses is not None and tx.reverses.kind in payment_kinds):
            expected[(tx.currency, entry.account_id)] += entry.amount  # money paid is an input, not derived
    stored: dict[tuple[str, int], int] = {}
    rows = MoneyEntry.objects.values("transaction__currency", "account_id").annotate(total=Sum("amount"))
    pending_accounts = set(
        MoneyEntry.objects.filter(transaction__session_id__in=result.pending).values_list("account_id", flat=True)
    )
    for row in rows:
        stored[(row["transaction__currency"], row["account_id"])] = row["total"]
    for key in sorted(set(stored) | set(expected)):
        if key[1] in pending_accounts:
            continue
        result.accounts += 1
        if stored.get(key, 0) != expected.get(key, 0):
            result.problems.append(
                f"account {key[1]} ({key[0]}): stored balance {stored.get(key, 0)}, re-derived {expected.get(key, 0)}"
            )
    for currency, total in (
        MoneyEntry.objects.values_list("transaction__currency").annotate(total=Sum("amount")).order_by()
    ):
        if total:
            result.problems.append(f"the ledger does not sum to zero in {currency}: {total}")


def _verify_chain(result: Verification) -> None:
    """Each club's money digest chain recomputed (`ledger/money/chain.py`): any edit of written money
    shows, even one that keeps every balance re-derivable (a payment changed on both sides)."""
    from ledger.money import chain

    for club_id in Club.objects.order_by("pk").values_list("pk", flat=True):
        problem = chain.check(club_id)
        if problem is not None:
            result.problems.append(f"club {club_id}'s money chain: {problem}")


def _stats_rows() -> dict[str, list[tuple[Any, ...]]]:
    from django.apps import apps

    rows: dict[str, list[tuple[Any, ...]]] = {}
    for model in apps.get_app_config("stats").get_models():
        names = [f.attname for f in model._meta.concrete_fields if f.name not in ("id", "updated_at", "created_at")]
        rows[model.__name__] = sorted(
            (tuple(json.dumps(v, cls=DjangoJSONEncoder, sort_keys=True) for v in row)
             for row in model._default_manager.values_list(*names)),
        )  # fmt: skip
    return rows


def _verify_statistics(result: Verification) -> None:
    from ledger.stats.services import stats_rebuild_club

    before = _stats_rows()
    for club_id in Club.objects.order_by("pk").values_list("pk", flat=True):
        stats_rebuild_club(club_id)
    after = _stats_rows()
    result.statistics_rows = sum(len(r) for r in after.values())
    for name in sorted(before):
        if before[name] != after[name]:
            result.problems.append(f"statistics: {name} differs from a rebuild from the hands")


def verify() -> Verification:
    """Replay, re-derive and compare everything; the database is left as it was (rolled back)."""
    result = Verification()
    try:
        with transaction.atomic():
            _verify_sessions(result)
            _verify_money(result)
            _verify_chain(result)
            if result.pending:
                result.problems.append(
                    f"sessions {result.pending} wait for their background work: run the worker, then verify again"
                )
            else:
                _verify_statistics(result)
            raise _Rollback
    except _Rollback:
        pass
    return result
