"""The database the browser tests share with their live server lets two connections work side by side.

The live server's threads each hold a connection of their own (pytest-django starts the server before
the test database exists, so it cannot hand them the test's). In Django's default shared-cache memory
database such connections lock each other by table and fail at once, "database table is locked", which
failed CI once; clubscore/settings_for_tests.py puts the database in a file, where they do not."""

from __future__ import annotations

import threading
from datetime import timedelta

from django.contrib.sessions.models import Session as LoginSession
from django.db import connection, connections
from django.utils import timezone

from tests.browser.conftest import BROWSER

pytestmark = BROWSER


def test_a_write_goes_through_while_another_connection_is_reading_the_table(transactional_db: None) -> None:
    later = timezone.now() + timedelta(days=1)
    for key in ("a" * 32, "b" * 32):
        LoginSession.objects.create(session_key=key, session_data="e30:", expire_date=later)
    reading = connection.cursor()  # as a stream's request reads the logins while the test logs in
    reading.execute("SELECT session_key FROM django_session")
    assert reading.fetchone() is not None  # the statement stays open on the second row

    failed: list[BaseException] = []

    def log_in_from_another_thread() -> None:
        try:
            LoginSession.objects.create(session_key="c" * 32, session_data="e30:", expire_date=later)
        except BaseException as error:  # reported by the test's own thread, below
            failed.append(error)
        finally:
            connections.close_all()

    other = threading.Thread(target=log_in_from_another_thread)
    other.start()
    other.join(timeout=30)
    reading.close()
    assert not other.is_alive()
    assert failed == []
    assert LoginSession.objects.count() == 3
