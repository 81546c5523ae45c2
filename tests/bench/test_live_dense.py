"""The plumbing of `bench/live.py --dense` (issues 38 and 40), on a tiny evening: 1 table, 3 deals.

It checks that the mode produces its figures (every deal recorded, every follower given every deal, every
✓ taken by the server, the capacity bursts counted), never how fast: speed is the bench's to measure on
a quiet machine, against its floor (bench/README.md)."""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any
from urllib.parse import urlsplit

import pytest

from bench import live, phones
from ledger.models import DealCheck

PLAN = live.Plan(tables=1, deals=3, every=0.4, part=2, burst=0.5, clients=1, boards=1, think=(0.05, 0.1), drain=60.0)


@pytest.fixture(autouse=True)
def _short_heartbeats(settings: Any) -> None:
    """The live server's streams notice a phone that left at their next heartbeat: soon, at the end."""
    settings.LIVE_HEARTBEAT_SECONDS = 1


def test_a_tiny_dense_evening_gives_every_figure(live_server: Any) -> None:
    scene = live.dense_scene(PLAN, spare=4)
    url = urlsplit(live_server.url)
    client = phones.Client(url.hostname or "localhost", url.port or 80)

    figures = asyncio.run(live.dense_evening(client, scene, PLAN))
    time.sleep(2.5)  # the server's streams see their phones gone at their next heartbeat, the database still there
    said = "\n".join(live.dense_report(figures))  # what a failure shows

    assert figures["failures"] == [], said
    assert (figures["recorded"], figures["recorded_without"], figures["expected"]) == (3, 3, 3)
    # every follower (3) had every deal (3): its event came and its page read the deal's row
    assert (figures["deliveries"], figures["expected_deliveries"], figures["missing"]) == (9, 9, 0), said
    assert len(figures["latency"]) + len(figures["latency_burst"]) == 9
    assert all(math.isfinite(x) for x in figures["latency"] + figures["latency_burst"] + figures["event"])
    # each follower's ✓ on each deal reached the server, and only those
    assert figures["checks"] == 9
    assert DealCheck.objects.filter(state=DealCheck.State.CONFIRMED, cleared_at=None).count() == 9
    # two bursts with followers and two without, interleaved, each recording something
    assert len(figures["bursts"]) == 2 and all(a > 0 and b > 0 for a, b in figures["bursts"]), said
    assert figures["capacity_with"] > 0 and figures["capacity_without"] > 0
    # the scorer's waits, with and without followers (outside the bursts: on a slow machine, maybe none)
    assert {k: set(v) for k, v in figures["scorer"].items()} == {
        k: {"record", "page"} for k in ("followed", "unfollowed")
    }
    assert figures["requests"]["preview"] == 6 and figures["requests"]["record"] == 6
    assert "p95" in said and "capacity" in said
