"""`Idempotency-Key` (`api.md`, "Recording a hand"): the key is checked before the body is validated.

Same key and body, first request finished: its answer again (status, body, ETag). Still running: 409
`idempotency_in_flight`. Another body: 422 `idempotency_key_reused`. Answers below 500 are kept, errors
included; a 5xx answer, or an exception, releases the key. A key belongs to (user, method, path).

Two ways to keep a key: `idempotent` claims it in a transaction of its own before the write and keeps
the answer after it (a payment); `idempotent_write` with `KeyKept` leaves it to the write, which holds
the key, reads its record and keeps the answer in its own transaction (a recorded hand, the hot path:
two round trips and a commit fewer).

This is HTTP's part only: the stored answers (`IdempotencyRecord`) and their ETags. That a hand is
recorded once is the domain's (`services.hand_record` finds a hand by its client key), so a request
that died after its claim (a worker killed) blocks its key only `IDEMPOTENCY_IN_FLIGHT_SECONDS`: the
retry after that goes through, and finds the hand (or payment, `money.services.payment_record`) if
the first attempt had recorded it. A write that is not idempotent in the domain would pass
`takeover_seconds` long enough that no live request is taken over.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone
from rest_framework.exceptions import ParseError, UnsupportedMediaType
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import roundtrips
from ledger.i18n import refusals
from ledger.models import IdempotencyRecord

from .common import actor
from .errors import exception_handler
from .exceptions import IdempotencyConflict, IdempotencyKeyRequired

logger = logging.getLogger(__name__)
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)


@dataclass(frozen=True)
class IdempotencyClaim:
    """A claimed key: its request answers it with `idempotency_finish` (or `idempotency_release`)."""

    record_id: int


@dataclass(frozen=True)
class IdempotencyOutcome:
    """What `idempotency_begin` found: a claim to go on with, or an answer to give at once."""

    claim: IdempotencyClaim | None = None
    replay: IdempotencyRecord | None = None
    conflict: str | None = None  # "idempotency_in_flight" or "idempotency_key_reused"


# The handler gets the claim and answers; its answer is kept for the key's replays.
Handler = Callable[[IdempotencyClaim], Response]


def idempotency_key(request: Request, refusal: Any = refusals.IDEMPOTENCY_KEY_REQUIRED) -> uuid.UUID:
    """The request's Idempotency-Key; `refusal` says what the write needs it for (a hand, a payment)."""
    value = request.headers.get("Idempotency-Key", "").strip()
    if not _UUID.fullmatch(value):
        raise IdempotencyKeyRequired(str(refusal))
    return uuid.UUID(value)


def body_hash(request: Request) -> str:
    """The body compared as parsed JSON (key order and spacing do not count); as bytes if not JSON."""
    raw = request.body
    try:
        canonical = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        data = b"json:" + canonical.encode()
    except (ValueError, RecursionError):
        data = b"bytes:" + raw
    return hashlib.sha256(data).hexdigest()


def idempotent(
    request: Request,
    view: APIView,
    key: uuid.UUID,
    handler: Handler,
    takeover_seconds: float | None = None,
    kept: Callable[[Any], Any] | None = None,
) -> Response:
    """`kept`: what of the answer's body is kept for the replays, when not all of it may be (a cut-in's
    seat link keys are shown once and kept only hashed)."""
    outcome = idempotency_begin(
        user=actor(request),
        method=str(request.method),
        path=request.path,
        key=key,
        body_hash=body_hash(request),
        takeover_seconds=takeover_seconds,
    )
    if outcome.replay is not None:
        return _replay(outcome.replay)
    if outcome.claim is None:
        raise IdempotencyConflict(outcome.conflict or "idempotency_in_flight")
    claim = outcome.claim
    try:
        response = handler(claim)
    except Exception as exc:
        refusal = exception_handler(exc, view.get_exception_handler_context())
        if refusal is None:
            idempotency_release(claim=claim)
            raise
        response = refusal
    etag: Any = response.headers.get("ETag", "")
    try:
        body = kept(response.data) if kept is not None and response.status_code < 300 else response.data
        idempotency_finish(claim=claim, status=response.status_code, body=body, etag=etag)
    except DatabaseError:
        # The write itself committed: its answer stands. The key stays in flight, and a retry
        # after the takeover finds what the write did (the domain is idempotent by the key).
        logger.warning("the answer to Idempotency-Key %s was not stored", key, exc_info=True)
    return response


# --- a key kept with its write ----------------------------------------------------------------------


class Replayed(Exception):
    """The key's first answer, found in the write's transaction: given again, nothing written."""

    def __init__(self, record: IdempotencyRecord) -> None:
        super().__init__("replayed")
        self.record = record


_RECORDS = roundtrips.Select(lambda user_id, key: IdempotencyRecord.objects.filter(user_id=user_id, key=key))


