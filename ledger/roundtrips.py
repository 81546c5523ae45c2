"""The one round-trip saving the domain keeps: a recorded hand's reads in one round trip and its writes
in another, inside Django's `transaction.atomic` (PostgreSQL). Only `ledger.services.hands` imports it
(an import-linter contract), and only for `hand_record`, the hot path of bench/api.py.

psycopg 3's pipeline mode sends statements without waiting for each one's answer; the answers come
back together at the pipeline's end (one Sync, one round trip). Each statement still runs on its own
and, under READ COMMITTED, takes its own snapshot when it starts, in the order sent: a SELECT sent
after a locking SELECT sees what the writer it waited for committed. On another database (SQLite) or
without pipeline support, everything here runs the plain way, one statement after the other, with
the same results.

- `fetch_together((Select, arguments), ...)`: several SELECTs in one round trip, their results as
  the querysets would give them (model instances with their annotations, or `values_list` rows); a
  `Select` is compiled once per process. A `Raw` statement says what no queryset says.
- `together()`: writes in one round trip at the end of the block: `update_row(model, pk, **values)`
  (its row count is not read) and `insert(obj)` (the object's id is set when the block ends), their
  SQL compiled once per process (`_Compiled`).

Use them inside Django's `transaction.atomic`, never around it (psycopg syncs the pipeline when the
transaction's autocommit changes): BEGIN and COMMIT are Django's, so `transaction.on_commit` runs when
the hand commits (the live channel's publish). A statement's error is raised when the block ends, as a
Django `DatabaseError`, and aborts the transaction as it would have anyway.

What it is worth (issue 40, bench/README.md "issue 40"): with every statement its own (15 round trips)
a hand cost 4.05 and 3.83 times the floor's CPU in one process (bench/inprocess.py, two rounds), with
these two pipelines (9) 3.57 and 3.36 times, and with BEGIN and COMMIT in them too (7, `atomic()`,
retired so that `on_commit` works) 3.41 and 3.02 times.
Before: from 10 round trips to 6 (round 3: capacity from 0.44 to 0.50-0.64 of the floor), then to 3.
"""

from __future__ import annotations

import uuid
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from django.conf import settings
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


def _bound(alias: str) -> Any:
    """A cursor for the hot path's statements that sends their parameters beside them (psycopg's
    server-side binding) instead of quoting them into the text as Django's cursors do, so that
    PostgreSQL can keep them prepared: psycopg prepares a statement once it has run it
    `PREPARED_AFTER` times on a connection (`DB_PREPARE=0`: never), and PostgreSQL then parses and
    plans it no more. Django's own cursors bind on the client and are never prepared (Django turns
    psycopg's preparing off for connection poolers in transaction mode: docs/scaling.md).

    What it is worth: PostgreSQL's CPU per recorded hand went from 1.99 to 1.44 ms on the production
    stack (bench/api.py) and from 1.43 to 1.00 ms in process (bench/inprocess.py), the web process's
    unchanged: a third of the hand's cost in PostgreSQL beyond the floor's (bench/README.md "round
    6"). Wrapped as Django wraps its own cursors, so `execute_wrapper` and the query log still see
    every statement. The statements are Django's own compiled SELECTs, INSERTs and UPDATEs by primary
    key, typed by PostgreSQL from their parameters."""
    from django.db.backends.postgresql.base import ServerBindingCursor  # type: ignore[attr-defined]

    connection = connections[alias]
    connection.connection.prepare_threshold = PREPARED_AFTER if settings.DB_PREPARE else None
    cursor = ServerBindingCursor(connection.connection)
    return connection.make_debug_cursor(cursor) if connection.queries_logged else connection.make_cursor(cursor)


PREPARED_AFTER = 5  # psycopg's own default, which Django's settings turn off


class Select:
    """A SELECT of the hot path, built and compiled by Django once per process and database, its
    parameters bound at each call: building a queryset and compiling it cost more CPU than its round
    trip (bench/README.md). `build(**arguments)` makes the queryset; each argument (an integer, a
    string or a UUID) must end up as one parameter of the SQL (a filter's value), which is checked
    when compiled."""

    def __init__(self, build: Callable[..., QuerySet[Any, Any]]) -> None:
        self.build = build
        self._compiled: dict[tuple[Any, ...], tuple[QuerySet[Any, Any], Any, str, list[Any], dict[int, str]]] = {}

    def compiled(
        self, alias: str, arguments: dict[str, Any]
    ) -> tuple[QuerySet[Any, Any], Any, str, list[Any], dict[int, str]]:
        names = sorted(arguments)
        kinds = tuple((name, _kind(arguments[name])) for name in names)
        found = self._compiled.get((alias, kinds))
        if found is None:
            marks = {name: _mark(kind, i) for i, (name, kind) in enumerate(kinds)}
            queryset = self.build(**marks).using(alias)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()  # also sets the compiler's select and klass_info; FOR UPDATE
            # compiles only inside Django's transaction, where the hot path runs
            by_mark = {mark: name for name, mark in marks.items()}
            slots = {i: by_mark[p] for i, p in enumerate(params) if _hashable(p) and p in by_mark}
            if sorted(slots.values()) != names:
                raise ValueError("Select: each argument must be one parameter of the SQL")
            found = (queryset, compiler, sql, list(params), slots)
            self._compiled[(alias, kinds)] = found
        return found

    def bind(self, alias: str = "default", **arguments: Any) -> tuple[QuerySet[Any, Any], Any, str, list[Any]]:
        queryset, compiler, sql, params, slots = self.compiled(alias, arguments)
        bound = list(params)
        for i, name in slots.items():
            bound[i] = arguments[name]
        return queryset, compiler, sql, bound


