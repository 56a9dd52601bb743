"""A server process keeps its SQLite log open between requests."""

import sqlite3

from hearts_site import sqlite_wal

SQLITE = "django.db.backends.sqlite3"


def test_it_holds_an_idle_connection_to_an_existing_database_file(tmp_path, monkeypatch):
    path = tmp_path / "site.sqlite3"
    sqlite3.connect(path).execute("PRAGMA journal_mode=WAL").fetchall()
    monkeypatch.setattr(sqlite_wal, "_keepers", [])
    sqlite_wal.keep_wal_open({"default": {"ENGINE": SQLITE, "NAME": str(path)}})
    assert len(sqlite_wal._keepers) == 1
    writer = sqlite3.connect(path)
    writer.execute("CREATE TABLE t (x)")
    writer.commit()
    writer.close()
    # The last request's connection is gone, yet the log stays: no checkpoint on every close.
    assert (tmp_path / "site.sqlite3-wal").exists()
    sqlite_wal._keepers[0].close()


def test_it_never_creates_a_database_and_skips_other_engines(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_wal, "_keepers", [])
    sqlite_wal.keep_wal_open(
        {
            "default": {"ENGINE": SQLITE, "NAME": str(tmp_path / "none.db")},
            "other": {"ENGINE": "django.db.backends.postgresql", "NAME": "hearts"},
        }
    )
    assert sqlite_wal._keepers == []
    assert not (tmp_path / "none.db").exists()