class KeyKept:
    """The Idempotency-Key of a write that keeps its answer in its own transaction (a recorded hand,
    `services.KeyKeeper`), instead of claiming the key in a transaction before it: the claim was a
    round trip and a commit of its own, a third of what a hand cost beyond the floor (bench/README.md
    "round 6"). While the write runs it holds an advisory lock named by the key (`hold()`, taken by
    `services.hand_record` before the session's lock, without waiting): a second request with the key is
    409 `idempotency_in_flight` at once, as api.md says (on SQLite, where writers queue anyway, it waits
    and replays the first answer). The key's record is read after the session's lock, so it sees the
    answer of a request that finished meanwhile, and is written, answer included, with the hand.

    `check_body()` runs once the key is judged (api.md: the key is checked before the body);
    `answer(hand)` renders the answer that is kept."""

    def __init__(
        self,
        request: Request,
        key: uuid.UUID,
        check_body: Callable[[], None],
        answer: Callable[[Any], Response],
    ) -> None:
        self.user = actor(request)
        self.method = str(request.method)
        self.path = request.path
        self.key = key
        self.body_hash = body_hash(request)
        self.check_body = check_body
        self.answer = answer
        self.now = timezone.now()
        self.taken: IdempotencyRecord | None = None  # an expired or abandoned record to write over
        self.kept: tuple[Any, Response] | None = None  # (the hand, its answer) once written

    def hold(self) -> int:
        """The advisory lock held while the write runs: a signed 64-bit number from the key, the user,
        method and path (a collision costs a needless 409, which the phone's retry gets past)."""
        digest = hashlib.blake2b(f"{self.user.pk} {self.method} {self.path} {self.key}".encode(), digest_size=8)
        return int.from_bytes(digest.digest(), "big", signed=True)

    def reads(self) -> list[roundtrips.Read]:
        return [(_RECORDS, {"user_id": self.user.pk, "key": self.key})]

    def judge(self, free: bool, rows: list[list[Any]], check_body: bool = True) -> None:
        if not free:
            raise IdempotencyConflict("idempotency_in_flight")  # its first request holds the key
        found = next((r for r in rows[0] if r.method == self.method and r.path == self.path), None)
        if found is not None:
            if found.created_at < self.now - timedelta(hours=settings.IDEMPOTENCY_KEEP_HOURS):
                self.taken = found  # past its keeping: claimed afresh
            elif found.body_hash != self.body_hash:
                raise IdempotencyConflict("idempotency_key_reused")
            elif found.state == IdempotencyRecord.State.DONE:
                raise Replayed(found)
            elif found.created_at <= self.now - timedelta(seconds=settings.IDEMPOTENCY_IN_FLIGHT_SECONDS):
                self.taken = found  # its request died (a claim of `idempotency_begin`'s)
            else:
                raise IdempotencyConflict("idempotency_in_flight")
        if check_body:
            self.check_body()

    def judge_unparsed(self) -> None:
        """A body that could not be parsed (DRF parses it lazily, before the write judges the key): the
        key is judged first all the same (api.md), from its stored record."""
        records = list(IdempotencyRecord.objects.filter(user_id=self.user.pk, key=self.key))
        self.judge(True, [records], check_body=False)

    def keep(self, hand: Any, writes: roundtrips.Together) -> None:
        response = self.answer(hand)
        values = self._values(response)
        if self.taken is not None:
            writes.update_row(IdempotencyRecord, self.taken.pk, **values)
        else:
            writes.insert(IdempotencyRecord(user=self.user, method=self.method, path=self.path, key=self.key, **values))
        self.kept = (hand, response)

    def store(self, response: Response) -> None:
        """Keep an answer the write did not keep (a refusal, a hand found by its key); a 5xx answer is not
        kept. On PostgreSQL it first waits for the key's hold: a write still running under the key keeps
        its own answer, and this one is then not kept (a refusal stored meanwhile would have made that
        write's INSERT fail, and its hand with it). A request that kept its answer first wins."""
        if response.status_code >= 500:
            return
        values = self._values(response)
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_xact_lock(%s)", [self.hold()])
            if self.taken is not None:
                IdempotencyRecord.objects.filter(pk=self.taken.pk).update(**values)
                return
            mine = {"user": self.user, "method": self.method, "path": self.path, "key": self.key}
            if IdempotencyRecord.objects.filter(**mine).exists():
                logger.info("Idempotency-Key %s: another request kept its answer first", self.key)
                return
            IdempotencyRecord.objects.create(**mine, **values)

    def _values(self, response: Response) -> dict[str, Any]:
        return {
            "body_hash": self.body_hash,
            "state": IdempotencyRecord.State.DONE,
            "status": response.status_code,
            "response": response.data,
            "etag": str(response.headers.get("ETag", "")),
            "created_at": self.now,
        }


