"""The live socket: who may connect, which matches they may follow, and what a move sends them."""

import time

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import AnonymousUser

from games import access, services
from games.live import match_group
from tests.async_helpers import run_async
from tests.factories import make_match
from tests.live_helpers import card_text_in, connect, receive_until
from tests.live_setup import mid_trick, passing
from tests.service_helpers import act

pytestmark = pytest.mark.django_db(transaction=True)
UNKNOWN = 987654


@pytest.fixture
def bob(make_user):
    return make_user("bob", "Bob")


def without_sent(event: dict, since: float = 0.0) -> dict:
    """Check that the event says when it was sent (after `since`, not later than now); drop it."""
    event = dict(event)
    sent = event.pop("sent")
    assert isinstance(sent, float) and since <= sent <= time.time()
    return event


def test_an_anonymous_connection_is_refused():
    async def scenario():
        communicator, connected = await connect()
        assert not connected
        await communicator.disconnect()

    run_async(scenario)


def test_a_signed_in_player_may_follow_a_match_they_do_not_play_in(alice, make_user):
    carol = make_user("carol")
    match = make_match(alice)

    async def scenario():
        communicator, connected = await connect(carol)
        assert connected
        await communicator.send_json_to({"follow": match.pk})
        answer = await communicator.receive_json_from()
        assert answer == {
            "type": "following",
            "match": match.pk,
            "version": match.version,
            "status": "active",
            "to_act": [alice.pk],
        }
        await communicator.disconnect()

    run_async(scenario)


def test_an_unknown_match_is_refused_and_its_events_never_arrive(alice):
    async def scenario():
        communicator, _ = await connect(alice)
        await communicator.send_json_to({"follow": UNKNOWN})
        answer = await communicator.receive_json_from()
        assert answer["type"] == "error" and answer["follow"] == UNKNOWN
        event = {"type": "match.updated", "match": UNKNOWN, "version": 2, "status": "active"}
        await get_channel_layer().group_send(match_group(UNKNOWN), {**event, "to_act": []})
        assert await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()

    run_async(scenario)


def test_an_event_without_a_sent_time_still_reaches_the_page(alice):
    # A process started before events said when they were sent may share the Redis layer.
    match = make_match(alice)
    event = {"type": "match.updated", "match": match.pk, "version": 9, "status": "active"}

    async def scenario():
        communicator, _ = await connect(alice)
        await communicator.send_json_to({"follow": match.pk})
        await communicator.receive_json_from()
        await get_channel_layer().group_send(match_group(match.pk), {**event, "to_act": []})
        assert await communicator.receive_json_from() == {**event, "to_act": []}
        await communicator.disconnect()

    run_async(scenario)


def test_only_signed_in_users_may_view_a_match(alice):
    match = make_match(alice)
    assert access.may_view(alice, match)
    assert not access.may_view(AnonymousUser(), match)
    assert access.viewable_match(alice, UNKNOWN) is None


@pytest.mark.parametrize("message", ["not json", '{"follow": "12"}', '{"follow": true}', "[1]"])
def test_a_malformed_message_is_answered_and_the_socket_stays_open(alice, message):
    match = make_match(alice)

    async def scenario():
        communicator, _ = await connect(alice)
        await communicator.send_to(text_data=message)
        assert (await communicator.receive_json_from())["type"] == "error"
        await communicator.send_json_to({"follow": match.pk})
        assert (await communicator.receive_json_from())["type"] == "following"
        await communicator.disconnect()

    run_async(scenario)


def test_a_card_reaches_the_followers_and_tells_the_next_player_it_is_their_turn(
    alice, bob, make_user
):
    carol = make_user("carol")
    match, card = mid_trick(alice, bob)  # alice plays, then bob

    async def scenario():
        watcher, _ = await connect(carol)
        player, _ = await connect(bob)
        mover, _ = await connect(alice)
        for communicator in (watcher, player):
            await communicator.send_json_to({"follow": match.pk})
            await communicator.receive_json_from()
        before = time.time()
        changed = await database_sync_to_async(services.play_card)(
            alice, match.pk, match.version, card
        )
        after = changed.match

        updated = {
            "type": "match.updated",
            "match": match.pk,
            "version": after.version,
            "status": "active",
            "to_act": [bob.pk],
        }
        assert without_sent(await watcher.receive_json_from(), before) == updated
        events = await receive_until(player, lambda got: len(got) == 2)
        notice = {"type": "turn.notify", "match": match.pk, "version": after.version}
        events = [without_sent(event, before) for event in events]
        assert sorted(events, key=lambda e: e["type"]) == [updated, notice]
        # Alice follows nothing and has played: nothing is hers to hear.
        assert await mover.receive_nothing(timeout=0.3)
        for communicator in (watcher, player, mover):
            await communicator.disconnect()

    run_async(scenario)


def test_a_player_still_to_pass_is_not_told_again_when_another_passes(alice, bob):
    match = passing(alice, bob)

    async def scenario():
        communicator, _ = await connect(bob)
        await database_sync_to_async(act)(alice, match, 0)
        assert await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()

    run_async(scenario)


