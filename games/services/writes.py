"""The transaction every change to a match runs in.

On PostgreSQL it is `transaction.atomic`: row locks order the writers. SQLite has one write
lock for the whole file, taken at BEGIN (the site opens its transactions IMMEDIATE), and a
writer that finds it taken polls through SQLite's busy handler, sleeping 1, 2, 5, 10 ... up to
100 ms between tries. Under load a writer that has waited a while sleeps through the moments
the lock is free while newcomers, polling fast, take it first: with eight players moving at
once a card's p99 reached hundreds of milliseconds (bench/README.md, "Saturation"). The SQLite
profile serves from one process, so its writers first take turns on a lock in that process,
which wakes the next one the moment the last one is done; SQLite's own lock is then almost
always free when they ask. Writers elsewhere (sessions, the last-seen stamp) still use the busy
handler; their transactions are short.

`SQLITE_WRITERS_TAKE_TURNS=0` in the environment (the setting of that name) switches it off.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import connection, transaction

# Re-entrant: a commit's `on_commit` callbacks run inside `transaction.atomic`'s exit, while
# this thread still holds the lock, and one of them may write again (outside a server, the
# bots that follow a move play there and then: `games/background/bot_runner.py`).
_writers = threading.RLock()


@contextmanager
def write_transaction() -> Iterator[None]:
    """Run the block in one transaction; on SQLite, after this process's other writers."""
    # Inside a transaction already, this thread holds SQLite's write lock: waiting here for
    # another writer, who would be waiting for that lock, would deadlock.
    taking_turns = (
        connection.vendor == "sqlite"
        and not connection.in_atomic_block
        and settings.SQLITE_WRITERS_TAKE_TURNS
    )
    if not taking_turns:
        with transaction.atomic():
            yield
        return
    with _writers, transaction.atomic():
        yield
