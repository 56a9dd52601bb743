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
    return services.start_match(alice, match.pk), alice, bob


def test_two_players_passing_on_the_same_version_one_is_told_the_table_moved(two_players):
    match, alice, bob = two_players
    state = state_of(match)
    cards = {seat: [str(c) for c in state.view(seat).hand[:3]] for seat in (0, 1)}
    results = race(
        lambda: services.pass_cards(alice, match.pk, match.version, cards[0]),
        lambda: services.pass_cards(bob, match.pk, match.version, cards[1]),
    )
    refused = [r for r in results if isinstance(r, services.ActionRefused)]
    assert len(refused) == 1 and isinstance(refused[0], services.StaleVersion)
    assert Action.objects.filter(match=match, actor="person").count() == 1
    match_now = Match.objects.get(pk=match.pk)
    assert match_now.version == match.version + 1
    assert services.log_matches_snapshot(match_now)


def test_the_same_move_from_two_tabs_at_once_is_applied_once(two_players):
    match, alice, _ = two_players
    cards = [str(c) for c in state_of(match).view(0).hand[:3]]
    results = race(
        lambda: services.pass_cards(alice, match.pk, match.version, cards),
        lambda: services.pass_cards(alice, match.pk, match.version, cards),
    )
    assert not any(isinstance(r, services.ActionRefused) for r in results)
    assert Action.objects.filter(match=match, actor="person").count() == 1