def test_no_event_carries_any_card(alice, bob):
    match = make_match(alice, people=[bob])

    async def scenario():
        sockets = {alice.pk: (await connect(alice))[0], bob.pk: (await connect(bob))[0]}
        for communicator in sockets.values():
            await communicator.send_json_to({"follow": match.pk})
            await communicator.receive_json_from()
        seats = {0: alice, 1: bob}
        events = []
        for _ in range(12):  # both pass, then both play cards, the bots in between
            seat = await database_sync_to_async(_person_to_act)(match)
            await database_sync_to_async(act)(seats[seat], match, seat)
            for communicator in sockets.values():
                events += await receive_until(
                    communicator, lambda got: got[-1]["type"] == "match.updated"
                )
        assert len(events) >= 24
        assert {e["type"] for e in events} == {"match.updated", "turn.notify"}
        leaks = {str(e): card_text_in(e) for e in events if card_text_in(e)}
        assert not leaks
        for communicator in sockets.values():
            await communicator.disconnect()

    run_async(scenario)


def _person_to_act(match) -> int:
    match.refresh_from_db()
    return match.seats.filter(to_act=True).order_by("position").first().position


def test_following_another_match_leaves_the_first(alice, bob):
    (first, first_card), (second, second_card) = mid_trick(alice, bob), mid_trick(alice, bob)

    async def scenario():
        communicator, _ = await connect(bob)
        for match in (first, second):
            await communicator.send_json_to({"follow": match.pk})
            await communicator.receive_json_from()
        play = database_sync_to_async(services.play_card)
        after = await play(alice, first.pk, first.version, first_card)
        # Bob's turn comes in the first match: he hears that, not how its table changed.
        assert without_sent(await communicator.receive_json_from()) == {
            "type": "turn.notify",
            "match": first.pk,
            "version": after.match.version,
        }
        assert await communicator.receive_nothing(timeout=0.3)
        await play(alice, second.pk, second.version, second_card)
        events = await receive_until(communicator, lambda got: len(got) == 2)
        assert {(e["type"], e["match"]) for e in events} == {
            ("match.updated", second.pk),
            ("turn.notify", second.pk),
        }
        await communicator.disconnect()

    run_async(scenario)


def test_a_refused_move_sends_nothing(alice):
    match = make_match(alice)

    async def scenario():
        communicator, _ = await connect(alice)
        await communicator.send_json_to({"follow": match.pk})
        await communicator.receive_json_from()
        with pytest.raises(services.StaleVersion):
            await database_sync_to_async(services.pass_cards)(
                alice, match.pk, match.version + 1, ["2C", "3C", "4C"]
            )
        assert await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()

    run_async(scenario)


def test_following_after_a_change_answers_with_the_newer_version(alice):
    match = make_match(alice)
    rendered = match.version
    after = act(alice, match, 0)

    async def scenario():
        communicator, _ = await connect(alice)
        await communicator.send_json_to({"follow": match.pk})
        answer = await communicator.receive_json_from()
        assert answer["version"] == after.version > rendered
        await communicator.disconnect()

    run_async(scenario)


def test_a_channel_layer_that_fails_does_not_undo_the_move(alice, monkeypatch, caplog):
    class Broken:
        async def group_send(self, group, message):
            raise ConnectionError("the layer is down")

    monkeypatch.setattr("games.live.get_channel_layer", lambda: Broken())
    match = make_match(alice)
    after = act(alice, match, 0)
    assert after.version == match.version + 1
    assert "Could not relay" in caplog.text


def test_a_session_may_hold_only_so_many_sockets_at_once(alice, settings):
    """A script opening socket after socket on one session is refused past the limit."""
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from hearts_site.asgi import application
    from tests.live_helpers import session_headers

    settings.LIVE_SOCKETS_PER_SESSION = 3

    async def scenario():
        headers = await sync_to_async(session_headers)(alice)  # one session for every socket

        async def open_one():
            socket = WebsocketCommunicator(application, "/ws/live/", headers=headers)
            connected, _ = await socket.connect(timeout=5)
            return socket, connected

        opened = [await open_one() for _ in range(3)]
        assert all(connected for _, connected in opened)
        extra, connected = await open_one()
        assert not connected
        await opened[0][0].disconnect()  # a page closed frees its place
        again, connected = await open_one()
        assert connected
        # Another session of the same player counts apart.
        other = await sync_to_async(session_headers)(alice)
        fresh = WebsocketCommunicator(application, "/ws/live/", headers=other)
        assert (await fresh.connect(timeout=5))[0]
        for socket in [*(s for s, _ in opened[1:]), again, fresh]:
            await socket.disconnect()

    run_async(scenario)


def test_the_lobby_hears_when_its_lists_change(alice, bob):
    async def scenario():
        communicator, _ = await connect(bob)
        await communicator.send_json_to({"lobby": True})
        assert await communicator.receive_json_from() == {"type": "lobby.following"}
        match = await database_sync_to_async(make_match)(alice, start=False)
        await receive_until(communicator, lambda events: events[-1] == {"type": "lobby.changed"})
        await database_sync_to_async(services.join_match)(bob, match.pk)
        events = await receive_until(
            communicator, lambda events: {"type": "lobby.changed"} in events
        )
        assert all("card" not in str(event) for event in events)
        await communicator.disconnect()

    run_async(scenario)
