"""Fewer round trips to PostgreSQL on the hot path (recording a hand, issue 27's bench/api.py).

psycopg 3's pipeline mode sends statements without waiting for each one's answer; the answers come
back together at the pipeline's end (one Sync, one round trip). Each statement still runs on its own
and, under READ COMMITTED, takes its own snapshot when it starts, in the order sent: a SELECT sent
after a locking SELECT sees what the writer it waited for committed. On another database (SQLite) or
without pipeline support, everything here runs the plain way, one statement after the other, with
the same results.

- `fetch_together((Select, arguments), ...)`: several SELECTs in one round trip, their results as
  the querysets would give them (model instances with their annotations, or `values_list` rows); a
  `Select` is compiled once per process.
- `together()`: writes in one round trip at the end of the block: `update_row(model, pk, **values)`
  (its row count is not read) and `insert(obj)` (the object's id is set when the block ends).
- `update_row(model, pk, **values)` on its own: one row's UPDATE by its primary key, in the pipeline
  when one is open; `insert_row(obj)`, one row's INSERT, and `insert_row_unflushed(obj)`, committed
  without waiting for the disk. Their SQL, like `insert`'s, is compiled once per process (`_Compiled`).

Use them inside the write's transaction (`transaction.atomic`), never around it: psycopg syncs the
pipeline when the transaction's autocommit changes, a round trip each. psycopg sends a transaction's
BEGIN on its own (it syncs after it), so BEGIN and COMMIT stay a round trip each. A statement's error
is raised when the block ends, as a Django `DatabaseError`, and aborts the transaction as it would
have anyway.

What it is worth (bench/api.py, bench/README.md "round 3"): a recorded hand went from 10 round trips
to 6 (tests/api/test_round_trips.py), and with `Select` its capacity went from 0.44 to 0.64, 0.62
and 0.50 of the floor's in the same run (three runs, 2026-12-02, load average 8 to 21).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from django.db import connections
from django.db.models import Field, Model, Q, QuerySet
from django.db.models.query import FlatValuesListIterable, ModelIterable, ValuesListIterable
from django.db.models.sql import InsertQuery, UpdateQuery


def _pipelines(alias: str) -> bool:
    if connections[alias].vendor != "postgresql":
        return False
    import psycopg

    return bool(psycopg.Pipeline.is_supported())


@contextmanager
def _pipeline(alias: str) -> Iterator[None]:
    connection = connections[alias]
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


class Select:
    """A SELECT of the hot path, built and compiled by Django once per process and database, its
    parameters bound at each call: building a queryset and compiling it cost more CPU than its round
    trip (bench/README.md). `build(**arguments)` makes the queryset; each argument must be an integer
    that ends up as one parameter of the SQL (a filter's value), which is checked when compiled."""

    def __init__(self, build: Callable[..., QuerySet[Any, Any]]) -> None:
        self.build = build
        self._compiled: dict[str, tuple[QuerySet[Any, Any], Any, str, list[Any], dict[int, str]]] = {}

    def compiled(self, alias: str, names: list[str]) -> tuple[QuerySet[Any, Any], Any, str, list[Any], dict[int, str]]:
        found = self._compiled.get(alias)
        if found is None:
            marks = {name: -(7_340_000_001 + i) for i, name in enumerate(sorted(names))}
            queryset = self.build(**marks).using(alias)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()  # also sets the compiler's select and klass_info
            by_mark = {mark: name for name, mark in marks.items()}
            slots = {i: by_mark[p] for i, p in enumerate(params) if isinstance(p, int) and p in by_mark}
            if sorted(slots.values()) != sorted(names):
                raise ValueError("Select: each argument must be one parameter of the SQL")
            found = (queryset, compiler, sql, list(params), slots)
            self._compiled[alias] = found
        return found

    def bind(self, alias: str = "default", **arguments: int) -> tuple[QuerySet[Any, Any], Any, str, list[Any]]:
        queryset, compiler, sql, params, slots = self.compiled(alias, list(arguments))
        bound = list(params)
        for i, name in slots.items():
            bound[i] = arguments[name]
        return queryset, compiler, sql, bound


def fetch_together(*selects: tuple[Select, dict[str, int]], alias: str = "default") -> list[list[Any]]:
    """Each SELECT's rows, sent in one round trip (PostgreSQL), run in this order; as their querysets
    would give them. Model querysets (with annotations, without select_related) and `values_list`
    ones. Elsewhere each queryset runs as usual."""
    if not _pipelines(alias):
        return [list(select.build(**arguments).using(alias)) for select, arguments in selects]
    connection = connections[alias]
    statements = [select.bind(alias, **arguments) for select, arguments in selects]
    cursors = []
    try:
        with _pipeline(alias):
            for _, _, sql, params in statements:
                cursor = connection.cursor()
                cursors.append(cursor)
                cursor.execute(sql, params)
        fetched = [cursor.fetchall() for cursor in cursors]  # answered at the pipeline's end
    finally:
        for cursor in cursors:
            cursor.close()
    return [_rows(q, c, rows) for (q, c, _, _), rows in zip(statements, fetched, strict=True)]


class _Compiled:
    """INSERTs of one row and UPDATEs of one row by its primary key, their SQL compiled by Django once
    per process, database and set of columns, the values prepared at each call as Django's compiler
    prepares them (`pre_save`, then `get_db_prep_save`). In a profile of 400 recorded hands (cProfile,
    in process, before this), the key's claim, the two INSERTs and the two UPDATEs took 8 of a hand's
    31 profiled ms, the ORM building and compiling them each time included (bench/README.md "round
    5"). tests/ledger/test_roundtrips.py checks the rows equal those of Django's own `save`/`update`."""

    def __init__(self) -> None:
        self._sql: dict[tuple[Any, ...], tuple[str, list[Field[Any, Any]]]] = {}

    def insert(self, obj: Model, alias: str) -> tuple[str, list[Any], list[Field[Any, Any]]]:
        """The INSERT of `obj` (as `save(force_insert=True)`), its values, and the columns it returns."""
        meta = obj._meta
        pk_set = obj.pk is not None
        connection = connections[alias]
        key = ("insert", type(obj), alias, pk_set)
        found = self._sql.get(key)
        if found is None:
            fields = [f for f in meta.local_concrete_fields if not f.generated and (pk_set or f is not meta.auto_field)]
            query = InsertQuery(type(obj))
            query.insert_values(fields, [obj])
            compiler = query.get_compiler(using=alias)
            compiler.returning_fields = list(meta.db_returning_fields)
            [(sql, params)] = compiler.as_sql()
            if len(params) == len(fields) and not any(hasattr(f, "get_placeholder") for f in fields):
                self._sql[key] = (sql, fields)  # else a value is compiled into the SQL: no compiled form
            return sql, list(params), list(meta.db_returning_fields)
        sql, fields = found
        params = [f.get_db_prep_save(f.pre_save(obj, True), connection=connection) for f in fields]
        return sql, params, list(meta.db_returning_fields)

    def update(self, model: type[Model], pk: Any, values: dict[str, Any], alias: str) -> tuple[str, list[Any]]:
        """The UPDATE of the row `pk` of `model` to `values` (field names), and its values."""
        connection = connections[alias]
        meta = model._meta
        fields = [cast("Field[Any, Any]", meta.get_field(name)) for name in values]
        key = ("update", model, alias, tuple(values))
        found = self._sql.get(key)
        if found is None:
            query = UpdateQuery(model)
            query.add_update_values(values)
            query.add_q(Q(pk=pk))
            sql, params = query.get_compiler(using=alias).as_sql()
            if len(params) != len(fields) + 1:  # a value Django compiles into the SQL: no compiled form
                return sql, list(params)
            self._sql[key] = (sql, fields)
            return sql, list(params)
        sql, _ = found
        params = [f.get_db_prep_save(values[f.name], connection=connection) for f in fields]
        return sql, [*params, meta.pk.get_db_prep_value(pk, connection)]


_compiled = _Compiled()


def update_row(model: type[Model], pk: Any, alias: str = "default", **values: Any) -> None:
    """`model.objects.filter(pk=pk).update(**values)`, compiled once (`_Compiled`); on PostgreSQL, in
    the pipeline of `together()` when one is open (the row count is not read). Values are plain
    (no expressions)."""
    if not _pipelines(alias):
        model._base_manager.using(alias).filter(pk=pk).update(**values)
        return
    sql, params = _compiled.update(model, pk, values, alias)
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)


