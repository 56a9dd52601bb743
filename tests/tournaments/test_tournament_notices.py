"""Seated players hear where to go on their live socket, on whatever page they are."""

import pytest
from channels.db import database_sync_to_async

from games.services import tournaments as tours
from tests.async_helpers import run_async
from tests.live_helpers import card_text_in, connect, receive_until
from tests.tournament_helpers import enter, make_players, make_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_seating_and_starting_a_round_tell_each_player_where_to_go(make_user):
    staff = make_user("boss", is_staff=True)
    tournament = make_tournament()
    players = make_players(3)
    enter(tournament, players)

    async def scenario():
        communicator, connected = await connect(players[0])
        assert connected
        await database_sync_to_async(tours.seat_next_round)(tournament.pk)
        seated = await communicator.receive_json_from(timeout=5)
        assert seated == {
            "type": "tournament.seated",
            "tournament": "Winter Cup",
            "round": 1,
            "table": 1,
            "url": "/tournaments/winter-cup/",
        }
        round_ = await database_sync_to_async(tours.start_round)(tournament.pk, staff)
        match_id = await database_sync_to_async(lambda: round_.tables.get().match_id)()
        events = await receive_until(
            communicator, lambda got: any(e["type"] == "tournament.seated" for e in got)
        )
        notice = next(e for e in events if e["type"] == "tournament.seated")
        assert notice["url"] == f"/matches/{match_id}/"
        assert all(card_text_in(event) == [] for event in [seated, *events])
        await communicator.disconnect()

    run_async(scenario)
