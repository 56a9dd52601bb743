"""Backups taken during play restore into a new database where every match replays and play
goes on (`manage.py backup`, `restore`, `check_matches`; README "Backups"), on the profile the
suite runs on: SQLite's online backup, or pg_dump and pg_restore."""

import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import Action, Match, MatchStatus
from tests.live_setup import mid_trick
from tests.servers import ROOT, site_env
from tests.service_helpers import act

pytestmark = pytest.mark.django_db(transaction=True)

# Run in the restored site: the next decision of whoever owes one, through the services.
PLAY_ON = """
from games.models import Match, Seat
from tests.service_helpers import act
match = Match.objects.get(pk={match})
seat = Seat.objects.filter(match=match, to_act=True, user__isnull=False).first()
before = match.version
after = act(seat.user, match, seat.position)
print(before, after.version)
"""


@pytest.fixture(autouse=True)
def needs_a_database_another_process_can_open():
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("another process cannot open an in-memory SQLite database")


@pytest.fixture
def bob(make_user):
    return make_user("bob", "Bob")


def keep_playing(match: Match, people: dict, stop: threading.Event, played: list) -> None:
    """Make the people's decisions, one after another, until told to stop."""
    try:
        while not stop.is_set():
            match.refresh_from_db()
            if match.status != MatchStatus.ACTIVE:
                return
            seat = match.seats.filter(to_act=True, user__isnull=False).first()
            if seat is None:
                return
            act(people[seat.user_id], match, seat.position)
            played.append(seat.position)
    finally:
        connection.close()


@pytest.fixture
def restored_database(tmp_path):
    """A new database to restore into, with its URL for a process of the site; dropped after."""
    if connection.vendor == "sqlite":
        path = tmp_path / "restored.sqlite3"
        yield str(path), f"sqlite:///{path}"
        return
    import psycopg

    db = connection.settings_dict
    name = f"restored_{uuid.uuid4().hex[:12]}"
    admin = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/postgres"
    with psycopg.connect(admin, autocommit=True) as server:
        server.execute(f"CREATE DATABASE {name}")
    try:
        yield name, f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as server:
            server.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def manage(url: str, *args: str) -> subprocess.CompletedProcess:
    env = site_env(Path("unused"))
    env["DATABASE_URL"] = url
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_a_backup_taken_during_play_restores_replays_and_plays_on(
    alice, bob, tmp_path, restored_database
):
    match, _ = mid_trick(alice, bob)
    stop, played = threading.Event(), []
    player = threading.Thread(
        target=keep_playing, args=(match, {alice.pk: alice, bob.pk: bob}, stop, played)
    )
    player.start()
    try:
        while len(played) < 3:  # the backup starts with the moves under way
            player.join(timeout=0.05)
            assert player.is_alive() or len(played) >= 3
        backup = tmp_path / "backups" / "hearts.backup"
        call_command("backup", str(backup))
    finally:
        stop.set()
        player.join(timeout=60)
    assert played, "moves were made while the backup ran"
    target, url = restored_database
    call_command("restore", str(backup), target)

    checked = manage(url, "check_matches")
    assert checked.returncode == 0, checked.stderr
    assert "Every match replays as stored (1 checked)." in checked.stdout
    # The restored log is a prefix of what was played, the whole of it up to some move.
    restored = manage(url, "shell", "-c", PLAY_ON.format(match=match.pk))
    assert restored.returncode == 0, restored.stderr
    before, after = map(int, restored.stdout.split()[-2:])
    assert after > before, "play goes on in the restored site"
    assert before <= Match.objects.get(pk=match.pk).version
    assert manage(url, "check_matches").returncode == 0
    assert Action.objects.filter(match=match).count() >= 1


def test_a_backup_is_never_written_over_nor_restored_over_a_file(tmp_path, alice):
    backup = tmp_path / "hearts.backup"
    call_command("backup", str(backup))
    with pytest.raises(CommandError, match="exists already"):
        call_command("backup", str(backup))
    if connection.vendor == "sqlite":
        taken = tmp_path / "taken.sqlite3"
        taken.write_bytes(b"")
        with pytest.raises(CommandError, match="exists already"):
            call_command("restore", str(backup), str(taken))
    with pytest.raises(CommandError, match="no backup"):
        call_command("restore", str(tmp_path / "missing.backup"), str(tmp_path / "new.sqlite3"))


def test_a_file_that_is_not_a_backup_is_refused(tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("pg_restore checks its own archives")
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(CommandError, match="not a"):
        call_command("restore", str(junk), str(tmp_path / "new.sqlite3"))


def test_check_matches_fails_on_a_log_that_does_not_replay(alice, bob):
    match, _ = mid_trick(alice, bob)
    call_command("check_matches")
    Action.objects.filter(match=match).order_by("-id").first().delete()
    with pytest.raises(CommandError, match="1 of 1 matches do not replay"):
        call_command("check_matches")
