"""Several statements sent to PostgreSQL in one exchange, over psycopg's own connection.

A move's transaction is a BEGIN, the locked read, the writes and a COMMIT. Sent one at a time
as psycopg's cursors send them, that is four round trips, each with the cursor machinery's
Python around it; a played card waits on the server between requests, so every round trip
also finds the machine's caches cold. Here the BEGIN goes with the read and the COMMIT with
the writes, in libpq's pipeline mode: each pair is one exchange.

The statements are the ones a cursor would run, converted and adapted by psycopg itself
(`PostgresQuery`, the connection's dumpers and loaders), so the values that come back are
the ones `cursor.fetchall()` returns. They are prepared on the server by the connection's own
bookkeeping of prepared statements, the one its cursors use (`prepare_threshold`; never when
it is None): psycopg forgets them all at times (on a ROLLBACK statement, say, and tells the
server to), and these go with the rest. psycopg has no public way to send queries this way
(its `Pipeline` costs more than the round trip it saves), so this uses its internals, the
same few its cursors use; the version is pinned below 4 and the tests run through here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import errors, generators, pq
from psycopg._encodings import conn_encoding
from psycopg._preparing import Prepare
from psycopg._queries import PostgresQuery
from psycopg.adapt import PyFormat, Transformer

OK = (pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK)


@dataclass
class Statement:
    """One statement to send: its text with `%s` placeholders, and their values."""

    sql: str
    params: Sequence[Any] | None = None


COMMIT = Statement("COMMIT")

# What each queued command was, to check its result against: None for a command psycopg's
# bookkeeping does not follow (a PREPARE, a statement without parameters, one not cached).
Queued = tuple[tuple, Prepare, bytes] | None


@dataclass
class _Query:
    """What `PostgresQuery.convert` gives: the text with $n placeholders, values and types."""

    query: bytes
    params: Sequence[Any]
    types: tuple[int, ...]
    formats: Sequence[pq.Format]


@lru_cache(maxsize=512)
def _numbered(sql: str, encoding: str) -> tuple[bytes, int] | None:
    """Return the text with `%s` numbered as $1, $2...; None if it holds any other `%`.

    psycopg does this too, but remembers it only for statements of at most 50 values, and a
    move's writes (a card and the bots' answers, in one statement) often have more.
    """
    parts = sql.split("%s")
    if any("%" in part for part in parts):
        return None  # `%%` or a named placeholder: psycopg's own conversion knows them
    numbered = parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], 1))
    return numbered.encode(encoding), len(parts) - 1


def _converted(transformer: Transformer, statement: Statement) -> _Query | PostgresQuery:
    """Convert and adapt a statement's values as a cursor would (`PostgresQuery`)."""
    params = statement.params
    numbered = _numbered(statement.sql, transformer.encoding)
    if numbered is None or numbered[1] != len(params) or not isinstance(params, (list, tuple)):
        query = PostgresQuery(transformer)
        query.convert(statement.sql, params)
        return query
    dumped = transformer.dump_sequence(params, [PyFormat.AUTO] * len(params))
    return _Query(numbered[0], dumped, tuple(transformer.types or ()), transformer.formats)


def _queue(
    connection: psycopg.Connection, transformer: Transformer, statement: Statement
) -> list[Queued]:
    """Queue one statement (in pipeline mode nothing is sent yet): one entry per command."""
    pgconn = connection.pgconn
    if statement.params is None:
        pgconn.send_query_params(statement.sql.encode(), None)
        return [None]
    query = _converted(transformer, statement)
    prepared = connection._prepared
    prepare, name = prepared.get(query)
    queued: list[Queued] = []
    if prepare is Prepare.NO:
        pgconn.send_query_params(
            query.query, query.params, param_types=query.types, param_formats=query.formats
        )
    else:
        if prepare is Prepare.SHOULD:
            pgconn.send_prepare(name, query.query, param_types=query.types)
            queued.append(None)
        pgconn.send_query_prepared(name, query.params, param_formats=query.formats)
    key = prepared.maybe_add_to_cache(query, prepare, name)
    queued.append(None if key is None else (key, prepare, name))
    return queued


def _read_results(connection: psycopg.Connection) -> list[list[pq.abc.PGresult]]:
    """Read each command's results, up to the pipeline's sync point."""
    per_command = []
    while True:
        batch = connection.wait(generators.fetch_many(connection.pgconn))
        if batch and batch[-1].status == pq.ExecStatus.PIPELINE_SYNC:
            return per_command
        per_command.append(batch)


def _leave_pipeline_mode(pgconn) -> None:
    """After a failure: the connection is broken or its results lost, so leaving the mode
    fails too, and that second error would hide the first."""
    if pgconn.pipeline_status:
        with contextlib.suppress(psycopg.Error):
            pgconn.exit_pipeline_mode()


@dataclass
class Sent:
    """Statements on their way to the server, whose answers are still to be read."""

    connection: psycopg.Connection
    transformer: Transformer
    queued: list[Queued]


def send(connection: psycopg.Connection, statements: Sequence[Statement], context=None) -> Sent:
    """Send the statements in one go, without waiting for their answers (see `receive`).

    `context` (a cursor, say) gives the loaders, for a cursor with a time zone of its own.
    Until `receive`, the connection is in pipeline mode: nothing else may use it.
    """
    pgconn = connection.pgconn
    transformer = Transformer.from_context(context or connection)
    queued: list[Queued] = []
    with connection.lock:
        pgconn.enter_pipeline_mode()
        try:
            for statement in statements:
                queued += _queue(connection, transformer, statement)
            pgconn.pipeline_sync()
            connection.wait(generators.send(pgconn))
        except BaseException:
            _leave_pipeline_mode(pgconn)
            raise
    return Sent(connection, transformer, queued)


def receive(sent: Sent) -> list[tuple]:
    """Read the answers to what was sent; return the rows of the last statement.

    Every answer is read before anything is raised, so the connection is ready for the next
    statement; the first error is raised as psycopg raises it, and a statement after a failed
    one never runs (a COMMIT after it included: the transaction is left aborted).
    """
    connection = sent.connection
    pgconn = connection.pgconn
    with connection.lock:
        try:
            per_command = _read_results(connection)
        except BaseException:
            _leave_pipeline_mode(pgconn)
            raise
        pgconn.exit_pipeline_mode()
        prepared = connection._prepared
        for entry, results in zip(sent.queued, per_command, strict=True):
            if entry is not None:
                prepared.validate(*entry, results)  # forgets a statement that failed
        connection.wait(prepared.maintain_gen(connection))  # a DEALLOCATE it asks for, if any
    results = [result for batch in per_command for result in batch]
    failed = next((r for r in results if r.status not in OK), None)
    if failed is not None:
        if failed.status == pq.ExecStatus.FATAL_ERROR:
            raise errors.error_from_result(failed, encoding=conn_encoding(connection))
        raise errors.InternalError(f"unexpected result: {pq.ExecStatus(failed.status).name}")
    last = results[-1]
    if last.status != pq.ExecStatus.TUPLES_OK:
        return []
    sent.transformer.set_pgresult(last)
    return sent.transformer.load_rows(0, last.ntuples, tuple)
