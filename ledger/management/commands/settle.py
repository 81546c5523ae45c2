"""`python manage.py settle SHEET.json` (or `-`): the settlement on stdout, or the error and exit 2.

It touches no database: the engine is pure, and the command skips Django's system checks.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.engine import EngineError, settle
from ledger.engine.errors import sheet_error


class Command(BaseCommand):
    help = "Settle a score sheet (JSON file, or - for standard input) and print the settlement as JSON."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("sheet", help="path of the score-sheet JSON, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["sheet"]
        try:
            if path == "-":
                text = sys.stdin.buffer.read().decode("utf-8")
            else:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
        except OSError as exc:
            self.stderr.write(f"cannot read {path}: {exc.strerror}")
            sys.exit(1)
        try:
            try:
                raw = json.loads(text)
            except ValueError:
                raise sheet_error("sheet", "the score sheet is not valid JSON") from None
            result = settle(raw)
        except EngineError as exc:
            self._print(exc.as_json())
            sys.exit(2)
        self._print(result)

    def _print(self, data: dict[str, Any]) -> None:
        out = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        sys.stdout.buffer.write(out.encode("utf-8"))
        sys.stdout.flush()
