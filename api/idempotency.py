"""`Idempotency-Key` (`api.md`, "Recording a hand"): the key is checked before the body is validated.

Same key and body, first request finished: its answer again (status, body, ETag). Still running: 409
`idempotency_in_flight`. Another body: 422 `idempotency_key_reused`. Answers below 500 are kept, errors
included; a 5xx answer, or an exception, releases the key. A key belongs to (user, method, path).

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
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
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


# The handler gets the claim and answers (response, stored): stored is True when the write that
# answered already kept its answer in its own transaction.
Handler = Callable[[IdempotencyClaim], tuple[Response, bool]]


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
    request: Request, view: APIView, key: uuid.UUID, handler: Handler, takeover_seconds: float | None = None
) -> Response:
    outcome = idempotency_begin(
        user=actor(request),
        method=str(request.method),
        path=request.path,
        key=key,
        body_hash=body_hash(request),
        takeover_seconds=takeover_seconds,
    )
    if outcome.replay is not None:
        record = outcome.replay
        return Response(record.response, status=record.status, headers={"ETag": record.etag} if record.etag else None)
    if outcome.claim is None:
        raise IdempotencyConflict(outcome.conflict or "idempotency_in_flight")
    claim = outcome.claim
    try:
        response, stored = handler(claim)
    except Exception as exc:
        refusal = exception_handler(exc, view.get_exception_handler_context())
        if refusal is None:
            idempotency_release(claim=claim)
            raise
        response, stored = refusal, False
    if not stored:
        etag: Any = response.headers.get("ETag", "")
        try:
            idempotency_finish(claim=claim, status=response.status_code, body=response.data, etag=etag)
        except DatabaseError:
            # The write itself committed: its answer stands. The key stays in flight, and a retry
            # after the takeover finds what the write did (the domain is idempotent by the key).
            logger.warning("the answer to Idempotency-Key %s was not stored", key, exc_info=True)
    return response


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


def idempotency_keep(*, claim: IdempotencyClaim, status: int, body: Any, etag: str = "") -> None:
    """Keep the answer inside the caller's write transaction (`hands.HandRecordApi`): it is kept exactly
    when the write commits, and in a pipeline (ledger/roundtrips.py) the UPDATE goes with the COMMIT,
    a round trip less than `idempotency_finish` after it. The handler then says `stored`."""
    roundtrips.update_row(
        IdempotencyRecord, claim.record_id, state=IdempotencyRecord.State.DONE, status=status, response=body, etag=etag
    )


def idempotency_release(*, claim: IdempotencyClaim) -> None:
    """Forget a claim whose request failed without an answer to keep."""
    _autocommit(IdempotencyRecord.objects.filter(pk=claim.record_id, state=IdempotencyRecord.State.IN_FLIGHT).delete)


def idempotency_purge(*, older_than_hours: int | None = None) -> int:
    """Delete the records past their keeping time; returns how many."""
    hours = older_than_hours if older_than_hours is not None else settings.IDEMPOTENCY_KEEP_HOURS
    with transaction.atomic(durable=True):
        deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=timezone.now() - timedelta(hours=hours)).delete()
    return deleted
