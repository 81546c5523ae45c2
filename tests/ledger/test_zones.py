"""A club's time zones do not depend on the machine having a zone database of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def test_the_zone_list_comes_from_the_tzdata_package_on_a_machine_without_zoneinfo(tmp_path):
    """With no system zone database (PYTHONTZPATH pointing at an empty folder), the clubs' list still
    holds the world's zones, and a zone still converts: the `tzdata` wheel carries them."""
    script = (
        "import json, datetime as dt\n"
        "from ledger.zones import zone_names, club_zone\n"
        "names = zone_names()\n"
        "paris = dt.datetime(2026, 7, 1, 12, tzinfo=dt.UTC).astimezone(club_zone('Europe/Paris'))\n"
        "print(json.dumps({'count': len(names), 'has': ['Europe/Paris' in names, 'Asia/Vladivostok' in names],"
        " 'paris_hour': paris.hour}))\n"
    )
    env = {**os.environ, "PYTHONTZPATH": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    seen = json.loads(out.stdout)
    assert seen["has"] == [True, True]
    assert seen["count"] > 400
    assert seen["paris_hour"] == 14  # CEST, UTC+2 in July