def _kind(value: Any) -> type:
    for kind in (int, str, uuid.UUID):
        if isinstance(value, kind) and not isinstance(value, bool):
            return kind
    raise TypeError(f"Select: an argument is an integer, a string or a UUID, not {type(value).__name__}")


def _mark(kind: type, i: int) -> Any:
    """A value no real argument has, found again among the compiled SQL's parameters."""
    if kind is int:
        return -(7_340_000_001 + i)
    if kind is str:
        return f"\x00select argument {i}\x00"
    return uuid.UUID(int=0x7340_0000_0000_4000_8000_0000_0000_0000 + i)


def _hashable(value: Any) -> bool:
    return isinstance(value, int | str | uuid.UUID)


class Raw:
    """A statement of our own among `fetch_together`'s, for what no queryset says (a PostgreSQL function):
    its SQL with `%s` for each of `names`, in order; its rows come back as tuples."""

    def __init__(self, sql: str, names: list[str]) -> None:
        self.sql = sql
        self.names = names

    def bind(self, alias: str = "default", **arguments: Any) -> tuple[None, None, str, list[Any]]:
        return None, None, self.sql, [arguments[name] for name in self.names]

    def run(self, alias: str, **arguments: Any) -> list[tuple[Any, ...]]:
        with connections[alias].cursor() as cursor:
            cursor.execute(self.sql, [arguments[name] for name in self.names])
            return [tuple(row) for row in cursor.fetchall()]


Statement = Select | Raw
Read = tuple[Statement, dict[str, Any]]  # a statement with its arguments, as `fetch_together` takes it


def fetch_together(*selects: Read, alias: str = "default") -> list[list[Any]]:
    """Each SELECT's rows, sent in one round trip (PostgreSQL), run in this order; as their querysets
    would give them. Model querysets (with annotations, without select_related) and `values_list`
    ones. Elsewhere each queryset runs as usual."""
    if not _pipelines(alias):
        return [_run(select, arguments, alias) for select, arguments in selects]
    statements = [select.bind(alias, **arguments) for select, arguments in selects]
    cursors = []
    try:
        with _pipeline(alias):
            for _, _, sql, params in statements:
                cursor = _bound(alias)
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
    with _bound(alias) as cursor:
        cursor.execute(sql, params)


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
        cursor = _bound(self.alias)
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


def _run(statement: Statement, arguments: dict[str, Any], alias: str) -> list[Any]:
    if isinstance(statement, Raw):
        return list(statement.run(alias, **arguments))
    return list(statement.build(**arguments).using(alias))


# Each compiled SELECT's converters (a compiler lives as long as its `Select`): Django's `results_iter`
# works them out again at every call, comparing every column with every field, which was a tenth of
# `fetch_together`'s CPU time in a profile of recorded hands (bench/inprocess.py --profile).
_CONVERTERS: weakref.WeakKeyDictionary[Any, dict[int, Any]] = weakref.WeakKeyDictionary()


def _converted(compiler: Any, rows: list[tuple[Any, ...]]) -> Any:
    """The rows as `compiler.results_iter(results=[rows])` gives them."""
    converters = _CONVERTERS.get(compiler)
    if converters is None:
        fields = [column[0] for column in compiler.select[0 : compiler.col_count]]
        if compiler.has_composite_fields(fields):
            raise NotImplementedError("fetch_together: no composite fields")
        converters = _CONVERTERS[compiler] = compiler.get_converters(fields)
    return compiler.apply_converters(rows, converters) if converters else rows


def _rows(queryset: QuerySet[Any, Any] | None, compiler: Any, rows: list[tuple[Any, ...]]) -> list[Any]:
    if queryset is None:  # a `Raw` statement's
        return [tuple(row) for row in rows]
    converted = _converted(compiler, rows)
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


__all__ = [
    "Raw",
    "Read",
    "Select",
    "Statement",
    "Together",
    "fetch_together",
    "together",
    "update_row",
]
