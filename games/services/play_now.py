"""Play now: one click from *Your turn* to a match against bots, set up like the player's last.

The table size is that of the player's most recent match (4 if none), the bots' level that of
the bots in their last match with bots (the lobby's default if none: there is no saved
preference), and the settings those of the last match they created (`MatchOptions.of_match`).
Like every match against bots alone, it starts at once: it never waits open, so the cap on open
matches does not count it. It is public and rated, as the lobby's form is at first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from django.contrib.auth.models import User

from games import engine
from games.models import BotLevel, Match, MatchStatus, Seat
from games.services.lobby import create_match
from games.services.match_options import MatchOptions

# The lobby form's own first choices (games/forms.py: CreateMatchForm).
DEFAULT_PLAYERS = 4
DEFAULT_LEVEL = BotLevel.NORMAL


def _own_matches(user: User) -> list[Match]:
    """Return the player's matches that were played or are in play, the newest first."""
    seats = (
        Seat.objects.filter(user=user)
        .exclude(match__status__in=[MatchStatus.OPEN, MatchStatus.ABANDONED])
        .select_related("match")
        .order_by("-match__created_at", "-match_id")
    )
    return [seat.match for seat in seats[:20]]


def _usual_level(matches: list[Match]) -> str:
    """Return the commonest level of the bots in the newest of these matches that had bots."""
    for match in matches:
        bots = match.seats.filter(controller=Seat.Controller.BOT, user__isnull=True)
        levels = Counter(bots.values_list("bot_level", flat=True))
        if levels:
            return levels.most_common(1)[0][0]
    return DEFAULT_LEVEL


def options_for(user: User) -> MatchOptions:
    """Return the options of the player's next match against bots."""
    matches = _own_matches(user)
    last_created = (
        Match.objects.filter(created_by=user, tournament_table__isnull=True)
        .exclude(status=MatchStatus.ABANDONED)
        .order_by("-created_at", "-id")
        .first()
    )
    settings = MatchOptions.of_match(last_created) if last_created else MatchOptions()
    players = matches[0].players if matches else DEFAULT_PLAYERS
    try:
        engine.check_players(players, settings.variant)
    except engine.BadRules:
        players = settings.players  # a size the variant does not seat: its own size
    bots = players - 1
    return replace(
        settings,
        players=players,
        bots=bots,
        bot_levels=(_usual_level(matches),) * bots,
        private=False,
        rated=True,
    )


def play_now(user: User) -> Match:
    """Create a match against bots like the player's last, and start it."""
    return create_match(user, options_for(user))
