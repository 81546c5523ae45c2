"""The live channel (issue 25): "this session changed", told to every phone that follows it.

A write that changes what a follower sees (a deal recorded, amended or undone, a close, a reopen, a
seat's ✓ or dispute, a dispute settled) calls `announce(session)` inside its transaction; once the
transaction commits, a small `Change` (the session's version and checks version, its number of deals,
its status) is published on the session's channel and on its club's (the room board). The followers'
server-sent-event streams (`ledger/web/live.py`) relay it, with the data below when it carries some.

Two brokers, one interface:
- with `REDIS_URL` (production: several ASGI workers, one Redis already there for Celery), Redis
  pub/sub, so a deal recorded through one worker reaches streams held by every other;
- without it (the embedded defaults, `bin/serve`: one process), an in-process broker.

A lost message costs nothing but time: every stream starts with the current state, and the page
falls back to a conditional GET of the session's version (ETag, 304) while its stream is down.
Publishing never fails a write: a broker that is down is logged and the followers catch up on their
next read.

A revoked seat or board link closes its open streams (issue 39, item 9): the revoke publishes `CLOSE`
on the link's own channel, which only the streams opened through that link listen to; and since a
message can be lost, each such stream checks its link again before every change it relays and at
every heartbeat.

A change carries data (issue 38 item 12, issue 40 item 6), the way Zulip's `send_event_on_commit` does:
`announce(session, moved=..., deals=...)` takes, inside the write's transaction, what a follower shows of it
(the changed deals, their seats' words, the totals, the pools, the next deal: `live_data`) and publishes
it with the tag the change follows (`prev`). A stream renders it for its page (`ledger/web/live.py`), so
a page one change behind applies it with no read; a page that missed one (its tag is not `prev`) reads
once, as before. A change too big to carry (more than `MAX_ROWS` deals, a close) carries none.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction

if TYPE_CHECKING:
    from django.db.models import QuerySet

log = logging.getLogger(__name__)

PREFIX = "clubscore:live:"
# What a listener yields first, once it is subscribed: a stream reads the state it opens with only then,
# so that no change can fall between that read and the subscription.
SUBSCRIBED = ""


def session_channel(session_id: int) -> str:
    return f"{PREFIX}session:{session_id}"


def club_channel(club_id: int) -> str:
    return f"{PREFIX}club:{club_id}"


def link_channel(kind: str, link_id: int) -> str:
    """A seat link's (`kind` "seat") or board link's ("board") own channel: told only its revoke."""
    return f"{PREFIX}{kind}-link:{link_id}"


# What a link's channel is told when the link is revoked: its streams end.
CLOSE = "close"


# A change carries at most this many deals' rows (an amend of deal 1 at deal 32 rewrites 32): more, and
# it carries none and the pages read (docs/decisions.md, "The live channel carries the change").
MAX_ROWS = 12


@dataclass(frozen=True)
class Change:
    """What a follower needs to know that it is behind, and by how much; and, when it can be carried,
    what changed (`data`), which a page one change behind (its tag is `prev`) applies with no read."""

    session: int
    club: int
    version: int
    checks: int
    hands: int
    status: str
    prev: str | None = None
    data: dict[str, Any] | None = field(default=None, compare=False)

    @property
    def tag(self) -> str:
        """The session's live tag: its version and its checks' version (`"12.3"`), the stream's event id
        and the pages' ETag."""
        return live_tag(self.version, self.checks)

    def json(self) -> str:
        # A shallow dict, not `asdict`: `data` goes straight to JSON, so asdict's deep copy of every row
        # was wasted work (6 % of a recorded hand's CPU in bench/inprocess.py's profile, 2026-12-07).
        body = {**{f.name: getattr(self, f.name) for f in fields(self)}, "tag": self.tag}
        if self.prev is None:
            del body["prev"]
        if self.data is None:
            del body["data"]
        return json.dumps(body, separators=(",", ":"))


def live_tag(version: int, checks: int) -> str:
    return f"{version}.{checks}"


def change_of(session: Any, prev: str | None = None, data: dict[str, Any] | None = None) -> Change:
    return Change(
        session=session.pk,
        club=session.club_id,
        version=session.version,
        checks=session.checks_version,
        hands=session.hands_count,
        status=session.status,
        prev=prev,
        data=data,
    )


HAND = "hand"  # a deal recorded, amended or undone, a close, a reopen: the session's version moved
CHECK = "check"  # a seat's ✓ or dispute, a dispute settled: its checks' version moved


