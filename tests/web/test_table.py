"""The whole table's pages (issue 25) through Django's test client: following a table (a member, a seat
link), its fragment's conditional GET (ETag, 304), the stream's first event and a relayed change, the
join page's QR code, the room board, and the close page's disputes."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from ledger.live import LocalBroker, broker
from ledger.models import Club, Player, Role
from ledger.services.clubs import player_create
from ledger.services.hands import hand_record
from ledger.services.table import board_link_issue, board_link_revoke, deal_check, seat_link_issue, seat_link_revoke
from tests.ledger_fixtures import AMERICAN_HANDS, PASSWORD, fresh, member, open_session, record_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(admin: Any, club: Club) -> dict[str, Any]:
    users = [member(club, admin, name.lower(), Role.PLAYER) for name in ("Ann", "Ben", "Cleo", "Dan")]
    seated = [player_create(actor=admin, club_id=club.pk, name=u.username.title(), user=u) for u in users]
    scorer = member(club, admin, "scorer", Role.SCORER)
    session = open_session(scorer, club, seated)
    record_all(scorer, session, AMERICAN_HANDS[:2])
    return {"users": users, "scorer": scorer, "session": fresh(session)}


def login(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_a_member_follows_the_table_in_words_with_his_seat_buttons(table: dict) -> None:
    session = table["session"]
    ben = login(table["users"][1])
    page = ben.get(f"/sessions/{session.pk}/follow/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "You follow as Ben" in text and "Deal 2" in text and "dealt by" in text
    assert 'data-action="confirm"' in text and "That's not right" in text
    assert ben.get(f"/t/{session.pk}/")["Location"] == f"/sessions/{session.pk}/follow/"


def test_the_fragment_answers_304_until_the_table_moves(table: dict) -> None:
    session = table["session"]
    ann = login(table["users"][0])
    first = ann.get(f"/sessions/{session.pk}/follow/rows/")
    tag = first["ETag"]
    assert tag == f'"{session.version}.0"'
    assert ann.get(f"/sessions/{session.pk}/follow/rows/", headers={"If-None-Match": tag}).status_code == 304
    deal_check(actor=table["users"][0], session_id=session.pk, number=1, state="confirmed")
    moved = ann.get(f"/sessions/{session.pk}/follow/rows/", headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved["ETag"] == f'"{session.version}.1"'
    assert "✓" in moved.content.decode()


def test_a_stranger_cannot_follow(table: dict, other_admin: Any) -> None:
    stranger = login(other_admin)
    assert stranger.get(f"/sessions/{table['session'].pk}/follow/").status_code == 404
    assert stranger.get(f"/live/sessions/{table['session'].pk}/").status_code == 404
    assert Client().get(f"/live/sessions/{table['session'].pk}/").status_code == 404


def test_the_stream_opens_with_the_state_and_relays_a_change(
    table: dict, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    settings.REDIS_URL = None
    assert isinstance(broker(), LocalBroker)
    session = table["session"]
    response = login(table["users"][0]).get(f"/live/sessions/{session.pk}/")
    assert response["Content-Type"].startswith("text/event-stream")
    chunks = iter(response.streaming_content)  # type: ignore[attr-defined]
    assert next(chunks).startswith(b"retry: ")
    first = next(chunks).decode()
    assert f"id: {session.version}.0" in first and "event: change" in first

    with django_capture_on_commit_callbacks(execute=True):  # the stream is subscribed: the write is told
        hand_record(actor=table["scorer"], session_id=session.pk, hand=AMERICAN_HANDS[2])
    relayed = next(c for c in chunks if c.startswith(b"id:")).decode()
    data = json.loads(relayed.split("data: ", 1)[1])
    assert data["hands"] == 3 and data["tag"] == f"{session.version + 1}.0"
    response.close()


def _stream_of(response: Any) -> Any:
    chunks = iter(response.streaming_content)
    assert next(chunks).startswith(b"retry: ")
    assert b"event: " in next(chunks)  # the state it opens with
    return chunks


def test_a_revoked_links_open_stream_ends_at_once(
    table: dict, admin: Any, club: Club, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Issue 39, item 9: it relayed every change for up to LIVE_STREAM_SECONDS (300 s) after the revoke."""
    settings.LIVE_HEARTBEAT_SECONDS = 5  # no heartbeat comes before the revoke's message ends the streams
    settings.LIVE_STREAM_SECONDS = 6
    settings.REDIS_URL = None
    session, scorer = table["session"], table["scorer"]
    key, link = seat_link_issue(actor=scorer, session_id=session.pk, seat=1)
    other_key, _ = seat_link_issue(actor=scorer, session_id=session.pk, seat=2)
    board_key, board = board_link_issue(actor=admin, club_id=club.pk, label="bar")
    seat = _stream_of(Client().get(f"/live/seat/{key}/"))
    other = _stream_of(Client().get(f"/live/seat/{other_key}/"))
    room = _stream_of(Client().get(f"/live/board/{board_key}/"))

    with django_capture_on_commit_callbacks(execute=True):
        seat_link_revoke(actor=scorer, session_id=session.pk, link_id=link.pk)
        board_link_revoke(actor=admin, club_id=club.pk, link_id=board.pk)
    started = time.monotonic()
    assert list(seat) == [] and list(room) == []  # ended, nothing more relayed
    assert time.monotonic() - started < 4  # at once, not at a heartbeat
    with django_capture_on_commit_callbacks(execute=True):
        hand_record(actor=scorer, session_id=session.pk, hand=AMERICAN_HANDS[2])
    assert b'"hands":3' in next(other)  # another seat's link follows on


