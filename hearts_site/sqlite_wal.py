"""Keep one SQLite connection open for the life of a server process.

Under ASGI every request runs in a thread of its own, so Django opens and closes a database
connection per request. When the last connection to a WAL database closes, SQLite checkpoints
the log into the database and deletes it, which made that close one of the costliest steps of a
request. An idle connection held by the process means no request's connection is ever the last:
checkpoints then happen only as the log grows, as SQLite intends.
"""

import sqlite3

from django.conf import settings

_keepers: list[sqlite3.Connection] = []


def keep_wal_open(databases: dict | None = None) -> None:
    """Open (once) an idle connection to each SQLite file database in the settings."""
    if _keepers:
        return
    for database in (databases if databases is not None else settings.DATABASES).values():
        name = str(database.get("NAME", ""))
        if database["ENGINE"] != "django.db.backends.sqlite3" or name in {"", ":memory:"}:
            continue
        if name.startswith("file:") and "mode=memory" in name:
            continue
        try:
            # mode=rw: never create a database here; migrate does that.
            keeper = sqlite3.connect(f"file:{name}?mode=rw", uri=True, check_same_thread=False)
        except sqlite3.OperationalError:
            continue
        # SQLite opens the file on first use: read once so the connection really holds it.
        keeper.execute("SELECT count(*) FROM sqlite_master").fetchone()
        _keepers.append(keeper)
