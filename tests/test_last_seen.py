"""A player's last visit is recorded cheaply: at most one write a minute, sync or async."""

from datetime import timedelta

import pytest
from asgiref.sync import iscoroutinefunction
from django.db import connection
from django.test import AsyncClient
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.notifications import seen
from games.notifications.seen import LastSeenMiddleware
from tests.async_helpers import run_async
from tests.live_helpers import connect
from tests.notify_helpers import settings_of


@pytest.fixture(autouse=True)
def a_minute(settings):
    settings.SEEN_WRITE_SECONDS = 60


def writes_of_last_seen(queries) -> list[str]:
    return [
        q["sql"] for q in queries.captured_queries
        if q["sql"].startswith("UPDATE") and "last_seen" in q["sql"]
    ]  # fmt: skip


def test_a_signed_in_request_records_the_time(client, clock, alice):
    assert settings_of(alice).last_seen is None
    client.force_login(alice)
    client.get(reverse("home"))
    assert settings_of(alice).last_seen == clock.now()


def test_requests_within_a_minute_write_nothing(client, clock, alice):
    client.force_login(alice)
    first = clock.now()
    client.get(reverse("home"))
    clock.advance(seconds=59)
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("lobby"))
    assert writes_of_last_seen(queries) == []
    assert settings_of(alice).last_seen == first
    clock.advance(seconds=1)
    client.get(reverse("lobby"))
    assert settings_of(alice).last_seen == clock.now()


def test_another_process_within_the_minute_changes_nothing(client, clock, alice):
    """The stored time is compared too, so several server processes still write once."""
    client.force_login(alice)
    first = clock.now()
    client.get(reverse("home"))
    seen.forget_writes()  # as if the next request reached another process
    clock.advance(seconds=30)
    client.get(reverse("home"))
    assert settings_of(alice).last_seen == first


def test_an_anonymous_request_records_nothing(client, clock, alice):
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("home"))
    assert writes_of_last_seen(queries) == []
    assert settings_of(alice).last_seen is None


def test_the_middleware_serves_sync_and_async_stacks_without_an_adapter():
    assert LastSeenMiddleware.sync_capable and LastSeenMiddleware.async_capable

    async def async_view(request):
        return None

    assert iscoroutinefunction(LastSeenMiddleware(async_view))
    assert not iscoroutinefunction(LastSeenMiddleware(lambda request: None))


@pytest.mark.django_db(transaction=True)
def test_an_async_request_records_the_time(clock, alice):
    client = AsyncClient()
    client.force_login(alice)

    async def visit_twice():
        assert (await client.get(reverse("home"))).status_code == 200
        clock.advance(seconds=10)
        await client.get(reverse("home"))

    run_async(visit_twice)
    assert settings_of(alice).last_seen == clock.now() - timedelta(seconds=10)


@pytest.mark.django_db(transaction=True)
def test_opening_the_live_socket_counts_as_being_seen(clock, alice):
    async def open_a_page():
        communicator, connected = await connect(alice)
        assert connected
        await communicator.disconnect()

    run_async(open_a_page)
    assert settings_of(alice).last_seen == clock.now()


def test_the_memo_forgets_stale_entries_once_it_grows(monkeypatch, clock):
    monkeypatch.setattr(seen, "_MEMO_LIMIT", 3)
    for user_id in (1, 2, 3):
        assert seen.due(user_id, clock.now())
    clock.advance(seconds=61)
    assert seen.due(4, clock.now())
    assert set(seen._written) == {4}
