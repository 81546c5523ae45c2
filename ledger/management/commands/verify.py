"""`manage.py verify`: replay every session through the engine and re-derive every money balance,
statistic and rating; say whether all equal what is stored (exit 0) or list what does not (exit 1).
The database is not changed (ledger/backup.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, OutputWrapper

from ledger.backup import Verification, verify


def report(out: OutputWrapper, result: Verification) -> None:
    out.write(
        f"{result.sessions} sessions and {result.hands} hands replayed, {result.accounts} money balances "
        f"re-derived, {result.statistics_rows} statistics and rating rows rebuilt"
    )
    for problem in result.problems:
        out.write(f"MISMATCH: {problem}")
    out.write("verify: all equal" if result.ok else f"verify: {len(result.problems)} differences")


class Command(BaseCommand):
    help = "Replays every session and re-derives money, statistics and ratings; says whether all equal the stored."

    def handle(self, *args: Any, **options: Any) -> None:
        result = verify()
        report(self.stdout, result)
        if not result.ok:
            raise CommandError("verify found differences")
