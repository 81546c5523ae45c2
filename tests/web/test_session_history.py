"""Issue 26, history is kept: reopening asks first and says what it undoes, closing again keeps the
evening's date unless the treasurer changes it, and the settlement lists the closes and reopens."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from typing import Any

import pytest
from django.utils import timezone

from ledger import followup
from ledger.models import Session, SessionEvent
from ledger.services.sessions import session_close, session_import
from tests.ledger_fixtures import example_sheet, fresh

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported(admin: Any, club: Any) -> Session:
    """An evening of 9 May 2025, imported closed."""
    sheet = example_sheet("american-evening-defaults")
    session = session_import(actor=admin, club_id=club.pk, sheet=sheet, closed_at="2025-05-09")
    followup.followup_run(session_id=session.pk)
    return fresh(session)


def post(client: Any, session: Session, **fields: str) -> Any:
    return client.post(f"/sessions/{session.pk}/settlement/", {"version": fresh(session).version, **fields})


def test_reopen_asks_first_and_says_what_it_undoes(client_for: Any, treasurer: Any, imported: Session) -> None:
    client = client_for(treasurer)
    html = unescape(client.get(f"/sessions/{imported.pk}/settlement/").content.decode())
    form = html[html.index('id="reopen-form"') : html.index("</form>", html.index('id="reopen-form"'))]
    assert 'name="confirm" value="yes" required' in form
    assert "the evening's money leaves the club's books" in form and "keeps the date 9 May 2025" in form
    post(client, imported, action="reopen")  # the box not ticked
    assert fresh(imported).status == Session.Status.CLOSED
    post(client, imported, action="reopen", confirm="yes")
    assert fresh(imported).status == Session.Status.OPEN


def test_closing_again_keeps_the_date_unless_changed(client_for: Any, treasurer: Any, imported: Session) -> None:
    client = client_for(treasurer)
    played = fresh(imported).closed_at
    assert played is not None and timezone.localdate(played) == dt.date(2025, 5, 9)
    post(client, imported, action="reopen", confirm="yes")
    html = client.get(f"/sessions/{imported.pk}/settlement/").content.decode()
    assert re.search(r'name="played_on" id="played-on" value="2025-05-09"', html)
    post(client, imported, action="close", confirm="yes", pools="divide", played_on="2025-05-09")
    assert fresh(imported).closed_at == played  # kept to the second, not 'now'
    post(client, imported, action="reopen", confirm="yes")
    post(client, imported, action="close", confirm="yes", pools="divide")  # no date sent: kept too
    assert fresh(imported).closed_at == played
    post(client, imported, action="reopen", confirm="yes")
    post(client, imported, action="close", confirm="yes", pools="divide", played_on="2025-05-10")
    assert timezone.localdate(fresh(imported).closed_at) == dt.date(2025, 5, 10)
    kinds = list(SessionEvent.objects.filter(session=imported).values_list("kind", flat=True))
    assert kinds == ["close", "reopen", "close", "reopen", "close", "reopen", "close"]
    history = unescape(client.get(f"/sessions/{imported.pk}/settlement/").content.decode())
    listed = history[
        history.index('id="session-history"') : history.index("</ol>", history.index('id="session-history"'))
    ]
    assert listed.count('data-kind="reopen"') == 3 and "Reopened" in listed and "by treasurer" in listed
    assert "dated 9 May 2025" in listed and "dated 10 May 2025" in listed


def test_a_first_close_is_dated_now(admin: Any, session: Session) -> None:
    session_close(actor=admin, session_id=session.pk, expected_version=fresh(session).version)
    closed_at = fresh(session).closed_at
    assert closed_at is not None and timezone.now() - closed_at < dt.timedelta(minutes=1)
    (event,) = SessionEvent.objects.filter(session=session)
    assert (event.kind, event.by, event.played_at) == ("close", admin, closed_at)
