"""Who may look at a match: one rule for the match page and the live socket alike."""

from games.models import Match


def may_view(user, match: Match) -> bool:
    """Say whether the user may watch this match.

    Any signed-in player may: a private match is only kept out of the lobby, and the table
    never shows a hand to anyone but its own seat.
    """
    return bool(user and user.is_authenticated)


def viewable_match(user, pk: int) -> Match | None:
    """Return the match with this id if it exists and the user may watch it, else None."""
    match = Match.objects.filter(pk=pk).first()
    if match is None or not may_view(user, match):
        return None
    return match
