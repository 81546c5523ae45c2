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

A change that carries data (`ledger.live.announce`) is relayed with its page's fragment rendered from
it (`html`: the follow page's changed deals and the table now, the sheet's changed rows and totals, the
board's table), in the stream's language and for its seat, from the same templates as the pages' reads:
the page one change behind swaps it in with no read (static/clubscore/live.js). A stream says which
page it feeds: `?view=follow` or `?view=sheet` on a session's stream (none: the change alone, as the
scorer's page wants), the follow page on a seat link's, the board on a club's or board link's.

Under ASGI (production: gunicorn's uvicorn workers) the stream is an async iterator, so a waiting
phone holds no thread; under WSGI (`bin/serve`, the tests' live server) a sync one, in the request's
thread: Django buffers a sync iterator whole under ASGI and an async one whole under WSGI.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.views.decorators.http import require_GET

from ledger import selectors
from ledger.exceptions import NotFound
from ledger.live import CLOSE, SUBSCRIBED, broker, change_of, club_channel, link_channel, session_channel
from ledger.models import Session

from . import catalog


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


# The most a relayed fragment may weigh; a bigger one is left out and the page reads (docs/decisions.md).
MAX_FRAGMENT_BYTES = 24_000
VIEWS = ("follow", "sheet", "board")


@dataclass(frozen=True)
class Viewer:
    """The page a stream feeds: which fragment (`view`: "follow", "sheet", "board", or "" for none), in
    which language, for which seat (the follow page's ✓ buttons)."""

    view: str = ""
    lang: str = settings.LANGUAGE_CODE
    seat: int | None = None


def _viewer(request: HttpRequest, view: str | None = None, seat: int | None = None) -> Viewer:
    asked = view if view is not None else request.GET.get("view", "")
    return Viewer(view=asked if asked in VIEWS else "", lang=translation.get_language() or "en", seat=seat)


def release() -> None:
    """Hand this thread's database connection back (to the pool, in production) between a stream's
    reads. A stream lasts minutes and reads for milliseconds: held for its life, each phone following
    kept one of its web server's connections (a pool of 8 per server), and the ninth phone's reads, and
    every scorer's write, waited DB_POOL_TIMEOUT for one and got a 503 (bench/live.py --dense, issue 38).
    Inside a transaction (a test's) the connection is the transaction's and stays."""
    if not connection.in_atomic_block:
        connection.close()


def _released(read: Callable[[], Any]) -> Callable[[], Any]:
    def run() -> Any:
        try:
            return read()
        finally:
            release()

    return run


def _sync(first: First, channels: list[str], valid: Valid, viewer: Viewer) -> Iterator[bytes]:
    release()  # a middleware may have read after the view: nothing is held while the stream waits
    yield f"retry: {settings.LIVE_RETRY_MS}\n\n".encode()
    deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
    for message in broker().listen(channels, settings.LIVE_HEARTBEAT_SECONDS):
        if message == SUBSCRIBED:
            yield from first()
            continue
        if message == CLOSE or not valid():
            return
        yield heartbeat() if message is None else _relay(message, viewer)
        if time.monotonic() >= deadline:
            return


async def _async(first: First, channels: list[str], valid: Valid, viewer: Viewer) -> AsyncIterator[bytes]:
    await sync_to_async(release)()  # in the request's own thread, whose connection the view used
    yield f"retry: {settings.LIVE_RETRY_MS}\n\n".encode()
    deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
    async for message in broker().alisten(channels, settings.LIVE_HEARTBEAT_SECONDS):
        if message == SUBSCRIBED:
            for chunk in await sync_to_async(first)():
                yield chunk
            continue
        if message == CLOSE or (valid is not _always and not await sync_to_async(valid)()):
            return
        yield heartbeat() if message is None else _relay(message, viewer)
        if time.monotonic() >= deadline:
            return


@lru_cache(maxsize=256)
def _relay(message: str, viewer: Viewer) -> bytes:
    """The change as this stream's page takes it: its data replaced by the page's fragment rendered from
    it. Kept for the streams that follow: each page (a view, a language, a seat) is rendered once per
    change and process, however many phones follow."""
    try:
        body = json.loads(message)
        tag = str(body["tag"])
    except (ValueError, KeyError, TypeError):
        return sse("change", message, None)
    data = body.pop("data", None)
    if data is not None and viewer.view:
        html = fragment(body, data, viewer)
        if len(html.encode()) <= MAX_FRAGMENT_BYTES:
            body["html"] = html
    return sse("change", json.dumps(body, separators=(",", ":"), ensure_ascii=False), tag)


def fragment(change: dict[str, Any], data: dict[str, Any], viewer: Viewer) -> str:
    """The page's fragment for a change's data, from the templates its reads render (so a deal's words,
    whatever they name, are the same live as read): only the deals the change carries."""
    from .reads import sheet_rows
    from .table import follow_deals, follow_state

    session = Session(
        pk=change["session"],
        club_id=change["club"],
        variant=data["variant"],
        rules=data["rules"],
        status=change["status"],
        version=change["version"],
        checks_version=change["checks"],
        hands_count=change["hands"],
        balances=data["balances"],
        pools=data["pools"],
        next_deal=data["next"],
        first_dealer=data["first_dealer"],
    )
    if viewer.view == "board":
        return ""  # the board reads (its panels say the last deal's events and tonight's tables)
    names: list[str] = data["names"]
    last = max((r["number"] for r in data["rows"]), default=0)
    raws: dict[int, Any] = {n: {} for n in range(1, last + 1)}  # the other hands: deals of the game
    dealers: dict[int, int] = {}
    for number, hand in data["earlier"].items():
        raws[int(number)] = hand["raw"]
        dealers[int(number)] = hand["dealer"]
    for row in data["rows"]:
        raws[row["number"]] = row["raw"]
        dealers[row["number"]] = row["settled"]["dealer"]
    settlement = {"hands": [r["settled"] for r in data["rows"]]}
    with translation.override(viewer.lang):
        rows = sheet_rows(session=session, names=names, settlement=settlement, raws=raws, dealers=dealers)
        if viewer.view == "sheet":
            context = {
                "session": session,
                "names": names,
                "rows": rows,
                "deal_count": change["hands"],
                "settlement": {"balances": data["balances"], "pools": data["pools"]},
                "pool_label": catalog.pool_label(session.variant),
            }
            return render_to_string("web/_sheet_table.html", context)
        checks = {r["number"]: {c["seat"]: c for c in r["checks"]} for r in data["rows"]}
        deals = follow_deals(session, rows, checks, names, viewer.seat)
        return render_to_string("web/_follow_rows.html", follow_state(session, names, deals, viewer.seat))


def stream(
    request: HttpRequest, channels: list[str], first: First, valid: Valid = _always, viewer: Viewer | None = None
) -> StreamingHttpResponse:
    viewer = viewer or _viewer(request)
    first, valid = _released(first), (valid if valid is _always else _released(valid))
    body = (
        _async(first, channels, valid, viewer)
        if isinstance(request, ASGIRequest)
        else _sync(first, channels, valid, viewer)
    )
    release()  # what the view read (the login, the link) is read: the stream holds no connection
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
    seat = selectors.seat_of(session=found, user=request.user) if request.GET.get("view") == "follow" else None
    viewer = _viewer(request, seat=seat)
    return stream(request, [session_channel(found.pk)], lambda: session_first(found.pk), viewer=viewer)


@require_GET
def seat_events(request: HttpRequest, key: str) -> HttpResponseBase:
    try:
        link = selectors.seat_link_get(key=key)
    except NotFound:
        return _gone()
    channels = [session_channel(link.session_id), link_channel("seat", link.pk)]
    return stream(
        request,
        channels,
        lambda: session_first(link.session_id),
        lambda: _holds(selectors.seat_link_get, key),
        _viewer(request, "follow", link.seat),
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
    return stream(request, [club_channel(club_id)], lambda: board_first(club_id), viewer=_viewer(request, "board"))


@require_GET
def board_events(request: HttpRequest, key: str) -> HttpResponseBase:
    try:
        link = selectors.board_link_get(key=key)
    except NotFound:
        return _gone()
    channels = [club_channel(link.club_id), link_channel("board", link.pk)]
    return stream(
        request,
        channels,
        lambda: board_first(link.club_id),
        lambda: _holds(selectors.board_link_get, key),
        _viewer(request, "board"),
    )


def _holds(get: Callable[..., object], key: str) -> bool:
    """Whether the link of this key is still live (not revoked; a seat link's session not long closed)."""
    try:
        get(key=key)
    except NotFound:
        return False
    return True
