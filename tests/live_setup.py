"""Players at a match, at the moment a test needs: before the pass, mid-trick, or (four people)
at the last trick.

`main` runs inside a real site's process (`manage.py shell -c`), creates alice and bob, and
prints one JSON line: the match, its version and, mid-trick, the card alice may play now, after
which bob (the next seat) must play. Nothing is forced or played out, so each card waits.
"""

import json

from django.contrib.auth import get_user_model

from games import engine, services
from games.models import Match, Profile
from tests.conftest import PASSWORD
from tests.service_helpers import act, deal_from_seed, state_of

ALICE, BOB = 0, 1


def player(username: str):
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    user.profile.display_name = username.title()
    user.profile.save()
    return user


def passing(alice, bob, seed: int = 11) -> Match:
    """Seat alice and bob with two bots; the match starts, and the two of them must pass."""
    for person in (alice, bob):
        Profile.objects.filter(user=person).update(auto_play_forced=False)
    options = services.MatchOptions(bots=2, auto_finish=False)
    match = services.create_match(alice, options)
    deal_from_seed(match.pk, seed)
    return services.join_match(bob, match.pk, match.invite_code).match  # the last seat: it starts


def mid_trick(alice, bob, seed: int = 11) -> tuple[Match, str]:
    """Play on until alice must play a card that does not end the trick; return that card."""
    match = passing(alice, bob, seed)
    people = {ALICE: alice, BOB: bob}
    for _ in range(30):
        state = state_of(match)
        to_act = state.to_act()
        if state.phase == engine.PLAYING and to_act == (ALICE,) and len(state.trick) < 3:
            return match, str(state.legal_plays(ALICE)[0])
        act(people[to_act[0]], match, to_act[0])
    raise RuntimeError("alice never came to play before bob")


def last_trick(alice, bob, seed: int = 11) -> tuple[Match, int]:
    """Seat alice, bob, carol and dave at a one-hand match of people and play on until one card
    each is left; return the match and the seat that leads the last trick. Nobody's last card
    is played for them: each waits to be clicked."""
    people = [alice, bob, player("carol"), player("dave")]
    for person in people:
        Profile.objects.filter(user=person).update(auto_play_forced=False)
    match = services.create_match(alice, services.MatchOptions(hands=1, auto_finish=False))
    deal_from_seed(match.pk, seed)
    for person in people[1:]:
        match = services.join_match(person, match.pk, match.invite_code).match
    for _ in range(60):
        state = state_of(match)
        to_act = state.to_act()
        if state.phase == engine.PLAYING and not state.trick and len(state.view(0).hand) == 1:
            return match, to_act[0]
        act(people[to_act[0]], match, to_act[0])
    raise RuntimeError("the last trick never came")


def main(stage: str = "mid-trick") -> None:
    """Create alice and bob, seat them at the stage asked for, and print the match as JSON."""
    alice, bob = player("alice"), player("bob")
    if stage == "last-trick":  # with carol and dave; "card" is the seat that leads
        match, card = last_trick(alice, bob)
    elif stage == "open":  # alice alone at a table for four: bob has not joined yet
        match, card = services.create_match(alice, services.MatchOptions()), None
    elif stage == "passing":
        match, card = passing(alice, bob), None
    else:
        match, card = mid_trick(alice, bob)
    match.refresh_from_db()
    print(json.dumps({"match": match.pk, "version": match.version, "card": card}))
