"""Shared fixtures: a few players with known passwords."""

import gc
import os

import pytest
from django.contrib.auth import get_user_model

from tests.parallel import WORKER

PASSWORD = "correct-horse-battery"


def pytest_sessionstart(session) -> None:
    """Compile the translation catalogues first, as `serve` does: the .mo files are not kept.

    In a parallel run the main process compiles them before it starts the workers, which would
    otherwise write the same files at once.
    """
    if WORKER:
        return
    from django.core.management import call_command

    call_command("compiletranslations", verbosity=0)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test databases, with the connections async tests left behind closed first.

    `database_sync_to_async` opens a connection in a context that ends with the test; the
    connection closes only when Python collects it. PostgreSQL refuses to drop a database
    with a session open, so collect them before the test databases are dropped.
    """
    yield
    gc.collect()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hash with a cheap algorithm: the real one is slow on purpose, and tests log in a lot."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def scaled_out_profile(transactional_db) -> None:
    """Skip unless the suite runs on PostgreSQL with Redis (tests/scaled_out.py)."""
    from django.db import connection

    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        pytest.skip(
            "Runs on the scaled-out profile only "
            "(DATABASE_URL=postgres://... and REDIS_URL=redis://...)"
        )


@pytest.fixture
def real_password_hashing(settings) -> None:
    """Hash as the site does: the daphne processes check these passwords with their settings."""
    from django.conf import global_settings

    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS


@pytest.fixture(autouse=True)
def fresh_last_seen_memo():
    """Start each test with no remembered last-seen write, whatever ids earlier tests used."""
    from games.notifications import seen

    seen.forget_writes()


@pytest.fixture(autouse=True)
def fresh_engine_states():
    """Start each test with no kept engine state: match ids come round again."""
    from games.services import states

    states.forget()


@pytest.fixture
def fresh_limits():
    """Start and end with no request counted (`games.lib.limits`): the cache outlives tests."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def clock(monkeypatch):
    """Stop the site's clock at a known time; tests move it with `clock.advance(minutes=...)`."""
    from tests.notify_helpers import Clock

    stopped = Clock()
    monkeypatch.setattr("games.lib.clock.now", stopped.now)
    return stopped


@pytest.fixture
def make_user(db):
    """Create a user with a display name and the shared test password."""

    def make(username: str, display_name: str | None = None, **extra):
        user = get_user_model().objects.create_user(username=username, password=PASSWORD, **extra)
        user.profile.display_name = display_name or username.title()
        user.profile.save()
        return user

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice", "Alice", email="alice@example.com")


@pytest.fixture
def bob(make_user):
    return make_user("bob", "Bob", email="bob@example.com")
