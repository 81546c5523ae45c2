"""`manage.py restore SNAPSHOT`: load a snapshot into the configured, empty database, then verify it.
A restore is not done until `verify` says so: the command exits 1 when it does not."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.backup import BackupError, backup_restore, exports_match, verify

from .verify import report


class Command(BaseCommand):
    help = "Loads a snapshot of `manage.py backup` into a fresh database (DATABASE_URL) and verifies it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("snapshot", help="a snapshot folder (clubscore-<time>)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            manifest = backup_restore(options["snapshot"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"restored the snapshot of {manifest['created_at']} ({manifest['counts']})")
        differences = exports_match(options["snapshot"])
        result = verify()
        result.problems[:0] = differences
        report(self.stdout, result)
        if not result.ok:
            raise CommandError("the restore is NOT verified")
        self.stdout.write("restore verified")
