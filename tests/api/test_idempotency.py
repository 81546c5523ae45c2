"""The Idempotency-Key store (`ledger.idempotency`): claimed, in flight, replayed, reused, taken over, purged."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import pytest
from django.utils import timezone

from ledger import idempotency
from ledger.models import IdempotencyRecord

pytestmark = pytest.mark.django_db


def _begin(user: Any, key: uuid.UUID, body: str = "a", path: str = "/api/v1/sessions/1/hands/") -> Any:
    return idempotency.idempotency_begin(user=user, method="POST", path=path, key=key, body_hash=body)


def test_a_key_is_claimed_then_in_flight_then_replayed(admin: Any) -> None:
    key = uuid.uuid4()
    claim = _begin(admin, key).claim
    assert claim is not None
    assert _begin(admin, key).conflict == "idempotency_in_flight"
    assert _begin(admin, key, body="b").conflict == "idempotency_key_reused"
    idempotency.idempotency_finish(claim=claim, status=201, body={"ok": 1}, etag='"2"')
    replay = _begin(admin, key).replay
    assert (replay.status, replay.response, replay.etag) == (201, {"ok": 1}, '"2"')
    assert _begin(admin, key, body="b").conflict == "idempotency_key_reused"


def test_a_key_belongs_to_user_method_and_path(admin: Any, other_admin: Any) -> None:
    key = uuid.uuid4()
    assert _begin(admin, key).claim is not None
    assert _begin(other_admin, key).claim is not None
    assert _begin(admin, key, path="/api/v1/sessions/2/hands/").claim is not None
    assert idempotency.idempotency_begin(
        user=admin, method="PUT", path="/api/v1/sessions/1/hands/", key=key, body_hash="a"
    ).claim
    assert IdempotencyRecord.objects.count() == 4


def test_a_5xx_answer_is_not_kept(admin: Any) -> None:
    key = uuid.uuid4()
    idempotency.idempotency_finish(claim=_begin(admin, key).claim, status=503, body={})
    assert not IdempotencyRecord.objects.exists()
    claim = _begin(admin, key).claim
    idempotency.idempotency_release(claim=claim)
    assert _begin(admin, key).claim is not None


def test_a_dead_claim_is_taken_over_and_an_old_key_is_forgotten(admin: Any, settings: Any) -> None:
    key = uuid.uuid4()
    claim = _begin(admin, key).claim
    IdempotencyRecord.objects.filter(pk=claim.record_id).update(
        created_at=timezone.now() - dt.timedelta(seconds=settings.IDEMPOTENCY_IN_FLIGHT_SECONDS + 1)
    )
    assert _begin(admin, key).claim == claim
    idempotency.idempotency_finish(claim=claim, status=201, body={})
    assert _begin(admin, key).replay is not None
    IdempotencyRecord.objects.update(
        created_at=timezone.now() - dt.timedelta(hours=settings.IDEMPOTENCY_KEEP_HOURS + 1)
    )
    assert _begin(admin, key, body="other").claim is not None
    assert idempotency.idempotency_purge(older_than_hours=0) == 1


def test_the_purge_task_forgets_old_keys(admin: Any, settings: Any) -> None:
    from api.tasks import idempotency_purge

    old, new = uuid.uuid4(), uuid.uuid4()
    idempotency.idempotency_finish(claim=_begin(admin, old).claim, status=201, body={})
    idempotency.idempotency_finish(claim=_begin(admin, new).claim, status=201, body={})
    IdempotencyRecord.objects.filter(key=old).update(
        created_at=timezone.now() - dt.timedelta(hours=settings.IDEMPOTENCY_KEEP_HOURS, minutes=1)
    )
    assert idempotency_purge.apply().get() == 1  # in-process: this test has no worker
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == [new]
