"""Build matches through the services, with fixed deals, and play them through the views."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.test import Client
from django.urls import reverse

from games import engine, services
from games.models import Action, Match

HTMX = {"HTTP_HX_REQUEST": "true"}


def make_match(
    creator,
    *,
    players: int = 4,
    people: Iterable = (),
    seed: int = 7,
    start: bool = True,
    **options,
) -> Match:
    """Create a match with the creator at seat 0, the other people next, bots in the rest.

    The seed is set before the first deal, so the same seed always deals the same cards.
    """
    match = services.create_match(creator, services.MatchOptions(players=players, **options))
    Match.objects.filter(pk=match.pk).update(seed=seed)
    for person in people:
        match = services.join_match(person, match.pk, match.invite_code)
    match.refresh_from_db()
    if start and match.status == "open":
        match = services.start_match(creator, match.pk)
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


def await_moon_choice(match: Match, shooter: int = 0) -> Match:
    """Put the match at the end of its current hand with `shooter` holding all 26 points.

    The hand is replayed by the engine from a deal that forces the shot (the engine tests'
    own builder); the match then waits for the shooter's choice exactly as after a real hand.
    """
    from tests.engine.helpers import moon_deal

    state = state_of(match)
    rules = state.rules
    fresh = engine.Match.new(rules)
    fresh.hand_no = state.hand_no - 1
    fresh.totals = list(state.totals)
    fresh.sheet = list(state.sheet)
    fresh.start_hand(moon_deal(rules, state.hand_no, shooter))
    bot = engine.BaselineBot()
    while fresh.phase != engine.MOON:
        (seat,) = fresh.to_act()[:1]
        fresh.apply(bot.choose(fresh.view(seat)))
    Match.objects.filter(pk=match.pk).update(snapshot=fresh.snapshot(), version=match.version + 1)
    match.refresh_from_db()
    return match
