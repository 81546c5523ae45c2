"""The hot path's writes compiled once per process (`ledger.roundtrips._Compiled`) store exactly what
Django's own `save(force_insert=True)` and `update()` store: the first call compiles, the later ones
reuse the SQL with values prepared afresh, so each is checked on a second and a third object.

On PostgreSQL the hot path runs them (`together()`, inside Django's `transaction.atomic`); elsewhere
those run the ORM, so here the compiled statements are executed directly, on whichever database the
suite has.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
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


# --- the pipelines inside Django's transaction -----------------------------------------------------

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
def test_the_pipelines_read_and_write_in_djangos_transaction_and_commit_with_it() -> None:
    """Outside any transaction, as in production: what the block wrote is there once it commits, and
    `on_commit` runs then (the live channel's publish), not before."""
    user = make_user("writer")
    first = _record(user, "/a/")
    first.save()
    committed: list[bool] = []
    with transaction.atomic(durable=True):
        [found] = roundtrips.fetch_together((_KEYS, {"user_id": user.pk, "path": "/a/", "key": first.key}))
        assert [r.pk for r in found] == [first.pk]  # a string and a UUID bound as the filter's values
        second = _record(user, "/b/")
        with roundtrips.together() as writes:
            writes.update_row(IdempotencyRecord, first.pk, body_hash="changed")
            writes.insert(second)
        assert second.pk  # set when the block's pipeline ended
        if connection.vendor == "postgresql":
            assert _status() == "INTRANS" and not _seen_elsewhere(second.pk)
        transaction.on_commit(lambda: committed.append(True))
        assert committed == []
    assert committed == [True]
    assert _status() in (None, "IDLE")
    assert IdempotencyRecord.objects.get(pk=first.pk).body_hash == "changed"
    assert IdempotencyRecord.objects.filter(pk=second.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_a_write_refused_in_the_pipeline_rolls_the_transaction_back() -> None:
    user = make_user("writer")
    first = _record(user, "/a/")
    first.save()
    twin = IdempotencyRecord(user=user, method="POST", path="/a/", key=first.key, body_hash="h")
    committed: list[bool] = []
    with pytest.raises(IntegrityError), transaction.atomic(durable=True):
        transaction.on_commit(lambda: committed.append(True))
        with roundtrips.together() as writes:
            writes.update_row(IdempotencyRecord, first.pk, body_hash="lost")
            writes.insert(twin)  # the key's unique constraint
    assert committed == [] and _status() in (None, "IDLE")
    assert IdempotencyRecord.objects.get(pk=first.pk).body_hash == "h"
    assert IdempotencyRecord.objects.filter(key=first.key).count() == 1
    with transaction.atomic(durable=True):  # and the connection goes on
        roundtrips.fetch_together((_KEYS, {"user_id": user.pk, "path": "/a/", "key": first.key}))


@pytest.mark.django_db(transaction=True)
def test_a_lock_taken_in_the_pipeline_holds_until_the_transaction_ends() -> None:
    user = make_user("reader")
    session_lock = roundtrips.Select(lambda pk: IdempotencyRecord.objects.select_for_update().filter(pk=pk))
    first = _record(user, "/a/")
    first.save()
    with transaction.atomic(durable=True):
        [found] = roundtrips.fetch_together((session_lock, {"pk": first.pk}))
        assert [r.pk for r in found] == [first.pk]
        if connection.vendor == "postgresql":
            assert _locked_elsewhere(first.pk)  # another connection cannot take the row
    if connection.vendor == "postgresql":
        assert not _locked_elsewhere(first.pk)  # released by the commit


def _seen_elsewhere(pk: int) -> bool:
    """Whether another PostgreSQL connection sees the record (committed)."""
    import psycopg

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params) as other:
        table = IdempotencyRecord._meta.db_table
        return other.execute(f'SELECT id FROM "{table}" WHERE id = %s', [pk]).fetchone() is not None


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