def announce(session: Any, *, moved: str | None = None, deals: Iterable[int] = (), known: Known | None = None) -> None:
    """Publish the session's change once the current transaction commits (never for a rolled-back write).

    `moved` says which half of the tag the write moved by one (`HAND`, `CHECK`), so the change names the
    tag it follows; `deals` the deals whose rows changed (a deal recorded, the deals from an amended one
    on, the deal a seat's word is on). Without `moved` (a new table, a close, a reopen) the change
    carries nothing and the pages read. The data is read here, inside the write's transaction, so it is
    the write's own state; or, for what the write already holds (`known`), taken from it."""
    prev = None
    if moved == HAND:
        prev = live_tag(session.version - 1, session.checks_version)
    elif moved == CHECK:
        prev = live_tag(session.version, session.checks_version - 1)
    data = live_data(session, list(deals), known) if prev is not None else None
    change = change_of(session, prev, data)
    transaction.on_commit(lambda: publish(change))


def announce_night(night: Any) -> None:
    """Tell the club's room boards that its night moved (a check-in, a cut-in) once the write commits:
    a tag of its own, so a board reads its tables again (the boards are the club channel's only readers)."""
    tag = f"night:{night.pk}:{time.time_ns()}"
    channel = club_channel(night.club_id)

    def send() -> None:
        try:
            broker().publish(channel, json.dumps({"tag": tag}))
        except Exception:  # the write is done; the boards catch up by their next read
            log.warning("live: could not publish on %s", channel, exc_info=True)

    transaction.on_commit(send)


@dataclass(frozen=True)
class Known:
    """What a write already holds of `live_data`'s reads, under the session's lock, so they are not read
    again (the recorded hand, the hot path: bench/README.md "live data from the write"). Each left None
    is read. `hands`: every hand's raw and settled JSON, deal 1 on, at least up to the last changed
    deal. `checks`: the changed deals' live checks, by deal. `names`: the seats' player names, seat 0
    on. `disputes`: the number of open disputes. tests/web/test_live_data.py checks that what a recorded
    hand announces equals `live_data` read afresh."""

    hands: list[tuple[Any, Any]] | None = None
    checks: dict[int, list[dict[str, Any]]] | None = None
    names: list[str] | None = None
    disputes: int | None = None


def seat_names(session_id: Any) -> QuerySet[Any, Any]:
    """The seats' player names, seat 0 on (a `values_list`, flat)."""
    from .models import Seat

    return Seat.objects.filter(session_id=session_id).order_by("seat").values_list("player__name", flat=True)


def open_disputes(session_id: Any) -> QuerySet[Any, Any]:
    """The open disputes' ids (a `values_list`, flat): disputed, not cleared, not settled."""
    from .models import DealCheck

    return DealCheck.objects.filter(
        session_id=session_id, state="disputed", cleared_at__isnull=True, outcome=""
    ).values_list("id", flat=True)


def live_data(session: Any, deals: list[int], known: Known | None = None) -> dict[str, Any] | None:
    """What a follower's page shows of the change: the `deals` (each as stored: the hand as
    recorded, what the replay settled, its seats' live words), the totals, the pools, the next deal, the
    open disputes, and of the hands before them deal 1 and the misdeals (a deal's words say belle, its
    deal of the game and a share forfeited by a misdeal's dealer). None for a closed session or more
    than `MAX_ROWS` deals: the pages read then. What `known` holds is taken from it, not read."""
    from .models import DealCheck, Hand

    if session.status != "open":
        return None
    known = known or Known()
    numbers = sorted(n for n in set(deals) if 1 <= n <= session.hands_count)
    if len(numbers) > MAX_ROWS:
        return None
    rows: list[dict[str, Any]] = []
    earlier: dict[int, dict[str, Any]] = {}  # deal 1 and the misdeals before the rows: their words need them
    if numbers:
        if known.hands is not None:
            found = {n: hand for n, hand in enumerate(known.hands[: numbers[-1]], 1)}
        else:
            found = {
                number: (raw, settled)
                for number, raw, settled in Hand.objects.filter(session_id=session.pk, number__lte=numbers[-1])
                .order_by("number")
                .values_list("number", "raw", "settled")
            }
        earlier = {
            n: {"raw": raw, "dealer": settled["dealer"]}
            for n, (raw, settled) in found.items()
            if n not in numbers and (n == 1 or raw.get("bid") == "misdeal")
        }
        checks: dict[int, list[dict[str, Any]]] = {}
        if known.checks is not None:
            checks = known.checks
        else:
            for number, seat, state, reason, outcome in (
                DealCheck.objects.filter(session_id=session.pk, number__in=numbers, cleared_at__isnull=True)
                .order_by("number", "seat", "id")
                .values_list("number", "seat", "state", "reason", "outcome")
            ):
                checks.setdefault(number, []).append(
                    {"seat": seat, "state": state, "reason": reason, "outcome": outcome}
                )
        rows = [
            {"number": n, "raw": found[n][0], "settled": found[n][1], "checks": checks.get(n, [])}
            for n in numbers
            if n in found
        ]
    names = known.names if known.names is not None else list(seat_names(session.pk))
    disputes = known.disputes if known.disputes is not None else open_disputes(session.pk).count()
    return {
        "variant": session.variant,
        "rules": session.rules or {},
        "names": names,
        "balances": list(session.balances),
        "pools": list(session.pools),
        "next": session.next_deal,
        "first_dealer": session.first_dealer,
        "earlier": {str(n): e for n, e in earlier.items()},
        "rows": rows,
        "disputes": disputes,
    }


