"""A live stream holds no database connection while it waits (issue 38, found by bench/live.py --dense).

A stream lasts minutes and reads for milliseconds (the login or link, the state it opens with, the link
checked at each heartbeat). Held for the stream's life, each phone following kept one of its web
server's connections: with production's pool of 8, the ninth phone and every scorer's write waited
DB_POOL_TIMEOUT and got a 503. The Django test client runs the view and the stream in this thread, so
this thread's connection is the one the stream used."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client

from ledger.models import Club, Player
from ledger.services.table import seat_link_issue
from tests.ledger_fixtures import AMERICAN_HANDS, open_session, record_all

pytestmark = [
    pytest.mark.django_db(transaction=True),  # no test transaction: a connection outside one may be closed
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite's in-memory test database is never closed: CI's PostgreSQL pass runs this",
    ),
]


def test_a_stream_hands_its_connection_back_after_each_read(
    admin: Any, club: Club, players: list[Player], settings: Any
) -> None:
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    session = open_session(admin, club, players)
    record_all(admin, session, AMERICAN_HANDS[:1])
    key, _ = seat_link_issue(actor=admin, session_id=session.pk, seat=0)
    response = Client().get(f"/live/seat/{key}/")
    chunks = iter(response.streaming_content)  # type: ignore[attr-defined]
    assert next(chunks).startswith(b"retry: ")
    assert connection.connection is None  # the view's reads (the link) are not held
    assert b"event: change" in next(chunks)  # the state it opens with, read once subscribed
    assert connection.connection is None
    assert b"event: ping" in next(chunks)  # a heartbeat: the link checked again, and handed back again
    assert connection.connection is None
    response.close()
