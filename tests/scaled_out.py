"""The scaled-out profile's tests (PostgreSQL, Redis, several daphne processes): four people at
a match over real servers, the moves they send, and a page's live socket following it.

The fixtures `scaled_out_profile` and `real_password_hashing` are in tests/conftest.py.
"""

from __future__ import annotations

import json
import ssl
import time
import urllib.error
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import connection
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from games import engine, services
from games.models import Action, Match, Profile
from tests.conftest import PASSWORD
from tests.servers import Visitor

PEOPLE = ("alice", "bob", "carol", "dave")
WAIT = 30  # seconds: a generous bound on a server starting or an event arriving


def this_database_url() -> str:
    """The URL of this test's PostgreSQL database, for the site's processes to open."""
    db = connection.settings_dict
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def four_players_at_a_match(options: services.MatchOptions | None = None) -> Match:
    """Four people (no bot) at a match that has started: each must pass three cards."""
    from django.contrib.auth import get_user_model

    users = []
    for name in PEOPLE:
        user = get_user_model().objects.create_user(username=name, password=PASSWORD)
        Profile.objects.filter(user=user).update(display_name=name.title(), auto_play_forced=False)
        users.append(user)
    options = options or services.MatchOptions(auto_finish=False)
    match = services.create_match(users[0], options)
    for user in users[1:]:
        match = services.join_match(user, match.pk, match.invite_code).match
    match.refresh_from_db()
    assert match.snapshot is not None, "the match did not start"
    return match


@dataclass
class Move:
    """A move sent over HTTP: who, what, and what the site answered."""

    seat: int
    kind: str
    value: str
    status: int
    body: str = field(repr=False, default="")


@dataclass
class Table:
    """The match and its four players, each with their own cookies, over every server given."""

    match: Match
    players: list[Visitor]
    bases: list[str]
    moves: list[Move] = field(default_factory=list)
    sent: int = 0

    def state(self) -> engine.Match:
        self.match.refresh_from_db()
        return engine.Match.from_snapshot(self.match.snapshot)

    def send(self, seat: int, path: str, data: dict[str, object]) -> tuple[int, str]:
        """Post a move's form as the page would, to the next server in turn."""
        visitor = self.players[seat]
        visitor.base = self.bases[self.sent % len(self.bases)]
        self.sent += 1
        request = visitor.form_request(path, data)
        try:
            with visitor.opener.open(request, timeout=WAIT) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def move(self) -> Move | None:
        """Make one legal move for a seat that must act; None once the match is over."""
        state = self.state()
        if not state.to_act():
            return None
        seat = state.to_act()[0]
        view = state.view(seat)
        version = self.match.version
        path = f"/matches/{self.match.pk}/"
        if view.phase == engine.PASSING:
            cards = [str(card) for card in view.hand[:3]]
            kind, value = "pass", " ".join(cards)
            status, body = self.send(seat, path + "pass/", {"version": version, "cards": cards})
        elif view.phase == engine.MOON:
            kind, value = "moon", "subtract"
            status, body = self.send(seat, path + "moon/", {"version": version, "option": value})
        else:
            kind, value = "play", str(view.legal[0])
            status, body = self.send(seat, path + "play/", {"version": version, "card": value})
        move = Move(seat, kind, value, status, body)
        self.moves.append(move)
        return move


def seat_everyone(
    bases: list[str],
    options: services.MatchOptions | None = None,
    tls: ssl.SSLContext | None = None,
) -> Table:
    """Four people at a new match, each signed in through one of `bases` in turn."""
    match = four_players_at_a_match(options)
    players = [
        Visitor(bases[n % len(bases)], tls).log_in(name, PASSWORD) for n, name in enumerate(PEOPLE)
    ]
    return Table(match, players, bases)


def assert_answered(moves: list[Move]) -> None:
    """Every answer a page or a redirect followed to one, or a 503 that says to try again."""
    for move in moves:
        if move.status == 503:
            assert "try again" in move.body.lower(), move
        else:
            assert 200 <= move.status < 400, move


def assert_logged(table: Table) -> None:
    """Every move answered 2xx is in the match's log, and the log replays to the stored state."""
    actions = Action.objects.filter(match=table.match, actor=Action.Actor.PERSON)
    logged = [(a.seat, a.kind, a.value) for a in actions.order_by("hand__number", "seq")]
    accepted = [(m.seat, m.kind, m.value) for m in table.moves if 200 <= m.status < 300]
    # In the order sent: one person's moves are never reordered, and none is missing.
    assert logged == accepted
    table.match.refresh_from_db()
    assert services.replay_match(table.match).snapshot() == table.match.snapshot


@contextmanager
def follow(player: Visitor, base: str, match_id: int) -> Iterator[tuple[ClientConnection, int]]:
    """A page's live socket following the match; yield it and the version it starts from."""
    player.base = base
    with connect(player.socket_url, **player.socket_options()) as live:
        live.send(json.dumps({"follow": match_id}))
        following = json.loads(live.recv(timeout=WAIT))
        assert following["type"] == "following"
        yield live, following["version"]


def hears_a_version_after(live: ClientConnection, version: int) -> bool | str:
    """Wait for the socket to tell of a version after `version`: True, or "closed" if it closed."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            event = json.loads(live.recv(timeout=max(deadline - time.monotonic(), 0.1)))
        except ConnectionClosed:
            return "closed"
        except TimeoutError:
            return False
        if event["type"] == "match.updated" and event["version"] > version:
            return True
