"""Idempotency-Keys (`api.md`, "Recording a hand"), kept and judged by the domain.

A key belongs to (user, method, path) and is kept `IDEMPOTENCY_KEEP_HOURS` (at least 24). The same key
and body once its first request finished: that request's answer again (`Replayed`), nothing done. Still
running: `KeyInFlight` (409). Another body: `KeyReused` (422). Answers below 500 are kept, refusals
included. The body is compared by its hash, which the caller computes (the API: as parsed JSON).

Two ways a key is kept:

- **With the write** (a recorded hand, the hot path: `services.hands.hand_record(key=...)`): the write
  judges the key after it has locked the session (`records`, `judge`) and stores it, with what it did,
  in its own transaction (`kept`): the stored result is the hand as recorded and the session's
  version then (`recorded`), plain JSON that the API renders after the write returns, the first time
  and at every replay (`recorded_hand`). On PostgreSQL the write holds an advisory lock named by the key
  (`KeyUse.hold`) without waiting for it, so a second request with a key still in use is 409 at once.
- **Claimed before the write** in a short transaction of its own, its answer kept after it
  (`idempotency_begin`, `idempotency_finish`, `idempotency_release`: a payment, a preset, a season, a
  cut-in, a substitute), where the answer is the API's rendered one.

A refusal (the write raised, nothing written) is kept after it by `keep` in a short transaction of its
own, as are the answers of a write that found what an earlier attempt did (a hand found by its client
key). That a hand or a payment is recorded once is the domain's own rule (by the client key), so a
request that died after its claim blocks its key only `IDEMPOTENCY_IN_FLIGHT_SECONDS`.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from ledger.exceptions import KeyInFlight, KeyReused
from ledger.models import Hand, IdempotencyRecord, Session

logger = logging.getLogger(__name__)

# The status a recorded hand's stored answer replays with (api.md: 201 Created). A record keeps the
# status of the answer it replays for every key; this is the one the domain writes itself.
RECORDED_STATUS = 201


@dataclass(frozen=True)
class KeyUse:
    """One request's use of an Idempotency-Key: whose, for which method and path, and its body's hash."""

    user_id: int
    method: str
    path: str
    key: uuid.UUID
    body_hash: str
    at: datetime = field(default_factory=timezone.now)

    def hold(self) -> int:
        """The advisory lock held while the write runs: a signed 64-bit number from the key, the user,
        method and path (a collision costs a needless 409, which the phone's retry gets past)."""
        digest = hashlib.blake2b(f"{self.user_id} {self.method} {self.path} {self.key}".encode(), digest_size=8)
        return int.from_bytes(digest.digest(), "big", signed=True)

    def mine(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "method": self.method, "path": self.path, "key": self.key}


@dataclass(frozen=True)
class Answer:
    """A key's stored answer: its status, body and ETag."""

    status: int
    body: Any
    etag: str = ""


class Replayed(Exception):
    """The key's first answer: given again, nothing done. `hand`: the hand its write recorded, as it was
    then (`hand_record` returns it again, the API renders it); else the `answer` the caller kept (a
    refusal, or the answer of a claimed key)."""

    def __init__(self, answer: Answer, hand: Hand | None = None) -> None:
        super().__init__("replayed")
        self.answer = answer
        self.hand = hand


# --- a key kept with its write ---------------------------------------------------------------------


def records(user_id: int, key: uuid.UUID) -> QuerySet[IdempotencyRecord]:
    """A key's records (of every method and path: `judge` picks its own). The write reads them after
    the session's lock, so they see what a request that finished meanwhile kept."""
    return IdempotencyRecord.objects.filter(user_id=user_id, key=key)


def judge(use: KeyUse, records: list[IdempotencyRecord], *, free: bool = True) -> IdempotencyRecord | None:
    """The key's fate, before anything else is checked: the record to write over (one past its keeping,
    or a claim whose request died), None for a fresh key; raises `KeyInFlight` (`free` False: a request
    holds the key's advisory lock, or a live claim), `KeyReused`, or, for an answer kept by the caller,
    `Replayed` (with the hand its write recorded, or the answer the caller kept)."""
    if not free:
        raise KeyInFlight()
    found = next((r for r in records if r.method == use.method and r.path == use.path), None)
    if found is None:
        return None
    if found.created_at < use.at - timedelta(hours=settings.IDEMPOTENCY_KEEP_HOURS):
        return found  # past its keeping: claimed afresh
    if found.body_hash != use.body_hash:
        raise KeyReused()
    if found.state == IdempotencyRecord.State.DONE:
        raise Replayed(Answer(found.status or 0, found.response, found.etag), recorded_hand(found.response))
    if found.created_at <= use.at - timedelta(seconds=settings.IDEMPOTENCY_IN_FLIGHT_SECONDS):
        return found  # its request died (a claim of `idempotency_begin`'s)
    raise KeyInFlight()


def judge_alone(use: KeyUse) -> None:
    """Judge the key outside any write, for a request refused before its write (a body that does not
    parse, or over the API's limits): api.md judges the key first all the same."""
    judge(use, list(records(use.user_id, use.key)))


def recorded(hand: Hand, version: int) -> dict[str, Any]:
    """What recording a hand did, as the key keeps it: the hand as recorded (a later amend changes the
    row, not the first answer) and the session's version then."""
    by = hand.recorded_by
    return {
        "recorded": {
            "number": hand.number,
            "raw": hand.raw,
            "settled": hand.settled,
            "recorded_by": by.get_username() if by is not None else None,
            "recorded_at": hand.recorded_at.isoformat(),
            "session": hand.session_id,
            "version": version,
        }
    }


def recorded_hand(result: Any) -> Hand | None:
    """The hand of a kept result (`recorded`), unsaved (its id is not kept: the answer does not show
    it), with its session's version then; None for an answer the caller kept."""
    if not isinstance(result, dict) or not isinstance(result.get("recorded"), dict):
        return None
    kept = result["recorded"]
    by = User(username=kept["recorded_by"]) if kept["recorded_by"] is not None else None
    hand = Hand(
        session_id=kept["session"],
        number=kept["number"],
        raw=kept["raw"],
        settled=kept["settled"],
        recorded_by=by,
        recorded_at=datetime.fromisoformat(kept["recorded_at"]),
    )
    hand.session = Session(pk=kept["session"], version=kept["version"])
    return hand


def kept(use: KeyUse, result: Any) -> dict[str, Any]:
    """The key's record with its write's result, which the write stores among its own statements (it
    commits with them): over the record `judge` returned, or as a new one."""
    return _values(use, RECORDED_STATUS, result, "")


def keep(use: KeyUse, status: int, body: Any, etag: str = "") -> None:
    """Keep an answer the write did not keep (a refusal; a hand found by its client key), in a short
    transaction of its own; a 5xx answer is not kept. On PostgreSQL it first waits for the key's hold: a
    write still running under the key keeps its own answer, and this one is then not kept (a refusal
    kept meanwhile would have made that write's INSERT fail, and its hand with it). The first to keep
    an answer wins; a record past its keeping or a dead claim is written over."""
    if status >= 500:
        return
    values = _values(use, status, body, etag)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [use.hold()])
        found = IdempotencyRecord.objects.filter(**use.mine()).first()
        if found is None:
            IdempotencyRecord.objects.create(**use.mine(), **values)
        elif _takeable(found, use.at):
            IdempotencyRecord.objects.filter(pk=found.pk).update(**values)
        else:
            logger.info("Idempotency-Key %s: another request kept its answer first", use.key)


def _takeable(found: IdempotencyRecord, now: datetime) -> bool:
    if found.created_at < now - timedelta(hours=settings.IDEMPOTENCY_KEEP_HOURS):
        return True
    dead = now - timedelta(seconds=settings.IDEMPOTENCY_IN_FLIGHT_SECONDS)
    return found.state == IdempotencyRecord.State.IN_FLIGHT and found.created_at <= dead


def _values(use: KeyUse, status: int, body: Any, etag: str) -> dict[str, Any]:
    return {
        "body_hash": use.body_hash,
        "state": IdempotencyRecord.State.DONE,
        "status": status,
        "response": body,
        "etag": etag,
        "created_at": use.at,
    }


# --- a key claimed before its write ---------------------------------------------------------------


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


def _autocommit(statement: Callable[[], Any]) -> Any:
    """One statement, committed at once (no BEGIN and COMMIT round trips). Inside a caller's
    transaction (tests) a savepoint keeps that transaction usable after an IntegrityError."""
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
            _autocommit(partial(record.save, force_insert=True))
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
