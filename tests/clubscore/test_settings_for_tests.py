"""The suite's settings (clubscore/settings_for_tests.py): the fast password hasher, in this process and in
every process a test starts with the test process's environment (the Celery workers and gunicorn of
tests/integration), and nothing else changed from the project's settings."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings

import clubscore.settings as project
import clubscore.settings_for_tests as ours
from clubscore.settings_for_tests import redis_url_for_worker
from tests.ledger_fixtures import PASSWORD, make_user

MD5 = "django.contrib.auth.hashers.MD5PasswordHasher"


def test_the_suite_hashes_passwords_with_md5_and_changes_nothing_else() -> None:
    assert settings.SETTINGS_MODULE == "clubscore.settings_for_tests"
    assert settings.PASSWORD_HASHERS == [MD5]
    assert "PASSWORD_HASHERS" not in dir(project)  # production keeps Django's default (PBKDF2)
    differing = {
        name for name in dir(ours) if name.isupper() and getattr(ours, name) is not getattr(project, name, None)
    }
    redis = (
        {"REDIS_URL", "CELERY_BROKER_URL", "CACHES"}
        if project.REDIS_URL and os.environ.get("PYTEST_XDIST_WORKER")
        else set()
    )
    assert differing == {"PASSWORD_HASHERS", *redis}


def test_a_user_created_by_a_test_has_an_md5_hash(db: None) -> None:
    user = make_user("hashed")
    assert user.password.startswith("md5$")
    assert user.check_password(PASSWORD)


def test_a_process_started_with_the_tests_environment_has_the_same_hasher() -> None:
    assert os.environ["DJANGO_SETTINGS_MODULE"] == "clubscore.settings_for_tests"
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; print(settings.PASSWORD_HASHERS)",
        ],
        env=dict(os.environ),
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.strip() == str([MD5])


@pytest.mark.parametrize(
    ("url", "worker", "expected"),
    [
        ("redis://127.0.0.1:6379/15", "gw0", "redis://127.0.0.1:6379/15"),
        ("redis://127.0.0.1:6379/15", "gw1", "redis://127.0.0.1:6379/14"),
        ("redis://:secret@redis.example:6380/3", "gw3", "redis://:secret@redis.example:6380/0"),
        ("redis://127.0.0.1:6379", "gw0", "redis://127.0.0.1:6379/0"),
    ],
)
def test_each_xdist_worker_has_a_redis_database_of_its_own(url: str, worker: str, expected: str) -> None:
    assert redis_url_for_worker(url, worker) == expected


def test_a_redis_url_with_no_database_left_for_a_worker_is_refused() -> None:
    with pytest.raises(ValueError, match="no Redis database for xdist worker gw2"):
        redis_url_for_worker("redis://127.0.0.1:6379/1", "gw2")


def test_this_worker_uses_its_own_redis_database_everywhere() -> None:
    """Under xdist with Redis (CI's step 2) the broker, the cache and the environment that the tests'
    own processes inherit all name this worker's database; otherwise the project's settings stand."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if project.REDIS_URL and worker:
        assert os.environ["CLUBSCORE_REDIS_WORKER"] == worker
        assert settings.REDIS_URL == os.environ["REDIS_URL"] == settings.CELERY_BROKER_URL
        assert settings.CACHES["default"]["LOCATION"] == settings.REDIS_URL
    else:
        assert settings.REDIS_URL == project.REDIS_URL
        assert settings.CELERY_BROKER_URL == project.CELERY_BROKER_URL
        assert settings.CACHES == project.CACHES
