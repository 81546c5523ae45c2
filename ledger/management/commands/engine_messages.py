"""Write ledger/i18n/engine_messages.py from the engine's tables (docs/i18n.md), then run makemessages."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ledger.i18n import generate


class Command(BaseCommand):
    help = "Write ledger/i18n/engine_messages.py: the engine's message ids and declared words, for makemessages."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--check", action="store_true", help="fail if the file is not up to date; write nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        text = generate.render()
        current = generate.PATH.read_text(encoding="utf-8") if generate.PATH.exists() else ""
        if options["check"]:
            if current != text:
                raise SystemExit(f"{generate.PATH} is stale: run manage.py engine_messages")
            return
        if current != text:
            generate.PATH.write_text(text, encoding="utf-8")
        self.stdout.write(f"{generate.PATH}: {len(generate.entries())} entries")
