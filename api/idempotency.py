"""`Idempotency-Key` (`api.md`, "Recording a hand"): the key is checked before the body is validated.

Same key and body, first request finished: its answer again (status, body, ETag). Still running: 409
`idempotency_in_flight`. Another body: 422 `idempotency_key_reused`. Answers below 500 are kept, errors
included; a 5xx answer, or an exception, releases the key. A key belongs to (user, method, path).
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Callable
from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import services

from .errors import IdempotencyConflict, IdempotencyKeyRequired, exception_handler

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)

# The handler gets the claim and answers (response, stored): stored is True when the write that
# answered already kept its answer in its own transaction (services.hand_record does).
Handler = Callable[[services.IdempotencyClaim], tuple[Response, bool]]


def idempotency_key(request: Request) -> uuid.UUID:
    value = request.headers.get("Idempotency-Key", "").strip()
    if not _UUID.fullmatch(value):
        raise IdempotencyKeyRequired()
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


def idempotent(request: Request, view: APIView, key: uuid.UUID, handler: Handler) -> Response:
    outcome = services.idempotency_begin(
        user=request.user, method=request.method, path=request.path, key=key, body_hash=body_hash(request)
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
        response = exception_handler(exc, view.get_exception_handler_context())
        if response is None:
            services.idempotency_release(claim=claim)
            raise
        stored = False
    if not stored:
        etag: Any = response.headers.get("ETag", "")
        services.idempotency_finish(claim=claim, status=response.status_code, body=response.data, etag=etag)
    return response