def announce_revoked(channel: str) -> None:
    """Close the streams of a link once its revoke commits."""
    transaction.on_commit(lambda: _publish_close(channel))


def _publish_close(channel: str) -> None:
    try:
        broker().publish(channel, CLOSE)
    except Exception:  # the revoke is done; the streams see it at their next heartbeat
        log.warning("live: could not close %s", channel, exc_info=True)


def publish(change: Change) -> None:
    channels = [session_channel(change.session), club_channel(change.club)]
    try:
        broker().publish_all(channels, change.json())
    except Exception:  # the write is done; followers catch up by their next read
        log.warning("live: could not publish on %s", channels, exc_info=True)


# --- the brokers ------------------------------------------------------------------------------------


class LocalBroker:
    """One process's subscribers, by channel: a callback each (a queue's put, thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[Callable[[str], None]]] = {}

    def publish(self, channel: str, message: str) -> None:
        with self._lock:
            callbacks = list(self._subscribers.get(channel, ()))
        for callback in callbacks:
            callback(message)

    def publish_all(self, channels: list[str], message: str) -> None:
        for channel in channels:
            self.publish(channel, message)

    def subscribe(self, channels: list[str], callback: Callable[[str], None]) -> Callable[[], None]:
        with self._lock:
            for channel in channels:
                self._subscribers.setdefault(channel, set()).add(callback)

        def unsubscribe() -> None:
            with self._lock:
                for channel in channels:
                    found = self._subscribers.get(channel)
                    if found is not None:
                        found.discard(callback)
                        if not found:
                            del self._subscribers[channel]

        return unsubscribe

    def listen(self, channels: list[str], timeout: float) -> Iterator[str | None]:
        inbox: queue.SimpleQueue[str] = queue.SimpleQueue()
        unsubscribe = self.subscribe(channels, inbox.put)
        try:
            yield SUBSCRIBED
            while True:
                try:
                    yield inbox.get(timeout=timeout)
                except queue.Empty:
                    yield None
        finally:
            unsubscribe()

    async def alisten(self, channels: list[str], timeout: float) -> AsyncIterator[str | None]:
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[str] = asyncio.Queue()

        def deliver(message: str) -> None:
            loop.call_soon_threadsafe(inbox.put_nowait, message)

        unsubscribe = self.subscribe(channels, deliver)
        try:
            yield SUBSCRIBED
            while True:
                # asyncio.timeout, not wait_for: on Python 3.11 (Debian 12's) a wait_for cancelled just as a
                # message comes returns it and drops the cancel (CPython gh-86296), and a stream whose
                # follower left would go on with nobody reading (bench/phones.py lost its pages so).
                try:
                    async with asyncio.timeout(timeout):
                        message = await inbox.get()
                except TimeoutError:
                    message = None
                yield message
        finally:
            unsubscribe()


class RedisBroker:
    """Redis pub/sub: a stream holds its own subscription (one connection per follower's stream)."""

    def __init__(self, url: str) -> None:
        import redis

        self.url = url
        self._client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)

    def publish(self, channel: str, message: str) -> None:
        self._client.publish(channel, message)

    def publish_all(self, channels: list[str], message: str) -> None:
        """One round trip for the session's and the club's channel (a pipeline, not a transaction): a
        recorded hand is the hot path, and two PUBLISHes cost it a round trip to Redis more."""
        pipe = self._client.pipeline(transaction=False)
        for channel in channels:
            pipe.publish(channel, message)
        pipe.execute()

    def listen(self, channels: list[str], timeout: float) -> Iterator[str | None]:
        import redis

        client = redis.Redis.from_url(self.url, socket_connect_timeout=2, health_check_interval=30)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(*channels)
        try:
            yield SUBSCRIBED
            while True:
                message = pubsub.get_message(timeout=timeout)
                yield _text(message["data"]) if message else None
        finally:
            pubsub.close()
            client.close()

    async def alisten(self, channels: list[str], timeout: float) -> AsyncIterator[str | None]:
        from redis import asyncio as aioredis

        client = aioredis.Redis.from_url(self.url, socket_connect_timeout=2, health_check_interval=30)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(*channels)
        try:
            yield SUBSCRIBED
            while True:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout)
                yield _text(message["data"]) if message else None
        finally:
            await pubsub.aclose()
            await client.aclose()


def _text(data: Any) -> str:
    return data.decode() if isinstance(data, bytes) else str(data)


_local = LocalBroker()
_redis: dict[str, RedisBroker] = {}


def broker() -> LocalBroker | RedisBroker:
    """Redis pub/sub when `REDIS_URL` is set, else this process's own broker."""
    url = settings.REDIS_URL
    if not url:
        return _local
    if url not in _redis:
        _redis[url] = RedisBroker(url)
    return _redis[url]
