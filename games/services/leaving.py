"""A player leaving the site for good: every seat and entry they hold handed on first.

The matches others play go on without them, by the services a player leaving one match uses:
an open match they created is cancelled (`leave_match`), an open seat in another's match is
freed, a seat in play is handed to a bot (`resign`, as when they resign), and a tournament
entry is withdrawn (`set_withdrawn`: bots take its seats in play), and a challenge waiting for
their answer is declined (its seat goes as its challenger chose). Nothing here touches a
result, a log or a rating: the matches keep their seat, under the name the account shows.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress

from django.contrib.auth.models import User

from games.models import Answer, ChallengeSeat, Entry, MatchStatus, Seat, TournamentStatus
from games.services.challenges import decline
from games.services.errors import ActionRefused
from games.services.lobby import leave_match
from games.services.play import resign
from games.services.table import Changed
from games.services.tournaments import set_withdrawn


def leave_everything(user: User) -> None:
    """Hand on every seat and tournament entry the user holds, each in its own transaction."""
    entries = Entry.objects.filter(user=user, withdrawn=False).exclude(
        tournament__status=TournamentStatus.FINISHED
    )
    for entry_id in list(entries.values_list("pk", flat=True)):
        set_withdrawn(entry_id, True)
    # Open matches first: one that starts meanwhile is then found among those in play.
    for match_id in _seated(user, MatchStatus.OPEN):
        _quietly(leave_match, user, match_id)
    for match_id in _seated(user, MatchStatus.ACTIVE):
        _quietly(resign, user, match_id)
    waiting = ChallengeSeat.objects.filter(invitee=user, answer=Answer.PENDING)
    for challenge_id in sorted(set(waiting.values_list("challenge_id", flat=True))):
        _quietly(decline, user, challenge_id)


def _seated(user: User, status: MatchStatus) -> list[int]:
    seats = Seat.objects.filter(user=user, resigned=False, match__status=status)
    return sorted(seats.values_list("match_id", flat=True))


def _quietly(leave: Callable[[User, int], Changed], user: User, match_id: int) -> None:
    """Run a leaving service; a match that started or ended meanwhile needs nothing more."""
    with suppress(ActionRefused):
        leave(user, match_id)
