"""Moves racing each other from several connections: the row lock lets exactly one through.

Runs where the database takes concurrent connections: PostgreSQL, and the SQLite file the
tests use by default (an in-memory SQLite database, whose shared-cache table locks fail
instead of waiting, would skip it).
"""

import threading

import pytest
from django.db import connection, connections

from games import services
from games.models import Action, Match
from tests.service_helpers import open_match, state_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def needs_concurrent_database():
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("in-memory SQLite cannot serve concurrent writers")


def race(*calls):
    """Run the calls at once from separate threads and connections; return results or errors."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        try:
            results[index] = call()
        except services.ActionRefused as refused:
            results[index] = refused
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.fixture
def two_players(alice, make_user):
    bob = make_user("bob")
    match = open_match(alice)
    services.join_match(bob, match.pk)
    return services.start_match(alice, match.pk).match, alice, bob


@pytest.fixture
def four_players(alice, make_user):
    people = [alice] + [make_user(name) for name in ("bob", "carol", "dave")]
    match = open_match(alice)
    for person in people[1:]:
        match = services.join_match(person, match.pk).match
    return Match.objects.get(pk=match.pk), people


def test_four_players_passing_at_the_same_moment_are_all_applied(four_players):
    """Passing is simultaneous (R2): another seat's pass is no reason to refuse one."""
    match, people = four_players
    state = state_of(match)
    cards = {seat: [str(c) for c in state.view(seat).hand[:3]] for seat in range(4)}
    results = race(
        *(
            (
                lambda seat=seat: services.pass_cards(
                    people[seat], match.pk, match.version, cards[seat]
                )
            )
            for seat in range(4)
        )
    )
    assert not [r for r in results if isinstance(r, services.ActionRefused)]
    assert Action.objects.filter(match=match, actor="person", kind="pass").count() == 4
    match_now = Match.objects.get(pk=match.pk)
    assert state_of(match_now).phase == "playing"
    assert services.log_matches_snapshot(match_now)


def test_two_tabs_of_one_seat_passing_different_cards_at_once_apply_one(two_players):
    match, alice, _ = two_players
    hand = [str(c) for c in state_of(match).view(0).hand]
    results = race(
        lambda: services.pass_cards(alice, match.pk, match.version, hand[:3]),
        lambda: services.pass_cards(alice, match.pk, match.version, hand[3:6]),
    )
    refused = [r for r in results if isinstance(r, services.ActionRefused)]
    assert len(refused) == 1
    assert Action.objects.filter(match=match, actor="person").count() == 1


def test_the_same_move_from_two_tabs_at_once_is_applied_once(two_players):
    match, alice, _ = two_players
    cards = [str(c) for c in state_of(match).view(0).hand[:3]]
    results = race(
        lambda: services.pass_cards(alice, match.pk, match.version, cards),
        lambda: services.pass_cards(alice, match.pk, match.version, cards),
    )
    assert not any(isinstance(r, services.ActionRefused) for r in results)
    assert Action.objects.filter(match=match, actor="person").count() == 1
