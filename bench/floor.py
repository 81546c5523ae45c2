"""The benchmarks' floor (`bench/api.py`): the least a write through this API can cost.

Mounted at `/api/v1/bench/floor/` by the bench's own URL configuration (`bench/urls.py`, chosen by
`bench/settings.py`), so production code never serves it; never in the schema. It goes through the
same stack as `POST .../hands/`: the middleware, DRF, token authentication, the user throttle and the
JSON parser; then inserts one row in one durable transaction and answers 201. What recording a hand
costs beyond it is the ledger's own work (the idempotency claim, the session lock, the replay, the
projection).

The row is an `IdempotencyRecord` with method `FLOOR` (no real request has that method), so the floor
needs no table of its own; the bench's database is created for the run and dropped after it.
"""

from __future__ import annotations

import hashlib
import uuid

from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.models import IdempotencyRecord


class FloorView(APIView):
    @extend_schema(exclude=True)
    def post(self, request: Request) -> Response:
        body = request.data  # parsed like a hand
        digest = hashlib.sha256(repr(body).encode("utf-8", "replace")).hexdigest()
        with transaction.atomic(durable=True):
            row = IdempotencyRecord.objects.create(
                user=request.user,
                method="FLOOR",
                path=request.path[:255],
                key=uuid.uuid4(),
                body_hash=digest,
                state=IdempotencyRecord.State.DONE,
                status=201,
                response={},
            )
        return Response({"id": row.pk}, status=201)
