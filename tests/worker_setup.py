"""Matches and a tournament for the tests of the worker processes' live events.

Each function runs inside a real site's process (`manage.py shell -c`), where bots play at once
(no worker, no server), and prints one JSON line for the test: what it created. Nothing that
should be left to the workers is done here: the person's decision, the timeout, the round.
"""

import json

from django.contrib.auth.models import User

from games import engine, services
from games.background.round_deadline_tasks import finish_round_now
from games.models import Entry, Profile, Tournament
from games.services import tournaments
from tests.live_setup import ALICE, BOB, player
from tests.service_helpers import act, deal_from_seed, state_of

ONE_MINUTE = 60  # the shortest time a decision may be given


def _emit(**fields: object) -> None:
    print(json.dumps(fields))


def _users(*users: User) -> dict[str, int]:
    return {user.username: user.pk for user in users}


def timed_bob_owes_a_card() -> None:
    """Alice and bob with two bots, a minute a decision; play on until bob must play a card."""
    alice, bob = player("alice"), player("bob")
    Profile.objects.filter(user__in=[alice, bob]).update(auto_play_forced=False)
    options = services.MatchOptions(bots=2, auto_finish=False, decision_seconds=ONE_MINUTE)
    match = services.create_match(alice, options)
    deal_from_seed(match.pk, 11)
    match = services.join_match(bob, match.pk, match.invite_code).match  # full: it starts
    people = {ALICE: alice, BOB: bob}
    for _ in range(60):
        state = state_of(match)
        to_act = state.to_act()
        if state.phase == engine.PLAYING and to_act == (BOB,):
            break
        act(people[to_act[0]], match, to_act[0])
    else:
        raise RuntimeError("bob never came to play")
    match.refresh_from_db()
    seat = match.seats.get(position=BOB)
    assert seat.to_act and seat.deadline, "bob's decision is not timed"
    _emit(match=match.pk, version=match.version, users=_users(alice, bob))


def alice_against_searching_bots(level: str = "normal") -> None:
    """Alice against three searching bots; play on until she must play a card that a bot
    answers (not the last of a trick), with the bots' cards played here, at once."""
    alice = player("alice")
    Profile.objects.filter(user=alice).update(auto_play_forced=False)
    options = services.MatchOptions(bots=3, bot_levels=[level] * 3, auto_finish=False)
    match = services.create_match(alice, options)  # full at once: it starts
    for _ in range(60):
        state = state_of(match)
        if state.phase == engine.PLAYING and state.to_act() == (ALICE,) and len(state.trick) < 3:
            break
        act(alice, match, ALICE)
    else:
        raise RuntimeError("alice never came to play before a bot")
    match.refresh_from_db()
    assert match.seats.get(position=1).bot_searches, "the bots do not search"
    card = str(state_of(match).legal_plays(ALICE)[0])
    _emit(match=match.pk, version=match.version, card=card, users=_users(alice))


def tournament_round_to_finish(entrants: int = 4) -> None:
    """A two-round tournament of one-hand matches whose first round is running, nobody moved,
    and "Finish by bots now" queued for it, as the admin's action queues it: the task waits
    for a worker of the long queue."""
    staff = User.objects.create_user("boss", is_staff=True, is_superuser=True)
    players = [player(f"player{number}") for number in range(1, entrants + 1)]
    tournament = Tournament.objects.create(
        name="Worker Cup",
        slug="worker-cup",
        variant="standard",
        bonus_card="JD",
        table_size=4,
        round_count=2,
        hands=1,
        duplicate_deals=False,
    )
    for user in players:
        Entry.objects.create(tournament=tournament, user=user)
    tournaments.seat_next_round(tournament.pk)
    round_ = tournaments.start_round(tournament.pk, staff)
    tables = [
        {"table": table.number, "match": table.match_id, "users": [s.entry.user_id for s in seats]}
        for table in round_.tables.order_by("number")
        for seats in [list(table.seats.select_related("entry").order_by("position"))]
    ]
    finish_round_now.enqueue(round_id=round_.pk)
    _emit(tournament=tournament.pk, round=round_.pk, tables=tables, users=_users(*players))
