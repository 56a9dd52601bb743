"""Plain SQL for the few statements that every move runs, with the ORM's own conversions.

Building a query through the ORM costs 100–350 µs of Python (a `Query`, its filters, then
compiling them to SQL) for a statement that SQLite answers in 10 µs. A move reads the locked
match, its seats and its hand and writes the log, the hand and the match, on every card, so
those statements are written out once here, per model and set of columns, and run as plain
SQL. Values still go through each field's own preparation on the way in
(`get_db_prep_save`) and the backend's and field's converters on the way out, exactly as the
ORM does it, so the instances built here are the ones a queryset would build, on SQLite and
on PostgreSQL alike.

Everything else, including every rarely run statement of a move, uses the ORM as usual.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connections, models
from django.db.models import Field, signals
from django.db.models.base import ModelState

M = TypeVar("M", bound=models.Model)
DB = "default"

Converter = Callable[[Any, Any, Any], Any]


def quote(name: str) -> str:
    """Quote a table or column name for the database."""
    return connections[DB].ops.quote_name(name)


def table(model: type[models.Model]) -> str:
    """Return the model's table name, quoted."""
    return quote(model._meta.db_table)


def pk_column(model: type[models.Model]) -> str:
    """Return the model's primary key column, quoted."""
    return quote(model._meta.pk.column)


class Columns:
    """Some fields of a model, read under a table alias and turned back into instances."""

    def __init__(self, model: type[M], attnames: Sequence[str] | None = None, alias: str = "t"):
        meta = model._meta
        fields = (
            [meta.get_field(name) for name in attnames]
            if attnames is not None
            else list(meta.concrete_fields)
        )
        # Always the primary key: an instance cannot be saved without it, and a row of a LEFT
        # JOIN that found nothing is told by it being NULL. In the model's order of fields, as
        # `Model.from_db` expects them.
        wanted = {meta.pk, *fields}
        fields = [field for field in meta.concrete_fields if field in wanted]
        self.pk_index = fields.index(meta.pk)
        self.model = model
        self.alias = alias
        self.fields: list[Field] = fields
        self.attnames = [field.attname for field in fields]
        self.sql = ", ".join(f"{quote(alias)}.{quote(field.column)}" for field in fields)
        self._converters: dict[str, list[tuple[Any, list[Converter]]]] = {}

    def converters(self, connection) -> list[tuple[Any, list[Converter]]]:
        """Return, per column, its expression and the converters the ORM would apply to it."""
        vendor = connection.vendor
        if vendor not in self._converters:
            per_column = []
            for field in self.fields:
                column = field.get_col(self.alias)
                converters = [
                    *connection.ops.get_db_converters(column),
                    *field.get_db_converters(connection),
                ]
                per_column.append((column, converters))
            self._converters[vendor] = per_column
        return self._converters[vendor]

    def build(self, values: Sequence[Any], connection) -> M:
        """Return the model instance for one row's values (in this object's column order)."""
        converted = []
        for value, (column, converters) in zip(values, self.converters(connection), strict=True):
            for convert in converters:
                value = convert(value, column, connection)
            converted.append(value)
        return from_db(self.model, self.attnames, converted)


def from_db(model: type[M], attnames: Sequence[str], values: Sequence[Any]) -> M:
    """Return the instance `model.from_db` returns for these loaded values.

    `Model.__init__` assigns the values one by one through a loop that also handles keyword
    arguments, deferred fields and related objects, and sends `pre_init` and `post_init`:
    about 5 µs a row, and a move builds a dozen. Where nothing could tell the difference (no
    receiver of either signal for the model, and Django's own `from_db`), the instance is
    built as that loop leaves it: its values, and a state saying it came from the database.
    """
    if (
        model.from_db.__func__ is not models.Model.from_db.__func__
        or signals.pre_init.has_listeners(model)
        or signals.post_init.has_listeners(model)
    ):
        return model.from_db(DB, attnames, values)
    instance = model.__new__(model)
    instance.__dict__.update(zip(attnames, values, strict=True))
    state = instance._state = ModelState()
    state.adding = False
    state.db = DB
    return instance


def select(
    columns: Sequence[Columns],
    from_sql: str,
    params: Sequence[Any],
    *,
    lock: Columns | None = None,
    once: Sequence[Columns] = (),
    extra: Sequence[str] = (),
) -> list[tuple]:
    """Run `SELECT <columns> <from_sql>` and return each row as one instance per `Columns`.

    A group whose primary key is NULL (a LEFT JOIN that matched nothing) comes back as None.
    Expressions in `extra` are selected after the columns; their values, as the database
    gives them, come last on each row, as one tuple.

    `lock` names the group whose rows are locked FOR UPDATE where the database has it
    (PostgreSQL); SQLite, whose writers take the whole database at BEGIN IMMEDIATE, needs
    none. A group in `once` repeats the same row on every row (the "one" side of a join):
    it is built once, from the first row, and that instance is given on every row.
    """
    connection = connections[DB]
    sql = f"SELECT {', '.join([*(c.sql for c in columns), *extra])} {from_sql}"
    if lock is not None and connection.features.has_select_for_update_of:
        sql += f" FOR UPDATE OF {quote(lock.alias)}"
    rows = _fetch_rows(connection, sql, params)
    spans, start = [], 0
    for group in columns:
        spans.append((group, slice(start, start + len(group.fields))))
        start += len(group.fields)

    def build(group: Columns, values: Sequence[Any]) -> models.Model | None:
        return None if values[group.pk_index] is None else group.build(values, connection)

    # The groups read once, from the first row, and given on every row.
    repeated = {
        index: build(group, rows[0][span])
        for index, (group, span) in enumerate(spans)
        if rows and group in once
    }
    built = [
        tuple(
            repeated[index] if index in repeated else build(group, row[span])
            for index, (group, span) in enumerate(spans)
        )
        for row in rows
    ]
    if extra:
        return [
            (*instances, tuple(row[start:])) for instances, row in zip(built, rows, strict=True)
        ]
    return built


