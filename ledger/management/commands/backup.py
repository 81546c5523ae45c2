"""`manage.py backup [--folder F] [--keep N]`: one consistent snapshot (ledger/backup.py)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.backup import BackupError, backup_write


class Command(BaseCommand):
    help = "Writes one consistent snapshot (the database and every club's export) and keeps the last N."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--folder", default=settings.BACKUP_DIR, help="where the snapshots are (BACKUP_DIR)")
        parser.add_argument("--keep", type=int, default=settings.BACKUP_KEEP, help="how many to keep (BACKUP_KEEP)")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["folder"]:
            raise CommandError("say where: --folder or BACKUP_DIR")
        try:
            path = backup_write(folder=options["folder"], keep=options["keep"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(str(path))
