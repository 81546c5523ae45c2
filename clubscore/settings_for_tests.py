"""The settings the test suite runs with: the project's own (`clubscore.settings`, from the environment),
with a fast password hasher, as HackSoft's `config/django/test.py` does.

PBKDF2's hundreds of thousands of rounds are the point in production and nearly half of the suite's time
in tests, which create users and log them in by the hundred. pytest-django names this module in
`DJANGO_SETTINGS_MODULE` (pyproject.toml) and puts it in the environment, so it also reaches what the
tests start as processes of their own (the Celery workers and gunicorn of tests/integration), and the
browser tests' live server, a thread of the test process. Nothing else differs from `clubscore.settings`.
"""

from clubscore.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