def _fetch_rows(connection, sql: str, params: Sequence[Any]) -> list[tuple]:
    # The project's PostgreSQL backend sends a transaction's BEGIN along with its first read.
    if hasattr(connection, "fetch_rows"):
        return connection.fetch_rows(sql, params)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def by_pk(columns: Columns, pk: Any) -> models.Model | None:
    """Return the row of this primary key as an instance, or None if there is none."""
    found = select([columns], _by_pk_from(columns), [pk])
    return found[0][0] if found else None


@cache
def _by_pk_from(columns: Columns) -> str:
    alias, model = quote(columns.alias), columns.model
    return f"FROM {table(model)} {alias} WHERE {alias}.{pk_column(model)} = %s"


Statement = tuple[str, list[Any]]


def update_statement(instance: models.Model, attnames: Iterable[str]) -> Statement:
    """Return the UPDATE that `save(update_fields=...)` would run for these fields.

    An `auto_now` field among them takes the current time, on the instance too.
    """
    connection = connections[DB]
    sql, fields = _update_sql(type(instance), tuple(attnames), connection.vendor)
    values = [
        field.get_db_prep_save(field.pre_save(instance, False), connection) for field in fields
    ]
    return sql, [*values, instance.pk]


# The statements' text depends only on the model, the columns and the database: a move writes
# the same few shapes on every card, so each is put together once per process.
@cache
def _update_sql(
    model: type[models.Model], attnames: tuple[str, ...], vendor: str
) -> tuple[str, tuple[Field, ...]]:
    fields = tuple(model._meta.get_field(name) for name in attnames)
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    return f"UPDATE {table(model)} SET {assignments} WHERE {pk_column(model)} = %s", fields


@cache
def _insert_fields(model: type[models.Model]) -> tuple[Field, ...]:
    return tuple(f for f in model._meta.concrete_fields if not f.primary_key)


@cache
def _insert_sql(model: type[models.Model], count: int, vendor: str) -> str:
    fields = _insert_fields(model)
    columns = ", ".join(quote(field.column) for field in fields)
    row_sql = f"({', '.join(['%s'] * len(fields))})"
    return f"INSERT INTO {table(model)} ({columns}) VALUES {', '.join([row_sql] * count)}"


def insert_statements(instances: Sequence[models.Model]) -> list[Statement]:
    """Return the INSERTs of new rows for these instances of one model, ids not read back.

    Like `bulk_create`: no signals, `auto_now_add` fields set, batched as the backend needs.
    """
    if not instances:
        return []
    connection = connections[DB]
    model = type(instances[0])
    fields = _insert_fields(model)
    batch = max(1, connection.ops.bulk_batch_size(fields, instances))
    statements = []
    for start in range(0, len(instances), batch):
        chunk = instances[start : start + batch]
        params = [
            field.get_db_prep_save(field.pre_save(instance, True), connection)
            for instance in chunk
            for field in fields
        ]
        statements.append((_insert_sql(model, len(chunk), connection.vendor), params))
    for instance in instances:
        instance._state.adding = False
        instance._state.db = DB
    return statements


def run(statements: Sequence[Statement]) -> None:
    """Run INSERTs and UPDATEs of different rows, in one round trip where the database can.

    PostgreSQL runs them as one statement, all but the last in a WITH clause: every
    data-modifying part of a WITH runs to completion, against the same snapshot, so they must
    not touch the same row twice (a move writes each row once). Elsewhere, one by one.
    """
    if not statements:
        return
    connection = connections[DB]
    if connection.vendor == "postgresql" and len(statements) > 1:
        parts = [f"w{i} AS ({sql})" for i, (sql, _) in enumerate(statements[:-1])]
        sql = f"WITH {', '.join(parts)} {statements[-1][0]}"
        statements = [(sql, [value for _, params in statements for value in params])]
    if hasattr(connection, "write"):
        # The project's PostgreSQL backend sends a transaction's writes with what comes next:
        # a move's, with its COMMIT.
        for sql, params in statements:
            connection.write(sql, params)
        return
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)


@contextlib.contextmanager
def commits_answered_later() -> Iterator[None]:
    """Let a commit in this block be answered at its end, the time between put to use.

    The project's PostgreSQL backend sends a move's writes and COMMIT without waiting, so that
    the view renders its answer meanwhile; the block's end waits for the server's answer and
    raises if the commit failed, so a response built inside is returned only for a move that
    is stored. Elsewhere (SQLite) commits are answered at once, and this changes nothing.
    """
    later = getattr(connections[DB], "commits_answered_later", None)
    if later is None:
        yield
        return
    with later():
        yield