def idempotent_write(request: Request, view: APIView, kept: KeyKept, write: Callable[[KeyKept], Response]) -> Response:
    """`idempotent` for a write that keeps the key itself (`KeyKept`): its answer, or the key's first one."""
    try:
        response = write(kept)
    except Replayed as replay:
        return _replay(replay.record)
    except IdempotencyConflict:
        raise
    except Exception as exc:
        if isinstance(exc, ParseError | UnsupportedMediaType):
            try:
                kept.judge_unparsed()
            except Replayed as replay:
                return _replay(replay.record)
        refusal = exception_handler(exc, view.get_exception_handler_context())
        if refusal is None:
            raise
        kept.store(refusal)
        return refusal
    if kept.kept is None or kept.kept[1] is not response:
        try:
            kept.store(response)
        except DatabaseError:  # the write committed: its answer stands (as in `idempotent`)
            logger.warning("the answer to Idempotency-Key %s was not stored", kept.key, exc_info=True)
    return response


def _replay(record: IdempotencyRecord) -> Response:
    return Response(record.response, status=record.status, headers={"ETag": record.etag} if record.etag else None)


# --- the store -------------------------------------------------------------------------------------


def _autocommit(statement: Callable[[], Any]) -> Any:
    """One statement, committed at once (no BEGIN and COMMIT round trips on the hot path). Inside a
    caller's transaction (tests) a savepoint keeps that transaction usable after an IntegrityError."""
    nested = transaction.get_connection().in_atomic_block
    try:
        if nested:
            with transaction.atomic():
                return statement()
        return statement()
    except IntegrityError:
        raise
    except DatabaseError:
        # Outside a transaction nothing else closes a lost connection before the request ends: close
        # it now, so the next statement of this process reconnects.
        transaction.get_connection().close_if_unusable_or_obsolete()
        raise


def idempotency_begin(
    *,
    user: User,
    method: str,
    path: str,
    key: uuid.UUID,
    body_hash: str,
    takeover_seconds: float | None = None,
) -> IdempotencyOutcome:
    """Claim the key for (user, method, path), or say why not: its stored answer, in flight, reused.

    A key is kept `IDEMPOTENCY_KEEP_HOURS` (at least 24); an older one is claimed afresh. A claim left
    in flight longer than `takeover_seconds` (default `IDEMPOTENCY_IN_FLIGHT_SECONDS`: its request
    died) is taken over.
    """
    now = timezone.now()
    takeover = settings.IDEMPOTENCY_IN_FLIGHT_SECONDS if takeover_seconds is None else takeover_seconds
    for _ in range(3):
        try:
            record = IdempotencyRecord(
                user=user, method=method, path=path, key=key, body_hash=body_hash, created_at=now
            )
            _autocommit(partial(roundtrips.insert_row_unflushed, record))  # no wait for the disk: see there
            return IdempotencyOutcome(claim=IdempotencyClaim(record.pk))
        except IntegrityError:
            pass
        found = IdempotencyRecord.objects.filter(user=user, method=method, path=path, key=key).first()
        if found is None:  # deleted meanwhile (a 5xx answer is not kept): try again
            continue
        if found.created_at < now - timedelta(hours=settings.IDEMPOTENCY_KEEP_HOURS):
            IdempotencyRecord.objects.filter(pk=found.pk, created_at=found.created_at).delete()
            continue
        if found.body_hash != body_hash:
            return IdempotencyOutcome(conflict="idempotency_key_reused")
        if found.state == IdempotencyRecord.State.DONE:
            return IdempotencyOutcome(replay=found)
        if found.created_at <= now - timedelta(seconds=takeover):
            taken = IdempotencyRecord.objects.filter(
                pk=found.pk, state=IdempotencyRecord.State.IN_FLIGHT, created_at=found.created_at
            ).update(created_at=now)
            if taken:
                return IdempotencyOutcome(claim=IdempotencyClaim(found.pk))
        return IdempotencyOutcome(conflict="idempotency_in_flight")
    return IdempotencyOutcome(conflict="idempotency_in_flight")


def idempotency_finish(*, claim: IdempotencyClaim, status: int, body: Any, etag: str = "") -> None:
    """Keep the answer for replays (one autocommitted UPDATE); a 5xx answer is not kept (the key is released)."""
    records = IdempotencyRecord.objects.filter(pk=claim.record_id)
    if status >= 500:
        _autocommit(records.delete)
    else:
        _autocommit(lambda: records.update(state=IdempotencyRecord.State.DONE, status=status, response=body, etag=etag))


def idempotency_release(*, claim: IdempotencyClaim) -> None:
    """Forget a claim whose request failed without an answer to keep."""
    _autocommit(IdempotencyRecord.objects.filter(pk=claim.record_id, state=IdempotencyRecord.State.IN_FLIGHT).delete)


def idempotency_purge(*, older_than_hours: int | None = None) -> int:
    """Delete the records past their keeping time; returns how many."""
    hours = older_than_hours if older_than_hours is not None else settings.IDEMPOTENCY_KEEP_HOURS
    with transaction.atomic(durable=True):
        deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=timezone.now() - timedelta(hours=hours)).delete()
    return deleted
