"""A club's time zone (issue 26): the IANA names `zoneinfo` knows, and the zone of a club's times.

The pages and the CSVs show times in the club's zone (`ledger.web.zones` activates it per request; a
CSV writer converts explicitly with `club_zone`); the API stays in UTC with an offset."""

from __future__ import annotations

import datetime as dt
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

DEFAULT = "UTC"


@cache
def zone_names() -> tuple[str, ...]:
    """Every IANA name `zoneinfo` knows (the system's database, else the `tzdata` package), sorted."""
    return tuple(sorted(available_timezones() | {DEFAULT}))


def is_zone(name: str) -> bool:
    return name in zone_names()


@cache
def club_zone(name: str) -> dt.tzinfo:
    """The zone of a club's `time_zone` (UTC for a name the database no longer knows)."""
    return ZoneInfo(name) if is_zone(name) else dt.UTC


def local(value: dt.datetime, name: str) -> dt.datetime:
    """An aware time as the club's clock showed it."""
    return value.astimezone(club_zone(name))
