"""The live socket as daphne serves it: a move made over HTTP reaches a WebSocket client.

Once with one process (the in-memory channel layer), once with two processes sharing Redis:
the move is made through the first, the follower is connected to the second.
"""

import json
import shutil
import time

import pytest
from websockets.sync.client import connect

from tests.conftest import PASSWORD
from tests.live_helpers import card_text_in
from tests.parallel import DAPHNE_REDIS_DATABASE
from tests.servers import Visitor, daphne, require_redis, seated_match, site_env

# A Redis database of its own, so these events meet no other run's nor a parallel worker's.
REDIS_URL = f"redis://127.0.0.1:6379/{DAPHNE_REDIS_DATABASE}"
# The Redis layer waits for messages with blocking pops of 5 s each.
LONGER_THAN_A_POP = 6.5


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> tuple:
    """Migrate a SQLite file and seat the players once; each test serves its own copy."""
    database = tmp_path_factory.mktemp("live") / "site.sqlite3"
    return database, seated_match(site_env(database))


@pytest.fixture
def site(prepared, tmp_path) -> tuple:
    """Return a fresh copy of the prepared site's database, and its match."""
    template, match = prepared
    database = tmp_path / "site.sqlite3"
    shutil.copy(template, database)
    return database, match


def receive(socket_client, count: int) -> list[dict]:
    return [json.loads(socket_client.recv(timeout=10)) for _ in range(count)]


def follow_then_play(
    mover_base: str, follower_base: str, match: dict, idle: float = 0.0
) -> list[dict]:
    """Bob follows the match through one server (then idles); alice plays through another."""
    bob = Visitor(follower_base).log_in("bob", PASSWORD)
    alice = Visitor(mover_base).log_in("alice", PASSWORD)
    headers = bob.socket_headers()
    with connect(bob.socket_url, origin=follower_base, additional_headers=headers) as live:
        live.send(json.dumps({"follow": match["match"]}))
        following = receive(live, 1)[0]
        assert following["type"] == "following" and following["version"] == match["version"]
        time.sleep(idle)
        status = alice.post(
            f"/matches/{match['match']}/play/",
            {"version": match["version"], "card": match["card"]},
        )
        assert status == 200  # redirected back to the match page
        return receive(live, 2)


def check_events(events: list[dict], match: dict) -> None:
    kinds = {event["type"]: event for event in events}
    assert set(kinds) == {"match.updated", "turn.notify"}
    updated, notice = kinds["match.updated"], kinds["turn.notify"]
    assert updated["match"] == notice["match"] == match["match"]
    assert updated["version"] == notice["version"] == match["version"] + 1
    assert updated["status"] == "active" and len(updated["to_act"]) == 1
    assert not [card_text_in(event) for event in events if card_text_in(event)]


def test_a_move_over_http_reaches_a_websocket_client_of_the_same_daphne(site):
    database, match = site
    env = site_env(database)
    with daphne(env) as base:
        check_events(follow_then_play(base, base, match), match)


def test_a_move_through_one_daphne_reaches_a_client_of_another_over_redis(site):
    require_redis()
    database, match = site
    env = site_env(database, REDIS_URL)
    with daphne(env) as first, daphne(env) as second:
        assert first != second
        check_events(follow_then_play(first, second, match), match)


def test_a_socket_idle_longer_than_the_redis_layers_wait_still_hears_the_next_move(site):
    # A Redis read timing out as soon as the layer's blocking pop once tore the waiting
    # consumer down, closing the page's socket every few idle seconds.
    require_redis()
    database, match = site
    with daphne(site_env(database, REDIS_URL)) as base:
        check_events(follow_then_play(base, base, match, idle=LONGER_THAN_A_POP), match)


def test_an_anonymous_websocket_is_refused_by_daphne(site):
    with daphne(site_env(site[0])) as base:
        url = base.replace("http://", "ws://") + "/ws/live/"
        with pytest.raises(Exception, match="403"):
            connect(url, origin=base).close()