def test_a_revoke_whose_message_is_lost_ends_the_stream_at_the_next_change_or_heartbeat(
    table: dict, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    settings.LIVE_STREAM_SECONDS = 2
    settings.REDIS_URL = None
    session, scorer = table["session"], table["scorer"]
    key, link = seat_link_issue(actor=scorer, session_id=session.pk, seat=1)
    seat = _stream_of(Client().get(f"/live/seat/{key}/"))
    assert next(seat) == b'event: ping\ndata: {"every": 200}\n\n'  # the heartbeat (issue 38, item 8)
    type(link).objects.filter(pk=link.pk).update(revoked_at=timezone.now())  # revoked, no message sent
    with django_capture_on_commit_callbacks(execute=True):
        hand_record(actor=scorer, session_id=session.pk, hand=AMERICAN_HANDS[2])
    assert list(seat) == []


def test_a_seat_link_page_has_its_seat_only(table: dict) -> None:
    key, _ = seat_link_issue(actor=table["scorer"], session_id=table["session"].pk, seat=3)
    page = Client().get(f"/s/{key}/")
    assert page.status_code == 200 and "You follow as Dan" in page.content.decode()
    config = json.loads(page.content.decode().split('id="follow-config" type="application/json">')[1].split("<")[0])
    assert config["seat"] == 3 and config["confirm"] == f"/api/v1/seat/{key}/hands/{{n}}/confirm/"
    assert Client().get(f"/s/{key}/rows/").status_code == 200
    assert Client().get("/s/not-a-key/").status_code == 404


def test_the_join_page_shows_a_qr_code_and_issues_seat_links(table: dict) -> None:
    session = table["session"]
    scorer = login(table["scorer"])
    page = scorer.get(f"/sessions/{session.pk}/join/")
    assert page.status_code == 200 and b"<svg" in page.content and f"/t/{session.pk}/".encode() in page.content
    issued = scorer.post(f"/sessions/{session.pk}/join/", {"action": "issue", "seat": "2"}, follow=True)
    assert issued.status_code == 200 and b'data-seat="2"' in issued.content and b"Cleo" in issued.content
    player = login(table["users"][0])
    assert player.post(f"/sessions/{session.pk}/join/", {"action": "issue", "seat": "0"}).status_code == 403


def test_the_board_shows_every_open_table(table: dict, admin: Any, club: Club) -> None:
    other = open_session(table["scorer"], club, list(Player.objects.filter(club=club).order_by("pk")[:4]))
    deal_check(actor=table["users"][1], session_id=table["session"].pk, number=2, state="disputed", reason="no")
    page = login(table["users"][0]).get(f"/clubs/{club.pk}/board/")
    text = page.content.decode()
    assert page.status_code == 200
    assert f"American · table #{table['session'].pk}" in text and f"American · table #{other.pk}" in text
    assert "deal 2 of 12" in text and "1 dispute" in text
    links = login(admin).post(f"/clubs/{club.pk}/board/links/", {"action": "issue", "label": "wall"})
    assert links.status_code == 200 and b'id="issued-link"' in links.content
    assert login(table["users"][0]).get(f"/clubs/{club.pk}/board/links/").status_code == 403


def test_the_close_page_lists_open_disputes_for_the_treasurer(table: dict, admin: Any, club: Club) -> None:
    session = table["session"]
    deal_check(actor=table["users"][2], session_id=session.pk, number=1, state="disputed", reason="8 tricks")
    treasurer = member(club, admin, "treasurer", Role.TREASURER)
    client = login(treasurer)
    page = client.get(f"/sessions/{session.pk}/settlement/").content.decode()
    assert "Deal 1: Cleo says “8 tricks”" in page and 'value="overruled"' in page
    refused = client.post(
        f"/sessions/{session.pk}/settlement/",
        {"action": "close", "confirm": "yes", "version": str(session.version)},
        follow=True,
    )
    assert fresh(session).status == "open" and "disputed" in refused.content.decode()
    settled = client.post(
        f"/sessions/{session.pk}/disputes/", {"number": "1", "seat": "2", "outcome": "resolved"}, follow=True
    )
    assert "resolved by treasurer" in settled.content.decode()
    client.post(
        f"/sessions/{session.pk}/settlement/", {"action": "close", "confirm": "yes", "version": str(session.version)}
    )
    assert fresh(session).status == "closed"
