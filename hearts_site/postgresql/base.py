"""Django's PostgreSQL backend, with a move's transaction in two round trips instead of four.

`games.rows` reads through `fetch_rows` and writes through `write`:

- a read that opens the transaction carries the BEGIN along (psycopg would send it alone, on
  a round trip of its own, before the first statement);
- a write inside a transaction is held back until whatever the connection does next: the
  next statement takes it along, and so does the COMMIT. A move's writes are its last
  statements, so they and the COMMIT make one exchange. A rollback (to a savepoint too) drops
  nothing it should not: a savepoint's statement goes out through a cursor, which sends the
  held writes first, and a rollback of the whole transaction would undo them anyway.

Within `commits_answered_later()` (a move's view uses it), a COMMIT that carries held writes
is sent without waiting for the server's answer: the view renders its answer while the
server runs the writes and flushes them to disk, and the block's end reads the answer,
raising if the commit failed, before anything is sent to the browser. Meanwhile the
connection is in flight: anything that uses it (a cursor, a read, a new transaction,
closing it) reads the answer first, and the transaction's `on_commit` callbacks run only once
the answer says it committed.

Everything else (the ORM, cursors, savepoints) works as in Django's backend; any cursor first
sends the writes held back, so statements always run in the order they were given. With
`connection.execute_wrapper` in use, reads and writes go through cursors, so that the
wrappers see them. See `hearts_site.postgresql.exchange` for how the statements are sent.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db.backends.postgresql import base
from django.utils.asyncio import async_unsafe
from psycopg.pq import Format, TransactionStatus

from hearts_site.postgresql.exchange import COMMIT, Sent, Statement, receive, send

logger = logging.getLogger("django.db.backends")


@dataclass
class _InFlight:
    """A COMMIT sent and not answered yet, with what to do once it is."""

    sent: Sent
    statements: list[Statement]
    began: float
    autocommit: bool | None = None  # what Django asked for meanwhile, applied after the answer


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._held: list[Statement] = []  # writes not sent yet, in the order they were given
        self._answer_later = False
        self._in_flight: _InFlight | None = None

    # --- what a move's view uses ---------------------------------------------------------

    @contextmanager
    def commits_answered_later(self) -> Iterator[None]:
        """Send a commit's writes without waiting; read the answer when the block ends.

        Raises the commit's error, if it failed, at the end of the block.
        """
        self._answer_later = True
        try:
            yield
        finally:
            self._answer_later = False
            self.answer_commit()

    def answer_commit(self) -> None:
        """Read the answer to a COMMIT in flight, if any; then run its on_commit callbacks."""
        flight, self._in_flight = self._in_flight, None
        if flight is None:
            return
        psycopg_connection = flight.sent.connection  # the one it was sent on
        try:
            self._receive(flight)
        except Exception:
            self.run_on_commit = []  # nothing was committed: the callbacks must not run
            # Leave the connection as Django believes it is, if it still works: a failed
            # write left the transaction open. Its own error is the one to raise.
            with contextlib.suppress(Exception):
                if psycopg_connection.pgconn.transaction_status != TransactionStatus.IDLE:
                    psycopg_connection.rollback()
                if flight.autocommit is not None:
                    psycopg_connection.autocommit = flight.autocommit
            raise
        if flight.autocommit is not None:
            with self.wrap_database_errors:
                psycopg_connection.autocommit = flight.autocommit
        self.run_and_clear_commit_hooks()

    # --- what games.rows uses ------------------------------------------------------------

    @async_unsafe
    def fetch_rows(self, sql: str, params: Sequence[Any]) -> list[tuple]:
        """Run a query and return its rows, as `cursor.execute()` then `fetchall()` would."""
        self.answer_commit()
        if self.execute_wrappers:
            with self.cursor() as cursor:
                cursor.execute(sql, params)
                return cursor.fetchall()
        self._ready()
        return self._send([Statement(sql, params)], loaders=self._loaders())

    @async_unsafe
    def write(self, sql: str, params: Sequence[Any]) -> None:
        """Run an INSERT or UPDATE; in a transaction, with whatever the connection does next."""
        self.answer_commit()
        if not self.in_atomic_block or self.execute_wrappers:
            with self.cursor() as cursor:
                cursor.execute(sql, params)
            return
        self._ready()
        self._held.append(Statement(sql, params))

    # --- Django's hooks ------------------------------------------------------------------

    @async_unsafe
    def create_cursor(self, name=None):
        # Whatever a cursor runs comes after the writes held back, and after the answer to
        # a commit in flight.
        self.answer_commit()
        self._send_held()
        return super().create_cursor(name)

    def _commit(self) -> None:
        self.answer_commit()
        if self.connection is None or not self._held:
            return super()._commit()
        if self._answer_later:
            self._in_flight = self._start([COMMIT])
        else:
            self._send([COMMIT])
        return None

    def _rollback(self) -> None:
        self.answer_commit()
        self._held.clear()
        return super()._rollback()

    def _close(self) -> None:
        try:
            self.answer_commit()
        finally:
            self._held.clear()
            super()._close()

    def _set_autocommit(self, autocommit: bool) -> None:
        if self._in_flight is not None and autocommit:
            # Django turns autocommit back on right after the commit: done once it is answered.
            self._in_flight.autocommit = autocommit
            return
        self.answer_commit()
        super()._set_autocommit(autocommit)

    def run_and_clear_commit_hooks(self) -> None:
        if self._in_flight is None:  # else: once the commit is answered (`answer_commit`)
            super().run_and_clear_commit_hooks()

    def is_usable(self) -> bool:
        self.answer_commit()
        return super().is_usable()

    # --- sending -------------------------------------------------------------------------

    def _ready(self) -> None:
        """Make the checks a cursor makes before a statement."""
        self.close_if_health_check_failed()
        self.ensure_connection()
        self.validate_thread_sharing()
        self.validate_no_broken_transaction()

    def _send_held(self) -> None:
        if self._held and self.connection is not None:
            self._send([])

    def _outgoing(self, statements: list[Statement]) -> list[Statement]:
        """Return the held writes and these statements, opening the transaction first if
        psycopg would (outside autocommit, before the first statement)."""
        psycopg_connection = self.connection
        sending = [*self._held, *statements]
        self._held = []
        if (
            not psycopg_connection.autocommit
            and psycopg_connection.pgconn.transaction_status == TransactionStatus.IDLE
        ):
            begin = psycopg_connection._get_tx_start_command().decode()
            sending.insert(0, Statement(begin))
        return sending

    def _send(self, statements: list[Statement], loaders=None) -> list[tuple]:
        """Send the held writes and these statements in one exchange; wait for the answer."""
        return self._receive(self._start(statements, loaders))

    def _start(self, statements: list[Statement], loaders=None) -> _InFlight:
        """Send the held writes and these statements in one exchange; answer later."""
        sending = self._outgoing(statements)
        began = time.monotonic()
        try:
            with self.wrap_database_errors:
                return _InFlight(send(self.connection, sending, loaders), sending, began)
        except Exception:
            if self.queries_logged:
                self._log(sending, time.monotonic() - began)
            raise

    def _receive(self, flight: _InFlight) -> list[tuple]:
        """Read the answer to an exchange; log its statements as Django would."""
        try:
            with self.wrap_database_errors:
                return receive(flight.sent)
        finally:
            if self.queries_logged:
                self._log(flight.statements, time.monotonic() - flight.began)

    def _loaders(self):
        """Return what to read values with: the connection, or a cursor with Django's zone."""
        tzloader = self.connection.adapters.get_loader(base.TIMESTAMPTZ_OID, Format.TEXT)
        if self.timezone != tzloader.timezone:
            return super().create_cursor()  # Django registers its time zone on the cursor
        return None

    def _log(self, statements: list[Statement], duration: float) -> None:
        """Log the statements as Django's debug cursor would.

        Not the BEGIN: Django logs one already, when the transaction is asked for.
        """
        logged = [s for s in statements if not s.sql.startswith("BEGIN")]
        for number, statement in enumerate(logged):
            # One exchange, one duration: given to its last statement, the one waited for.
            seconds = duration if number == len(logged) - 1 else 0.0
            self.queries_log.append({"sql": statement.sql, "time": f"{seconds:.3f}"})
            logger.debug(
                "(%.3f) %s; args=%s; alias=%s",
                seconds,
                statement.sql,
                statement.params,
                self.alias,
                extra={
                    "duration": seconds,
                    "sql": statement.sql,
                    "params": statement.params,
                    "alias": self.alias,
                },
            )
