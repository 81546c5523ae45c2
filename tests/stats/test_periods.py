"""Whole months are summed from the monthly rows and the days at either end from the session rows: for
any date range, in any time zone, the answer is the plain sum of the session rows in that range."""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from typing import Any

import pytest
from django.utils import timezone

from ledger.engine.variants import variant_names
from ledger.models import Session
from ledger.stats import selectors
from ledger.stats.models import PlayerContract, PlayerMonth, PlayerSession
from ledger.stats.selectors import Filters
from ledger.stats.services import stats_rebuild, stats_session_refresh
from tests.ledger_fixtures import long_sheet
from tests.stats.helpers import import_closed, snapshot

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve"]


def spread(admin: Any, club: Any, seed: int) -> list[Session]:
    """Sessions of every variant closed between mid-November 2023 and March 2024, two of them within an
    hour of a month's boundary in the current time zone (where UTC may see another month)."""
    rng = random.Random(seed)
    start = timezone.make_aware(dt.datetime(2023, 11, 15, 12, 0))
    times = [start + dt.timedelta(days=i * 9 + rng.randrange(9), hours=rng.randrange(24)) for i in range(12)]
    times += [
        timezone.make_aware(dt.datetime(2024, 1, 1, 0, 30)),
        timezone.make_aware(dt.datetime(2024, 1, 31, 23, 30)),
    ]
    sessions = []
    for i, when in enumerate(times):
        variant = variant_names()[i % len(variant_names())]
        sheet = long_sheet(variant, seed * 100 + i, deals=10)
        sheet["players"] = rng.sample(NAMES, 4)
        sheet["stake"] = rng.choice(
            [{"currency": "USD", "per_counter": "0.01"}, {"currency": "EUR", "per_counter": "1"}]
        )
        session = import_closed(admin, club, sheet, refresh=i % 2 == 0)  # closed now, then moved: two months change
        Session.objects.filter(pk=session.pk).update(closed_at=when)
        stats_session_refresh(session_id=session.pk)
        sessions.append(session)
    return sessions


def plain(player_id: int, filters: Filters) -> dict[str, Any]:
    """The same figures summed straight from the session rows."""
    rows = selectors._filtered(PlayerSession.objects.filter(player_id=player_id), filters)
    variants: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    money: dict[str, int] = defaultdict(int)
    for r in rows:
        v = variants[r.variant]
        v[0] += 1
        v[1] += r.deals
        v[2] += r.counters
        v[3] += r.pools_won_counters
        v[4] += r.misere_partout_lost
        if r.currency:
            money[r.currency] += r.money
    contracts: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for c in selectors._filtered(PlayerContract.objects.filter(player_id=player_id), filters):
        t = contracts[(c.variant, c.bid, c.role)]
        t[0] += c.played
        t[1] += c.made
        t[2] += c.overtricks
        t[3] += c.shortfall
    return {"variants": dict(variants), "money": dict(money), "contracts": dict(contracts)}


def answered(stats: dict[str, Any]) -> dict[str, Any]:
    variants = {
        name: [
            v["sessions"],
            v["deals"],
            v["counters"],
            v["pools_won"]["counters"],
            (v["misere_partout"] or {}).get("lost", 0),
        ]
        for name, v in stats["variants"].items()
    }
    contracts = {
        (name, c["bid"], c["role"]): [c["played"], c["made"], c["overtricks"], c["shortfall"]]
        for name, v in stats["variants"].items()
        for c in v["contracts"]
    }
    return {"variants": variants, "money": stats["money"], "contracts": contracts}


def random_day(rng: random.Random) -> dt.date | None:
    if rng.random() < 0.2:
        return None
    return dt.date(2023, 11, 1) + dt.timedelta(days=rng.randrange(160))


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Auckland", "America/Los_Angeles"])
def test_any_range_is_the_plain_sum_of_its_sessions(admin: Any, club: Any, settings: Any, zone: str) -> None:
    settings.TIME_ZONE = zone
    timezone.activate(zone)
    type(club).objects.filter(pk=club.pk).update(time_zone=zone)  # the boards count the club's days
    try:
        spread(admin, club, seed=len(zone))
        assert PlayerMonth.objects.values("month").distinct().count() >= 4
        rng = random.Random(zone)
        players = sorted(set(PlayerSession.objects.values_list("player_id", flat=True)))
        for _ in range(150):
            low, high = random_day(rng), random_day(rng)
            if low and high and low > high:
                low, high = high, low
            filters = Filters(variant=rng.choice([None, None, "american", "french"]), date_from=low, date_to=high)
            player_id = rng.choice(players)
            got = selectors.player_stats(user=admin, player_id=player_id, filters=filters)
            assert answered(got) == plain(player_id, filters), filters
        # The boards over whole months and over ranges cut inside months agree with the plain sums too.
        periods: list[dict[str, Any]] = [
            {"period": "month", "month": (2024, 1)},
            {"period": "year", "year": 2023},
            {"period": "all"},
        ]
        for params in periods:
            for cut in (Filters(), Filters(date_from=dt.date(2023, 12, 10), date_to=dt.date(2024, 2, 20))):
                board = selectors.leaderboard(
                    user=admin, club_id=club.pk, by="money", currency="USD", filters=cut, **params
                )
                start, end, _label = selectors.period_bounds(
                    params["period"], month=params.get("month"), year=params.get("year")
                )
                rows = selectors._filtered(
                    PlayerSession.objects.filter(club_id=club.pk, currency="USD"), cut, start, end
                )
                expected: dict[int, int] = defaultdict(int)
                for r in rows:
                    expected[r.player_id] += r.money
                assert {r["player"]["id"]: r["value"] for r in board["rows"]} == dict(expected)
        before = snapshot()
        stats_rebuild()
        assert snapshot() == before
    finally:
        timezone.deactivate()