def insert_row(obj: Model, alias: str = "default") -> None:
    """`obj.save(force_insert=True)` without its signals, compiled once (`_Compiled`): its id is set."""
    if not _pipelines(alias):
        obj.save(force_insert=True, using=alias)
        return
    sql, params, returning = _compiled.insert(obj, alias)
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        _returned(obj, alias, returning, cursor.fetchone())


def insert_row_unflushed(obj: Model, alias: str = "default") -> None:
    """`insert_row` committed at once without waiting for the disk: BEGIN, `SET LOCAL synchronous_commit
    TO OFF`, the INSERT and COMMIT in one round trip (PostgreSQL, outside a transaction).

    Only for a row whose loss in a crash does no harm, and for which an error must not leave a half-open
    transaction behind: the Idempotency-Key's claim. A claim lost in a crash frees its key, and the
    client's retry claims it again; a write made under the claim commits durably, and its WAL flush
    carries the earlier claim with it. A durable commit waited 4 ms for the disk here (median; p95 7.7
    ms), and a recorded hand made two of them (bench/README.md "round 5").
    Inside a transaction (a test's) or elsewhere than PostgreSQL, `insert_row`."""
    connection = connections[alias]
    if not _pipelines(alias) or connection.in_atomic_block:
        insert_row(obj, alias)
        return
    sql, params, returning = _compiled.insert(obj, alias)
    control, insert = connection.cursor(), connection.cursor()
    try:
        with _pipeline(alias):
            control.execute("BEGIN")
            control.execute("SET LOCAL synchronous_commit TO OFF")
            insert.execute(sql, params)
            control.execute("COMMIT")
        row = insert.fetchone()  # answered at the pipeline's end
    except Exception:
        # The error aborted what followed it in the pipeline, the COMMIT too: end the transaction that
        # BEGIN opened (a connection left in it would refuse every later statement).
        with contextlib.suppress(Exception), connection.cursor() as cursor:
            cursor.execute("ROLLBACK")
        raise
    finally:
        control.close()
        insert.close()
    _returned(obj, alias, returning, row)


