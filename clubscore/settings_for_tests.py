"""The settings the test suite runs with: the project's own (`clubscore.settings`, from the environment),
with a fast password hasher, as HackSoft's `config/django/test.py` does, and one Redis database per
pytest-xdist worker.

PBKDF2's hundreds of thousands of rounds are the point in production and nearly half of the suite's time
in tests, which create users and log them in by the hundred. pytest-django names this module in
`DJANGO_SETTINGS_MODULE` (pyproject.toml) and puts it in the environment, so it also reaches what the
tests start as processes of their own (the Celery workers and gunicorn of tests/integration), and the
browser tests' live server, a thread of the test process.

Under xdist each worker has its own PostgreSQL database (pytest-django adds `_gw0`, `_gw1`, ...) and,
from here, its own Redis database: `gwN` takes the database N below the one `REDIS_URL` names (CI: 15,
14), so two workers never share a broker queue, a cache key or a throttle's history. The worker's URL is
put back in the environment, marked with the worker it was chosen for, so a process the tests start
keeps it rather than moving once more.
"""

import os
import tempfile
from urllib.parse import urlsplit, urlunsplit

import clubscore.settings as _project
from clubscore.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # The test database in a file (pytest-django adds `_gw0`, `_gw1` under xdist), not Django's default
    # shared-cache memory database. pytest-django starts the browser tests' live server before that
    # database exists, so each of the server's threads opens a connection of its own; in a shared cache
    # two connections lock each other by table and the loser fails at once ("database table is locked",
    # the busy timeout does not apply), as CI did once when a test logged in while its page streamed.
    # In a file they wait for each other, as the scorer's phones and the treasurer do on `bin/serve`.
    # WAL lets a reader go on beside a writer; nothing here has to survive a power cut (synchronous=OFF).
    # Named by the process: CI runs two xdist passes side by side in one checkout, both with gw0 and gw1.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"clubscore-tests-{os.getpid()}.sqlite3")
    }
    DATABASES["default"]["OPTIONS"] = {  # noqa: F405
        **DATABASES["default"]["OPTIONS"],  # noqa: F405
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF",
    }


def redis_url_for_worker(url: str, worker: str) -> str:
    """The Redis URL of xdist worker `gwN`: the database N below `url`'s (0 when the URL names none)."""
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or "0") - int(worker.removeprefix("gw"))
    if database < 0:
        raise ValueError(f"REDIS_URL {url} leaves no Redis database for xdist worker {worker}: name a higher one")
    return urlunsplit(parts._replace(path=f"/{database}"))


_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _project.REDIS_URL and _worker and os.environ.get("CLUBSCORE_REDIS_WORKER") != _worker:
    REDIS_URL = redis_url_for_worker(_project.REDIS_URL, _worker)
    os.environ.update(REDIS_URL=REDIS_URL, CLUBSCORE_REDIS_WORKER=_worker)
    CELERY_BROKER_URL = REDIS_URL
    CACHES = {"default": {**_project.CACHES["default"], "LOCATION": REDIS_URL}}
