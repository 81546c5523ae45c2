"""The hot path's writes compiled once per process (`ledger.roundtrips._Compiled`) store exactly what
Django's own `save(force_insert=True)` and `update()` store: the first call compiles, the later ones
reuse the SQL with values prepared afresh, so each is checked on a second and a third object.

On PostgreSQL the hot path runs them (`insert_row`, `update_row`, `together()`); elsewhere those run
the ORM, so here the compiled statements are executed directly, on whichever database the suite has.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, connection
from django.db.models import Model
from django.forms.models import model_to_dict
from django.utils import timezone

from ledger import roundtrips
from ledger.models import Hand, HandRevision, IdempotencyRecord, Session
from tests.ledger_fixtures import AMERICAN_HANDS, assert_projection, fresh, make_user, record_all


def compiled_insert(obj: Model) -> None:
    sql, params, returning = roundtrips._compiled.insert(obj, "default")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone() if returning and connection.features.can_return_columns_from_insert else None
    if row is None:  # a database that returns no columns from an INSERT (not PostgreSQL or SQLite)
        row = (type(obj)._base_manager.order_by("-pk").values_list("pk", flat=True).first(),)
    roundtrips._returned(obj, "default", returning, row)


def stored(obj: Model, *leave_out: str) -> dict[str, Any]:
    found = type(obj)._base_manager.get(pk=obj.pk)
    return {name: value for name, value in model_to_dict(found).items() if name not in ("id", *leave_out)}


def test_a_compiled_insert_stores_what_save_stores(admin: Any, session: Session) -> None:
    now = timezone.now()
    for i in range(3):  # the first compiles, the others reuse it
        ours = HandRevision(session=session, number=i + 1, action=HandRevision.Action.RECORDED, new={"bid": "pass"})
        ours.version, ours.by = i + 2, admin
        theirs = HandRevision(session=session, number=i + 1, action=HandRevision.Action.RECORDED, new={"bid": "pass"})
        theirs.version, theirs.by = i + 2, admin
        compiled_insert(ours)
        theirs.save(force_insert=True)
        assert ours.pk and ours.pk != theirs.pk
        assert stored(ours, "at") == stored(theirs, "at")

        key = uuid.uuid4()
        record = IdempotencyRecord(user=admin, method="POST", path=f"/p/{i}", key=key, body_hash="h", created_at=now)
        twin = IdempotencyRecord(user=admin, method="PUT", path=f"/p/{i}", key=key, body_hash="h", created_at=now)
        compiled_insert(record)
        twin.save(force_insert=True)
        assert stored(record, "method") == stored(twin, "method")


def test_a_compiled_update_stores_what_update_stores(admin: Any, session: Session) -> None:
    other = Session.objects.create(club=session.club, variant="american", first_dealer=0, opened_by=admin)
    for i in range(3):
        values = {
            "hands_count": i,
            "balances": [i, -i, 2 * i, -2 * i],
            "pools": [i * 10],
            "next_deal": {"number": i + 1, "dealer": i % 4},
            "version": 7 + i,
            "updated_at": timezone.now() - timedelta(minutes=i),
        }
        sql, params = roundtrips._compiled.update(Session, session.pk, values, "default")
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
        Session.objects.filter(pk=other.pk).update(**values)
        ours, theirs = fresh(session), fresh(other)
        for name, value in values.items():
            assert getattr(ours, name) == getattr(theirs, name) == value, name


def test_recorded_hands_are_stored_as_before(scorer: Any, session: Session) -> None:
    """Through the service (compiled on PostgreSQL): the rows and the projection a replay gives."""
    record_all(scorer, session, AMERICAN_HANDS[:4])
    session = fresh(session)
    assert session.hands_count == 4 and session.version == 5
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [h.number for h in hands] == [1, 2, 3, 4]
    assert [h.raw for h in hands] == [{k: v for k, v in h.items() if k != "number"} for h in AMERICAN_HANDS[:4]]
    assert HandRevision.objects.filter(session=session, action=HandRevision.Action.RECORDED).count() == 4
    assert_projection(session)


@pytest.mark.django_db(transaction=True)
def test_the_claims_insert_commits_at_once_and_a_refused_one_leaves_no_transaction_open() -> None:
    """`insert_row_unflushed` (the Idempotency-Key's claim), outside any transaction as in production."""
    user = make_user("claimer")
    key = uuid.uuid4()
    first = IdempotencyRecord(user=user, method="POST", path="/p/", key=key, body_hash="h")
    roundtrips.insert_row_unflushed(first)
    assert first.pk and IdempotencyRecord.objects.filter(pk=first.pk, key=key).exists()
    twin = IdempotencyRecord(user=user, method="POST", path="/p/", key=key, body_hash="h")
    with pytest.raises(IntegrityError):
        roundtrips.insert_row_unflushed(twin)
    # The connection goes on, outside any transaction, and every other commit waits for the disk.
    assert IdempotencyRecord.objects.filter(key=key).count() == 1
    assert not connection.in_atomic_block
    if connection.vendor == "postgresql":
        from psycopg import pq

        assert connection.connection.info.transaction_status == pq.TransactionStatus.IDLE
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone() == ("on",)
    third = IdempotencyRecord(user=user, method="POST", path="/q/", key=key, body_hash="h")
    roundtrips.insert_row_unflushed(third)
    assert third.pk and third.pk != first.pk


# --- `atomic()`: BEGIN with the first reads, COMMIT with the last writes --------------------------

_KEYS = roundtrips.Select(
    lambda user_id, path, key: IdempotencyRecord.objects.filter(user_id=user_id, path=path, key=key)
)


def _status() -> Any:
    """PostgreSQL's view of the connection's transaction (IDLE outside one); None elsewhere."""
    if connection.vendor != "postgresql" or connection.connection is None:
        return None
    return connection.connection.info.transaction_status.name


def _record(user: Any, path: str) -> IdempotencyRecord:
    return IdempotencyRecord(user=user, method="POST", path=path, key=uuid.uuid4(), body_hash="h")


@pytest.mark.django_db(transaction=True)
def test_atomic_commits_with_its_last_writes_and_reads_with_its_first() -> None:
    """Outside any transaction, as in production: what the block wrote is there, in one transaction."""
    user = make_user("writer")
    first = _record(user, "/a/")
    first.save()
    with roundtrips.atomic() as block:
        [found] = roundtrips.fetch_together((_KEYS, {"user_id": user.pk, "path": "/a/", "key": first.key}), begin=block)
        assert [r.pk for r in found] == [first.pk]  # a string and a UUID bound as the filter's values
        if block.pipelined:
            assert _status() == "INTRANS"  # BEGIN went with the SELECT
        second = _record(user, "/b/")
        with roundtrips.together(commit=block) as writes:
            writes.update_row(IdempotencyRecord, first.pk, body_hash="changed")
            writes.insert(second)
    assert second.pk and not block.open
    assert _status() in (None, "IDLE")
    assert IdempotencyRecord.objects.get(pk=first.pk).body_hash == "changed"
    assert IdempotencyRecord.objects.filter(pk=second.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_atomic_rolls_back_on_an_error_raised_between_or_in_its_writes() -> None:
    user = make_user("writer")
    first = _record(user, "/a/")
    first.save()

    class Refused(Exception):
        pass

    with pytest.raises(Refused), roundtrips.atomic() as block:
        roundtrips.fetch_together((_KEYS, {"user_id": user.pk, "path": "/a/", "key": first.key}), begin=block)
        roundtrips.update_row(IdempotencyRecord, first.pk, body_hash="lost")  # inside the transaction
        raise Refused
    assert _status() in (None, "IDLE")
    assert IdempotencyRecord.objects.get(pk=first.pk).body_hash == "h"

    twin = IdempotencyRecord(user=user, method="POST", path="/a/", key=first.key, body_hash="h")
    with pytest.raises(IntegrityError), roundtrips.atomic() as block:
        roundtrips.fetch_together((_KEYS, {"user_id": user.pk, "path": "/a/", "key": first.key}), begin=block)
        with roundtrips.together(commit=block) as writes:
            writes.update_row(IdempotencyRecord, first.pk, body_hash="lost")
            writes.insert(twin)  # the key's unique constraint: the COMMIT after it never runs
    assert _status() in (None, "IDLE")
    assert IdempotencyRecord.objects.get(pk=first.pk).body_hash == "h"
    assert IdempotencyRecord.objects.filter(key=first.key).count() == 1

    with roundtrips.atomic() as block:  # and the connection goes on
        roundtrips.fetch_together((_KEYS, {"user_id": user.pk, "path": "/a/", "key": first.key}), begin=block)
    assert _status() in (None, "IDLE") and not block.open


@pytest.mark.django_db(transaction=True)
def test_atomic_without_writes_commits_when_the_block_ends_and_holds_the_lock_until_then() -> None:
    """A block that only reads (a refusal found no write to make) still ends its transaction; while it
    is open, the FOR UPDATE lock of its first reads holds."""
    user = make_user("reader")
    session_lock = roundtrips.Select(lambda pk: IdempotencyRecord.objects.select_for_update().filter(pk=pk))
    first = _record(user, "/a/")
    first.save()
    with roundtrips.atomic() as block:
        [found] = roundtrips.fetch_together((session_lock, {"pk": first.pk}), begin=block)
        assert [r.pk for r in found] == [first.pk]
        if block.pipelined:
            assert _status() == "INTRANS"
            assert _locked_elsewhere(first.pk)  # another connection cannot take the row
    assert _status() in (None, "IDLE") and not block.open
    if connection.vendor == "postgresql":
        assert not _locked_elsewhere(first.pk)  # released by the commit


def _locked_elsewhere(pk: int) -> bool:
    """Whether another PostgreSQL connection finds the record's row locked (FOR UPDATE NOWAIT)."""
    import psycopg

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params) as other:
        try:
            other.execute(f'SELECT id FROM "{IdempotencyRecord._meta.db_table}" WHERE id = %s FOR UPDATE NOWAIT', [pk])
        except psycopg.errors.LockNotAvailable:
            return True
    return False


def test_select_refuses_an_argument_that_is_not_a_parameter_or_of_another_kind(admin: Any) -> None:
    by_user = roundtrips.Select(lambda user_id: IdempotencyRecord.objects.filter(user_id__gt=user_id % 7))
    with pytest.raises(ValueError, match="one parameter of the SQL"):
        by_user.bind(user_id=admin.pk)  # compiled on any database
    by_path = roundtrips.Select(lambda path: IdempotencyRecord.objects.filter(path=path))
    with pytest.raises(TypeError):
        by_path.bind(path=1.5)


@pytest.mark.django_db(transaction=True)
def test_a_write_refused_in_its_pipeline_leaves_the_connection_and_its_prepared_statements_usable(
    scorer: Any, admin: Any, club: Any, players: Any, session: Session
) -> None:
    """On PostgreSQL, after 8 hands the hot path's statements are prepared on the connection
    (`roundtrips._bound`). A hand whose INSERT fails inside the writes' pipeline (its key already
    recorded another hand: the unique constraint) rolls back the whole transaction, the service answers
    the hand recorded with the key, and the next hands record on the same connection, their statements
    prepared again."""
    from ledger.services.hands import hand_record
    from tests.ledger_fixtures import open_session

    hands = AMERICAN_HANDS * 3  # an American game is 12 deals
    record_all(scorer, session, hands[:8])
    key = uuid.uuid4()
    ninth = hand_record(actor=scorer, session_id=session.pk, hand=hands[8], client_key=key)
    again = hand_record(actor=scorer, session_id=session.pk, hand=hands[9], client_key=key)
    assert (again.pk, again.number) == (ninth.pk, 9)
    # psycopg forgets what it prepared when a pipeline fails (DEALLOCATE ALL): prepared anew after 5 runs.
    record_all(scorer, session, hands[9:12])
    second = open_session(admin, club, players)
    record_all(scorer, second, hands[:4])
    if connection.vendor == "postgresql":
        assert connection.connection.info.transaction_status.name == "IDLE"
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_prepared_statements")
            assert cursor.fetchone()[0] > 0
    assert (fresh(session).hands_count, fresh(second).hands_count) == (12, 4)
    assert HandRevision.objects.filter(session=session).count() == 12
    assert_projection(session)
    assert_projection(second)
