"""Answers to one challenge racing each other and its cancelling: the match's lock lets each
through in turn, so exactly one outcome stands (on SQLite's file and on PostgreSQL).

Runs where the database takes concurrent connections, as tests/test_services_concurrency.py.
"""

from datetime import timedelta

import pytest
from django.db import connection

from games import services
from games.models import Answer, Challenge, ChallengeSeat, Match, Seat
from games.services import challenges
from games.services.match_options import MatchOptions
from tests.test_services_concurrency import race

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def needs_concurrent_database():
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("in-memory SQLite cannot serve concurrent writers")


def challenge_with(make_user, invited: int, unanswered: str = "bot") -> tuple:
    challenger = make_user("challenger", "Challenger")
    invitees = [make_user(f"invitee{n}", f"Invitee {n}") for n in range(invited)]
    match = challenges.create_challenge(
        challenger,
        MatchOptions(players=invited + 1),
        invitees,
        timedelta(days=3),
        unanswered,
    )
    return challenger, invitees, Challenge.objects.get(match=match)


@pytest.mark.parametrize("invited", [2, 4, 6])
def test_everyone_accepting_at_once_starts_the_match_once(make_user, invited):
    _, invitees, challenge = challenge_with(make_user, invited)
    results = race(*[lambda u=u: challenges.accept(u, challenge.pk) for u in invitees])
    assert not [r for r in results if isinstance(r, services.ActionRefused)]
    match = Match.objects.get(pk=challenge.match_id)
    assert match.status == "active" and match.hand_no == 1
    assert sorted(Seat.objects.filter(match=match).values_list("user_id", flat=True)) == sorted(
        [challenge.challenger_id, *(u.pk for u in invitees)]
    )


@pytest.mark.parametrize("invited", [3, 6])
def test_accepts_and_declines_at_once_give_one_table(make_user, invited):
    _, invitees, challenge = challenge_with(make_user, invited, unanswered="bot")
    calls = [
        (lambda u=u: challenges.accept(u, challenge.pk))
        if n % 2
        else (lambda u=u: challenges.decline(u, challenge.pk))
        for n, u in enumerate(invitees)
    ]
    race(*calls)
    match = Match.objects.get(pk=challenge.match_id)
    assert match.status == "active"
    seats = list(Seat.objects.filter(match=match).order_by("position"))
    for n, invitee in enumerate(invitees):
        seat = seats[n + 1]
        assert (seat.user_id == invitee.pk) if n % 2 else (seat.is_bot and seat.user_id is None)
    answers = ChallengeSeat.objects.filter(challenge=challenge).values_list("answer", flat=True)
    assert set(answers) == {Answer.ACCEPTED, Answer.DECLINED}


@pytest.mark.parametrize("invited", [2, 6])
def test_cancelling_while_everyone_accepts_leaves_one_outcome(make_user, invited):
    challenger, invitees, challenge = challenge_with(make_user, invited)
    results = race(
        lambda: challenges.cancel(challenger, challenge.pk),
        *[lambda u=u: challenges.accept(u, challenge.pk) for u in invitees],
    )
    match = Match.objects.get(pk=challenge.match_id)
    cancel_result = results[0]
    answers = list(
        ChallengeSeat.objects.filter(challenge=challenge).values_list("answer", flat=True)
    )
    if isinstance(cancel_result, services.ActionRefused):
        # Every acceptance came first: the match started, and cancelling found it started.
        assert match.status == "active" and set(answers) == {Answer.ACCEPTED}
    else:
        # Cancelled: those who came later were refused, the match will never start.
        assert match.status == "abandoned" and match.hand_no == 0
        accepted = [r for r in results[1:] if not isinstance(r, services.ActionRefused)]
        assert answers.count(Answer.ACCEPTED) == len(accepted) < invited
        assert Answer.PENDING not in answers


def test_the_same_person_answering_twice_at_once_answers_once(make_user):
    _, (invitee, _other), challenge = challenge_with(make_user, 2)
    results = race(
        lambda: challenges.accept(invitee, challenge.pk),
        lambda: challenges.decline(invitee, challenge.pk),
    )
    refused = [r for r in results if isinstance(r, services.ActionRefused)]
    assert len(refused) == 1
    assert refused[0].message == "You have already answered this challenge."
