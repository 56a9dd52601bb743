"""Django's PostgreSQL backend, with a move's transaction in two round trips instead of four.

`games.rows` reads through `fetch_rows` and writes through `write`:

- a read that opens the transaction carries the BEGIN along (psycopg would send it alone, on
  a round trip of its own, before the first statement);
- a write inside a transaction is held back until whatever the connection does next: the
  next statement takes it along, and so does the COMMIT. A move's writes are its last
  statements, so they and the COMMIT make one exchange. A rollback (to a savepoint too) drops
  nothing it should not: a savepoint's statement goes out through a cursor, which sends the
  held writes first, and a rollback of the whole transaction would undo them anyway.

Everything else (the ORM, cursors, savepoints) works as in Django's backend; any cursor first
sends the writes held back, so statements always run in the order they were given. With
`connection.execute_wrapper` in use, reads and writes go through cursors, so that the
wrappers see them. See `hearts_site.postgresql.exchange` for how the statements are sent.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from django.db.backends.postgresql import base
from django.utils.asyncio import async_unsafe
from psycopg.pq import Format, TransactionStatus

from hearts_site.postgresql.exchange import COMMIT, Statement, exchange

logger = logging.getLogger("django.db.backends")


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._held: list[Statement] = []  # writes not sent yet, in the order they were given

    # --- what games.rows uses ------------------------------------------------------------

    @async_unsafe
    def fetch_rows(self, sql: str, params: Sequence[Any]) -> list[tuple]:
        """Run a query and return its rows, as `cursor.execute()` then `fetchall()` would."""
        if self.execute_wrappers:
            with self.cursor() as cursor:
                cursor.execute(sql, params)
                return cursor.fetchall()
        self._ready()
        return self._send([Statement(sql, params)], loaders=self._loaders())

    @async_unsafe
    def write(self, sql: str, params: Sequence[Any]) -> None:
        """Run an INSERT or UPDATE; in a transaction, with whatever the connection does next."""
        if not self.in_atomic_block or self.execute_wrappers:
            with self.cursor() as cursor:
                cursor.execute(sql, params)
            return
        self._ready()
        self._held.append(Statement(sql, params))

    # --- Django's hooks ------------------------------------------------------------------

    @async_unsafe
    def create_cursor(self, name=None):
        # Whatever a cursor runs comes after the writes held back.
        self._send_held()
        return super().create_cursor(name)

    def _commit(self) -> None:
        if self.connection is None or not self._held:
            return super()._commit()
        self._send([COMMIT])
        return None

    def _rollback(self) -> None:
        self._held.clear()
        return super()._rollback()

    def _close(self) -> None:
        self._held.clear()
        return super()._close()

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

    def _send(self, statements: list[Statement], loaders=None) -> list[tuple]:
        """Send the held writes and these statements in one exchange, opening the transaction
        first if psycopg would (outside autocommit, before the first statement)."""
        psycopg_connection = self.connection
        sending = [*self._held, *statements]
        self._held = []
        if (
            not psycopg_connection.autocommit
            and psycopg_connection.pgconn.transaction_status == TransactionStatus.IDLE
        ):
            begin = psycopg_connection._get_tx_start_command().decode()
            sending.insert(0, Statement(begin))
        began = time.monotonic()
        try:
            with self.wrap_database_errors:
                return exchange(psycopg_connection, sending, loaders)
        finally:
            if self.queries_logged:
                self._log(sending, time.monotonic() - began)

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
