"""The live channel's streams (issue 25): server-sent events of "this session changed" (`ledger.live`).

`GET /live/sessions/<id>/` (a member, by his session login), `/live/seat/<key>/` (a seat link),
`/live/clubs/<id>/` and `/live/board/<key>/` (the room board). Each stream opens with the current
state (event `change`, its id the live tag) so a phone that reconnects catches up at once, then relays
every change published for it, an event `ping` as a heartbeat (its data the heartbeat's period in ms:
the page's watchdog, static/clubscore/live.js, takes a stream silent for two periods for a stalled one,
which a comment line would not let it see), and ends after `LIVE_STREAM_SECONDS`
(the browser's EventSource reconnects by itself, `retry` ms later, and the link or membership is checked
again). A stream opened through a seat or board link ends as soon as the link is revoked (issue 39,
item 9): the revoke's `CLOSE` on the link's channel, and the link checked again before each change
relayed and at each heartbeat, in case that message was lost. Not JSON, so not under /api/ (whose
every answer is JSON).

Under ASGI (production: gunicorn's uvicorn workers) the stream is an async iterator, so a waiting
phone holds no thread; under WSGI (`bin/serve`, the tests' live server) a sync one, in the request's
thread: Django buffers a sync iterator whole under ASGI and an async one whole under WSGI.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.views.decorators.http import require_GET

from ledger import selectors
from ledger.exceptions import NotFound
from ledger.live import CLOSE, SUBSCRIBED, broker, change_of, club_channel, link_channel, session_channel
from ledger.models import Session


def sse(event: str, data: str, event_id: str | None = None) -> bytes:
    lines = [f"id: {event_id}"] if event_id is not None else []
    lines += [f"event: {event}", *(f"data: {line}" for line in data.splitlines())]
    return ("\n".join(lines) + "\n\n").encode()


def heartbeat() -> bytes:
    """A heartbeat the page's script can see (EventSource hides comment lines): `{"every": ms}`."""
    return sse("ping", json.dumps({"every": round(settings.LIVE_HEARTBEAT_SECONDS * 1000)}))


First = Callable[[], list[bytes]]  # the events a stream opens with: the state now, read once subscribed
Valid = Callable[[], bool]  # whether the link the stream was opened with still holds


def _always() -> bool:
    return True


def _sync(first: First, channels: list[str], valid: Valid) -> Iterator[bytes]:
    yield f"retry: {settings.LIVE_RETRY_MS}\n\n".encode()
    deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
    for message in broker().listen(channels, settings.LIVE_HEARTBEAT_SECONDS):
        if message == SUBSCRIBED:
            yield from first()
            continue
        if message == CLOSE or not valid():
            return
        yield heartbeat() if message is None else _relay(message)
        if time.monotonic() >= deadline:
            return


async def _async(first: First, channels: list[str], valid: Valid) -> AsyncIterator[bytes]:
    yield f"retry: {settings.LIVE_RETRY_MS}\n\n".encode()
    deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
    async for message in broker().alisten(channels, settings.LIVE_HEARTBEAT_SECONDS):
        if message == SUBSCRIBED:
            for chunk in await sync_to_async(first)():
                yield chunk
            continue
        if message == CLOSE or (valid is not _always and not await sync_to_async(valid)()):
            return
        yield heartbeat() if message is None else _relay(message)
        if time.monotonic() >= deadline:
            return


def _relay(message: str) -> bytes:
    try:
        tag = str(json.loads(message)["tag"])
    except (ValueError, KeyError, TypeError):
        tag = None
    return sse("change", message, tag)


def stream(request: HttpRequest, channels: list[str], first: First, valid: Valid = _always) -> StreamingHttpResponse:
    body = _async(first, channels, valid) if isinstance(request, ASGIRequest) else _sync(first, channels, valid)
    response = StreamingHttpResponse(body, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx-style proxies: never buffer the stream
    return response


def _gone() -> HttpResponse:
    return HttpResponse("not found\n", status=404, content_type="text/plain; charset=utf-8")


@require_GET
def session_events(request: HttpRequest, session_id: int) -> HttpResponseBase:
    try:
        found = selectors.session_get(user=request.user, session_id=session_id)
    except NotFound:
        return _gone()
    return stream(request, [session_channel(found.pk)], lambda: session_first(found.pk))


@require_GET
def seat_events(request: HttpRequest, key: str) -> HttpResponseBase:
    try:
        link = selectors.seat_link_get(key=key)
    except NotFound:
        return _gone()
    channels = [session_channel(link.session_id), link_channel("seat", link.pk)]
    return stream(
        request, channels, lambda: session_first(link.session_id), lambda: _holds(selectors.seat_link_get, key)
    )


def session_first(session_id: int) -> list[bytes]:
    change = change_of(Session.objects.get(pk=session_id))
    return [sse("change", change.json(), change.tag)]


def board_first(club_id: int) -> list[bytes]:
    from ledger.models import Club

    from .table import room_tag

    tag, _sessions, _tonight = room_tag(Club.objects.get(pk=club_id))
    return [sse("board", json.dumps({"tag": tag}), None)]


@require_GET
def club_events(request: HttpRequest, club_id: int) -> HttpResponseBase:
    try:
        selectors.club_role(user=request.user, club_id=club_id)
    except NotFound:
        return _gone()
    return stream(request, [club_channel(club_id)], lambda: board_first(club_id))


@require_GET
def board_events(request: HttpRequest, key: str) -> HttpResponseBase:
    try:
        link = selectors.board_link_get(key=key)
    except NotFound:
        return _gone()
    channels = [club_channel(link.club_id), link_channel("board", link.pk)]
    return stream(request, channels, lambda: board_first(link.club_id), lambda: _holds(selectors.board_link_get, key))


def _holds(get: Callable[..., object], key: str) -> bool:
    """Whether the link of this key is still live (not revoked; a seat link's session not long closed)."""
    try:
        get(key=key)
    except NotFound:
        return False
    return True