def _returned(obj: Model, alias: str, returning: list[Field[Any, Any]], row: Any) -> None:
    for field, value in zip(returning, row or (), strict=False):
        setattr(obj, field.attname, value)
    obj._state.adding = False
    obj._state.db = alias


class Together:
    """Writes sent at the end of `together()`'s block."""

    def __init__(self, alias: str, pipelined: bool) -> None:
        self.alias = alias
        self.pipelined = pipelined
        self.finish: list[Callable[[], None]] = []

    def update_row(self, model: type[Model], pk: Any, **values: Any) -> None:
        """`update_row` in this block's pipeline."""
        update_row(model, pk, self.alias, **values)

    def insert(self, obj: Model) -> None:
        """INSERT the new object (as `save(force_insert=True)`, without its signals); its id is set
        when the block ends."""
        if not self.pipelined:
            obj.save(force_insert=True, using=self.alias)
            return
        sql, params, returning = _compiled.insert(obj, self.alias)
        cursor = connections[self.alias].cursor()
        cursor.execute(sql, params)

        def finish() -> None:
            try:
                row = cursor.fetchone()
            finally:
                cursor.close()
            _returned(obj, self.alias, returning, row)

        self.finish.append(finish)


@contextmanager
def together(alias: str = "default") -> Iterator[Together]:
    """The block's writes in one round trip (PostgreSQL), sent when it ends; inserted ids set then."""
    pipelined = _pipelines(alias)
    writes = Together(alias, pipelined)
    if not pipelined:
        yield writes
        return
    with _pipeline(alias):
        yield writes
    for finish in writes.finish:
        finish()


def _rows(queryset: QuerySet[Any, Any], compiler: Any, rows: list[tuple[Any, ...]]) -> list[Any]:
    converted = compiler.results_iter(results=[rows])
    iterable = queryset._iterable_class
    if iterable is FlatValuesListIterable:
        return [row[0] for row in converted]
    if iterable is ValuesListIterable:
        return [tuple(row) for row in converted]
    if iterable is not ModelIterable or compiler.klass_info.get("related_klass_infos"):
        raise NotImplementedError("fetch_together: model or values_list querysets, no select_related")
    start, end = compiler.klass_info["select_fields"][0], compiler.klass_info["select_fields"][-1] + 1
    names = [column[0].target.attname for column in compiler.select[start:end]]
    model = compiler.klass_info["model"]
    objects = []
    for row in converted:
        obj = model.from_db(queryset.db, names, row[start:end])
        for name, position in compiler.annotation_col_map.items():
            setattr(obj, name, row[position])
        objects.append(obj)
    return objects


__all__ = ["Select", "Together", "fetch_together", "insert_row", "insert_row_unflushed", "together", "update_row"]
