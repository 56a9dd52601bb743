"""Building matches through the services, with deals fixed so tests know the cards."""

from games import engine, services
from games.models import Action, Match, Profile

# A 4-player deal in which seat 0 takes every trick whatever anyone plays, once the pass
# (hand 1: to the left) is done as the helpers below do it: seat 0 holds every club and
# passes 2C 3C 4C to seat 1; seat 3 holds every diamond and its bot passes AD KD QD to seat 0.
MOON_DEAL = {
    "hands": [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    ]
}


def deal_from_seed(match_id: int, seed: int, **fields) -> None:
    """Make a match not yet dealt deal from `seed`, as matches did before shuffle secrets.

    A test that names a seed knows the cards it gives; a match dealt from a secret drawn
    afresh would get others every run. (Such a match has no commitment: its deals are not
    verifiable, which `tests/test_shuffles.py` checks as it checks secret-dealt matches.)
    """
    Match.objects.filter(pk=match_id).update(seed=seed, secret="", commitment="", **fields)


def open_match(user, *, players: int = 4, bots: int = 0, **options) -> Match:
    """Create an open match (not all seats filled) through the service."""
    assert bots < players - 1, "a match with every other seat a bot starts at once"
    return services.create_match(user, services.MatchOptions(players=players, bots=bots, **options))


def started_match(
    user, *, players: int = 4, seed: int = 1, deals: list | None = None, **options
) -> Match:
    """Create a match against bots with a known seed (and deals), and start it."""
    match = open_match(user, players=players, **options)
    deal_from_seed(match.pk, seed, deals=deals or [])
    return services.start_match(user, match.pk).match


def plays_every_card(user) -> None:
    """Turn off the player's "play my forced card for me" (their profile setting)."""
    Profile.objects.filter(user=user).update(auto_play_forced=False)
    user.profile.refresh_from_db()


def state_of(match: Match) -> engine.Match:
    """Return the engine state stored for a match."""
    match.refresh_from_db()
    return engine.Match.from_snapshot(match.snapshot)


def act(user, match: Match, seat: int) -> Match:
    """Make the simplest legal decision for the seat: pass or play the first cards listed."""
    match.refresh_from_db()
    view = state_of(match).view(seat)
    if view.phase == engine.PASSING:
        return services.pass_cards(
            user, match.pk, match.version, [str(c) for c in view.hand[:3]]
        ).match
    if view.phase == engine.MOON:
        return services.choose_moon(user, match.pk, match.version, "subtract").match
    return services.play_card(user, match.pk, match.version, str(view.legal[0])).match


def unchanged(match: Match):
    """Return a snapshot of what a refused action must leave as it was."""
    match.refresh_from_db()
    return (match.version, match.snapshot, Action.objects.filter(match=match).count())
