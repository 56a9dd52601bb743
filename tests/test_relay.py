"""The relay: on the in-memory channel layer, a worker's live events reach the server's sockets
through the database (games/live.py). End to end, with real processes: test_worker_events.py."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import transaction

from games import live, services
from games.lib import process_role
from games.live import match_group, user_group
from games.models import RelayedEvent
from tests.async_helpers import run_async
from tests.live_helpers import card_text_in, connect, receive_until
from tests.live_setup import mid_trick

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bob(make_user):
    return make_user("bob", "Bob")


@pytest.fixture
def in_a_worker(monkeypatch, settings):
    """This process as a worker on the in-memory layer: its events go through the database."""
    settings.LIVE_LAYER_SHARED = False
    monkeypatch.setattr(process_role, "_worker", True)
    assert live.through_database() is True


def test_a_worker_writes_its_events_for_the_relay_with_no_card_in_them(alice, bob, in_a_worker):
    match, card = mid_trick(alice, bob)
    with transaction.atomic():
        changed = services.play_card(alice, match.pk, match.version, card)
    rows = {row.group: row.message for row in RelayedEvent.objects.all()}
    assert rows[match_group(match.pk)]["type"] == "match.updated"
    assert rows[match_group(match.pk)]["version"] == changed.match.version
    assert rows[user_group(bob.pk)] == {
        "type": "turn.notify",
        "match": match.pk,
        "version": changed.match.version,
        "sent": rows[user_group(bob.pk)]["sent"],
    }
    assert not [text for message in rows.values() for text in card_text_in(message)]


def test_a_layer_every_process_shares_needs_no_relay(alice, bob, monkeypatch, settings):
    settings.LIVE_LAYER_SHARED = True
    monkeypatch.setattr(process_role, "_worker", True)
    assert live.through_database() is False
    match, card = mid_trick(alice, bob)
    services.play_card(alice, match.pk, match.version, card)
    assert not RelayedEvent.objects.exists()


def event(match_id: int, version: int) -> dict:
    return {"type": "match.updated", "match": match_id, "version": version, "status": "active",
            "to_act": [], "sent": 1.0}  # fmt: skip


def test_the_server_relays_the_workers_events_to_its_sockets_in_order(
    alice, bob, settings, monkeypatch
):
    settings.LIVE_LAYER_SHARED = False
    settings.RELAY_POLL_SECONDS = 0.02
    match, _ = mid_trick(alice, bob)
    group = match_group(match.pk)
    write = database_sync_to_async(
        lambda version: RelayedEvent.objects.create(group=group, message=event(match.pk, version))
    )

    async def scenario():
        # This test's loop plays the server's: the relay starts with the first socket.
        loop = asyncio.get_running_loop()
        monkeypatch.setattr(live, "server_loop", lambda: loop)
        await write(1)  # written before the relay started: the page catches up by its version
        follower, _ = await connect(bob)
        try:
            await follower.send_json_to({"follow": match.pk})
            following = await follower.receive_json_from()
            assert following["type"] == "following" and following["version"] == match.version
            for version in (2, 3, 4):
                await write(version)
            events = await receive_until(follower, lambda got: len(got) == 3)
            assert [e["version"] for e in events] == [2, 3, 4]
            assert await follower.receive_nothing(timeout=0.2)
        finally:
            await follower.disconnect()
            live.stop_relay()

    run_async(scenario)


def test_the_relay_forgets_old_events_it_has_sent(alice, bob):
    match, _ = mid_trick(alice, bob)
    old = RelayedEvent.objects.create(group=match_group(match.pk), message=event(match.pk, 1))
    long_ago = old.created_at - timedelta(seconds=live.RELAY_KEEP_SECONDS + 60)
    RelayedEvent.objects.filter(pk=old.pk).update(created_at=long_ago)
    recent = RelayedEvent.objects.create(group=match_group(match.pk), message=event(match.pk, 2))

    async def forget():
        await live.forget_events(recent.pk)

    run_async(forget)
    assert list(RelayedEvent.objects.values_list("pk", flat=True)) == [recent.pk]
