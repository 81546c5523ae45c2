"""`python manage.py rebuild_stats [--club ID]`: recompute the statistics and ratings from the hands."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.models import Club
from ledger.stats.services import stats_rebuild


class Command(BaseCommand):
    help = "Recompute every player statistic and rating from the hands of the closed sessions."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", type=int, help="only this club (default: every club)")

    def handle(self, *args: Any, **options: Any) -> None:
        club_id = options.get("club")
        if club_id is not None and not Club.objects.filter(pk=club_id).exists():
            raise CommandError(f"no club {club_id}")
        started = time.perf_counter()
        result = stats_rebuild(club_id=club_id)
        self.stdout.write(
            f"rebuilt {result.sessions} closed sessions and {result.rating_entries} rating entries"
            f" in {result.clubs} club(s) in {time.perf_counter() - started:.1f} s"
        )
