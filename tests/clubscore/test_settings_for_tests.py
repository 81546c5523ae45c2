"""The suite's settings (clubscore/settings_for_tests.py): the fast password hasher, in this process and in
every process a test starts with the test process's environment (the Celery workers and gunicorn of
tests/integration), and nothing else changed from the project's settings."""

from __future__ import annotations

import os
import subprocess
import sys

from django.conf import settings

import clubscore.settings as project
import clubscore.settings_for_tests as ours
from tests.ledger_fixtures import PASSWORD, make_user

MD5 = "django.contrib.auth.hashers.MD5PasswordHasher"


def test_the_suite_hashes_passwords_with_md5_and_changes_nothing_else() -> None:
    assert settings.SETTINGS_MODULE == "clubscore.settings_for_tests"
    assert settings.PASSWORD_HASHERS == [MD5]
    assert "PASSWORD_HASHERS" not in dir(project)  # production keeps Django's default (PBKDF2)
    differing = {
        name for name in dir(ours) if name.isupper() and getattr(ours, name) is not getattr(project, name, None)
    }
    assert differing == {"PASSWORD_HASHERS"}


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
