"""Backups of the site's database, taken while it runs, and their restoring.

SQLite (the default profile): Python's own online backup (`sqlite3.Connection.backup`), which
copies a consistent state of the database page by page while the site goes on writing; the
copy is an ordinary SQLite file. PostgreSQL: `pg_dump --format=custom`, a consistent
snapshot taken in one transaction, restored with `pg_restore` into an empty database.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.db import connections


class BackupError(Exception):
    """A backup or a restore could not be made; the message says why."""


def _settings(alias: str = "default") -> dict[str, Any]:
    return connections[alias].settings_dict


def vendor(alias: str = "default") -> str:
    return connections[alias].vendor


def _pg_env(db: dict[str, Any]) -> dict[str, str]:
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return env


def _pg_target(db: dict[str, Any]) -> list[str]:
    args = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args += [flag, str(db[key])]
    return args


def back_up(path: Path, alias: str = "default") -> Path:
    """Write a backup of the database to `path` (refused if it exists); return it."""
    if path.exists():
        raise BackupError(f"{path} exists already: choose a new name")
    path.parent.mkdir(parents=True, exist_ok=True)
    db = _settings(alias)
    if vendor(alias) == "sqlite":
        source = sqlite3.connect(str(db["NAME"]), timeout=30)
        target = sqlite3.connect(str(path))
        try:
            with target:
                source.backup(target, pages=1024)  # a slice at a time: writers go on between
        finally:
            target.close()
            source.close()
        return path
    if vendor(alias) == "postgresql":
        command = ["pg_dump", "--format=custom", "--file", str(path), *_pg_target(db), db["NAME"]]
        _run(command, _pg_env(db))
        return path
    raise BackupError(f"No backup for a {vendor(alias)} database")


def restore(path: Path, target: str, alias: str = "default") -> None:
    """Restore the backup at `path` into `target`: for SQLite a file that must not exist yet;
    for PostgreSQL the name of an empty database on the same server."""
    if not path.exists():
        raise BackupError(f"There is no backup at {path}")
    db = _settings(alias)
    if vendor(alias) == "sqlite":
        destination = Path(target)
        if destination.exists():
            raise BackupError(f"{destination} exists already: restore into a new file")
        check = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if check.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise BackupError(f"{path} is not a sound SQLite database")
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path} is not a SQLite database: {error}") from error
        finally:
            check.close()
        shutil.copyfile(path, destination)
        return
    if vendor(alias) == "postgresql":
        command = ["pg_restore", "--no-owner", "--exit-on-error", *_pg_target(db),
                   "--dbname", target, str(path)]  # fmt: skip
        _run(command, _pg_env(db))
        return
    raise BackupError(f"No restore for a {vendor(alias)} database")


def _run(command: list[str], env: dict[str, str]) -> None:
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    except FileNotFoundError as error:
        raise BackupError(f"{command[0]} is not installed (PostgreSQL's client tools)") from error
    if done.returncode:
        raise BackupError(f"{command[0]} failed: {done.stderr.strip()[-2000:]}")
