"""`python manage.py settle SHEET.json` (or `-`): the settlement on stdout, or the error and exit 2.

`manage.py` runs it without starting Django (`ledger/engine/cli.py`); this command is the same code
for `call_command("settle", ...)` and `manage.py help`. It touches no database and skips the checks.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.engine import cli


class Command(BaseCommand):
    help = "Settle a score sheet (JSON file, or - for standard input) and print the settlement as JSON."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("sheet", help="path of the score-sheet JSON, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        status = cli.run(options["sheet"], sys.stdin.buffer, sys.stdout.buffer, sys.stderr.buffer)
        if status:
            sys.exit(status)
