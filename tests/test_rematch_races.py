"""Two people saying yes to "Play again" at once: exactly one rematch starts."""

import pytest
from django.db import connection

from games.models import Match
from games.services import rematches
from tests.records_helpers import constructed_match
from tests.test_services_concurrency import race

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = [[(10, False, False), (6, False, False), (5, False, False), (5, False, True)]]


@pytest.fixture(autouse=True)
def needs_concurrent_database():
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("in-memory SQLite cannot serve concurrent writers")


def test_the_last_two_yeses_at_once_start_exactly_one_rematch(alice, bob, make_user):
    carol = make_user("carol")
    finished = constructed_match([alice, bob, "easy", carol], HANDS)
    rematches.accept(alice, finished.pk)
    results = race(
        lambda: rematches.accept(bob, finished.pk), lambda: rematches.accept(carol, finished.pk)
    )
    assert Match.objects.filter(rematch_of=finished).count() == 1
    started = [r for r in results if isinstance(r, Match)]
    assert len(started) == 1, results


def test_two_starts_with_bots_at_once_start_exactly_one_rematch(alice, bob, make_user):
    carol = make_user("carol")
    finished = constructed_match([alice, bob, "easy", carol], HANDS)
    rematches.accept(alice, finished.pk)
    rematches.accept(bob, finished.pk)
    results = race(
        lambda: rematches.start_with_bots(alice, finished.pk),
        lambda: rematches.start_with_bots(bob, finished.pk),
    )
    assert Match.objects.filter(rematch_of=finished).count() == 1
    assert sum(isinstance(r, Match) for r in results) == 1, results
