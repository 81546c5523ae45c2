"""`Idempotency-Key` (`api.md`, "Recording a hand"), HTTP's part: the header read, the body's hash, the
answers rendered and given again. The keys are kept and judged by the domain (`ledger.idempotency`),
which raises `KeyInFlight` (409) and `KeyReused` (422), answered by the one error handler.

Two ways: `idempotent` claims the key in a transaction of its own before the write and keeps the
rendered answer after it (a payment, a preset, a season, a cut-in, a substitute); `idempotent_write`
leaves the key to the write, which judges it under its own lock and keeps it with what it did (a
recorded hand, the hot path: `ledger.services.hands.hand_record(key=...)`), and keeps only the refusals
here, after the write, through the domain (`ledger.idempotency.keep`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import uuid
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.exceptions import KeyInFlight, KeyReused
from ledger.i18n import refusals
from ledger.idempotency import (
    Answer,
    IdempotencyClaim,
    KeyUse,
    Replayed,
    idempotency_begin,
    idempotency_finish,
    idempotency_release,
    keep,
)

from .common import actor
from .errors import exception_handler
from .exceptions import IdempotencyKeyRequired

logger = logging.getLogger(__name__)
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)

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


def key_use(request: Request, key: uuid.UUID) -> KeyUse:
    """The request's use of its key, as the domain judges and keeps it."""
    return KeyUse(
        user_id=actor(request).pk, method=str(request.method), path=request.path, key=key, body_hash=body_hash(request)
    )


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
        record = outcome.replay
        return replay(Answer(record.status or 0, record.response, record.etag))
    if outcome.claim is None:
        raise KeyReused() if outcome.conflict == "idempotency_key_reused" else KeyInFlight()
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


def idempotent_write(
    request: Request, view: APIView, use: KeyUse, write: Callable[[], Response], again: Callable[[Any], Response]
) -> Response:
    """`idempotent` for a write that keeps the key itself: its answer, or the key's first one (`again`
    renders what the write did from the domain's kept result, a hand). A refusal is kept here."""
    try:
        return write()
    except Replayed as replayed:
        return again(replayed.hand) if replayed.hand is not None else replay(replayed.answer)
    except (KeyInFlight, KeyReused):
        raise
    except Exception as exc:
        refusal = exception_handler(exc, view.get_exception_handler_context())
        if refusal is None:
            raise
        keep(use, refusal.status_code, refusal.data, str(refusal.headers.get("ETag", "")))
        return refusal


def replay(answer: Answer) -> Response:
    return Response(answer.body, status=answer.status, headers={"ETag": answer.etag} if answer.etag else None)
