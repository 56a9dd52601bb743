"""Build matches through the services, with fixed deals, and play them through the views."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine, services
from games.models import Action, Match
from games.services.shuffles import Shuffle
from tests.service_helpers import MOON_DEAL, deal_from_seed

HTMX = {"HTTP_HX_REQUEST": "true"}
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def client_for(user) -> Client:
    """Return a test client signed in as the user."""
    client = Client()
    client.force_login(user)
    return client


def make_match(
    creator,
    *,
    players: int = 4,
    people: Iterable = (),
    seed: int = 7,
    secret: str | None = None,
    start: bool = True,
    **options,
) -> Match:
    """Create a match with the creator at seat 0, the other people next, bots in the rest.

    The seed is set before the first deal, so the same seed always deals the same cards (as
    matches dealt before shuffle secrets: `deal_from_seed`); given a secret, the match deals
    from that secret instead, with its commitment, as a new match does.
    """
    match = services.create_match(creator, services.MatchOptions(players=players, **options))
    if secret is None:
        deal_from_seed(match.pk, seed)
    else:
        Match.objects.filter(pk=match.pk).update(**Shuffle.of(secret).fields())
    for person in people:
        match = services.join_match(person, match.pk, match.invite_code).match
    match.refresh_from_db()
    if start and match.status == "open":
        match = services.start_match(creator, match.pk).match
    match.refresh_from_db()
    return match


def state_of(match: Match) -> engine.Match:
    """Return the engine state stored with the match, fresh from the database."""
    match.refresh_from_db()
    return engine.Match.from_snapshot(match.snapshot)


def seat_of(match: Match, user) -> int:
    """Return the position the user plays at."""
    return match.seats.get(user=user).position


def action_count(match: Match) -> int:
    """Return how many decisions the match's log holds."""
    return Action.objects.filter(match=match).count()


@dataclass
class Move:
    """A request a player would send now: the URL and the form data."""

    url: str
    data: dict


def next_move(match: Match, position: int) -> Move | None:
    """Return a legal move for the seat if it must act now (lowest cards first), else None."""
    state = state_of(match)
    if position not in state.to_act():
        return None
    view = state.view(position)
    version = match.version
    if view.phase == engine.PASSING:
        cards = [str(c) for c in view.hand[:3]]
        return Move(reverse("pass_cards", args=[match.pk]), {"version": version, "cards": cards})
    if view.phase == engine.PLAYING:
        card = str(view.legal[0])
        return Move(reverse("play_card", args=[match.pk]), {"version": version, "card": card})
    if view.phase == engine.MOON:
        return Move(reverse("choose_moon", args=[match.pk]), {"version": version, "option": "add"})
    return None


def move_now(client: Client, match: Match, position: int = 0):
    """Make the seat's next move through the views; return the response and its statements."""
    match.refresh_from_db()
    move = next_move(match, position)
    assert move is not None
    with CaptureQueriesContext(connection) as queries:
        response = client.post(move.url, move.data, **HTMX)
    return response, [q["sql"] for q in queries.captured_queries]


def playing_match(creator, client: Client, seed: int = 11, **options) -> Match:
    """Return a 4-seat match against bots, past the pass, waiting for its creator to play.

    The pass goes through `client` as a plain form; a client that checks CSRF gets the
    token field from the match page, as a browser would.
    """
    match = make_match(creator, seed=seed, **options)
    while True:
        match.refresh_from_db()
        move = next_move(match, 0)
        assert move is not None
        if state_of(match).phase == engine.PLAYING:
            return match
        data = dict(move.data)
        if client.handler.enforce_csrf_checks:
            page = client.get(reverse("match", args=[match.pk])).text
            data["csrfmiddlewaretoken"] = CSRF_FIELD.search(page).group(1)
        assert client.post(move.url, data).status_code == 302


def play_to_the_end(clients: dict[int, Client], match: Match, *, htmx: bool = False, limit=5000):
    """Let each person act through their own client until the match is over; yield responses."""
    for _ in range(limit):
        match.refresh_from_db()
        if match.status != "active":
            return
        moved = False
        for position, client in clients.items():
            move = next_move(match, position)
            if move is None:
                continue
            extra = HTMX if htmx else {}
            response = client.post(move.url, move.data, **extra)
            assert response.status_code in (200, 302), response.content[:500]
            moved = True
            yield position, response
            break
        assert moved, "nobody could move in an active match"
    raise AssertionError("the match did not end")


def moon_match(creator, **options) -> Match:
    """Return a 4-seat match against bots waiting for the creator's moon choice after hand 1.

    The explicit deal forces the shot whatever anyone plays (see `MOON_DEAL`); the creator
    plays it through the services, so the log and the snapshot agree as after any real hand.
    """
    match = make_match(creator, start=False, moon="ask", **options)
    Match.objects.filter(pk=match.pk).update(deals=[MOON_DEAL])
    match = services.start_match(creator, match.pk).match
    for _ in range(100):
        state = state_of(match)
        if state.phase == engine.MOON:
            return match
        move = next_move(match, 0)
        view = state.view(0)
        if state.phase == engine.PASSING:
            match = services.pass_cards(creator, match.pk, match.version, move.data["cards"]).match
        else:
            match = services.play_card(creator, match.pk, match.version, str(view.legal[0])).match
    raise AssertionError("the moon deal did not end in a moon choice")
