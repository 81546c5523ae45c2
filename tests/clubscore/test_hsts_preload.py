"""HSTS `preload` only where the name is public (issue 39, point 13): bin/production writes
SECURE_HSTS_PRELOAD=0 for a site on Caddy's internal authority (no DOMAIN), which keeps HSTS itself.
The production test (tests/production) reads the header the stack sends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
READ = "from django.conf import settings; print(settings.SECURE_HSTS_SECONDS, settings.SECURE_HSTS_PRELOAD)"


@pytest.mark.parametrize(("flag", "preload"), [("0", "False"), ("1", "True"), ("", "True")])
def test_preload_follows_the_setting_and_hsts_stays(flag: str, preload: str) -> None:
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="clubscore.settings",
        CLUBSCORE_ENV="production",
        SECRET_KEY="x" * 64,
        SECURE_HSTS_PRELOAD=flag,
    )
    code = f"import django; django.setup(); {READ}"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["31536000", preload]
