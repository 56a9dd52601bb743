"""A player's own data, to take away: their account, choices, ratings and every match they sat in.

Each match is its record as this player may download it from the match itself
(`games/presenters/exports.py: match_record`): the same rule of who may see what, so the
file names no card the player's table did not show them (another seat's hand in a hand not
over, a pass before everyone has passed, a sealed table's deals). Nothing here decides what
a player may see.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

from games.models import (
    Block,
    Competitor,
    Entry,
    Follow,
    Match,
    MatchResult,
    NotificationSettings,
    Nudge,
    Profile,
    RematchAnswer,
    TableSizeStats,
    display_name_of,
)
from games.services import vacations

from .exports import match_record

FORMAT = "hearts-player-data/1"


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def player_data(user: User) -> dict[str, Any]:
    """Return everything the site keeps of the player that they may see, as JSON values."""
    return {
        "format": FORMAT,
        "account": _account(user),
        "settings": _settings(user),
        "email_notifications": _notifications(user),
        "vacation": _vacation(user),
        "ratings": _ratings(user),
        "tournaments": _tournaments(user),
        "nudges_sent": [
            {"match": nudge.match_id, "at": _when(nudge.created_at), "reached": nudge.nudged}
            for nudge in Nudge.objects.filter(nudger=user).order_by("created_at")
        ],
        "following": _names(Follow.objects.filter(follower=user).select_related("followed")),
        "blocking": _names(Block.objects.filter(blocker=user).select_related("blocked")),
        "rematch_answers": [
            {
                "match": answer.match_id,
                "play_again": answer.accepted,
                "at": _when(answer.answered_at),
            }
            for answer in RematchAnswer.objects.filter(user=user).order_by("answered_at")
        ],
        "matches": _matches(user),
    }


def _names(choices: Iterable[Follow | Block]) -> list[dict[str, Any]]:
    """Whom the player follows or blocks, and since when: theirs alone, so theirs to take."""
    return [
        {
            "player": display_name_of(
                choice.followed if isinstance(choice, Follow) else choice.blocked
            ),
            "since": _when(choice.created_at),
        }
        for choice in choices
    ]


def _account(user: User) -> dict[str, Any]:
    return {
        "username": user.get_username(),
        "display_name": display_name_of(user),
        "email": user.email,
        "joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
    }


def _settings(user: User) -> dict[str, Any]:
    profile = Profile.objects.filter(user=user).first()
    if profile is None:
        return {}
    return {
        "language": profile.language,
        "time_zone": profile.time_zone,
        "play_my_forced_card": profile.auto_play_forced,
        "four_colour_deck": profile.four_colour_deck,
        "large_cards": profile.large_cards,
    }


def _notifications(user: User) -> dict[str, Any]:
    chosen = NotificationSettings.objects.filter(user=user).first()
    if chosen is None:
        return {}
    return {
        "turn_emails": chosen.turn_emails,
        "daily_digest": chosen.daily_digest,
        "deadline_reminders": chosen.deadline_reminders,
        "challenge_emails": chosen.challenge_emails,
        "last_seen": _when(chosen.last_seen),
    }


def _vacation(user: User) -> dict[str, Any]:
    if not Profile.objects.filter(user=user).exists():
        return {}
    state = vacations.state_of(user)
    return {
        "days_left": state.days,
        "away_since": _when(state.away_since),
        "away_until": _when(state.away_until),
    }


def _ratings(user: User) -> dict[str, Any]:
    competitor = Competitor.objects.filter(user=user).first()
    if competitor is None:
        return {"rating": None, "rated_matches": 0, "by_table_size": [], "history": []}
    return {
        "rating": competitor.rating,
        "rated_matches": competitor.rated_matches,
        "by_table_size": [
            {
                "players": stats.players,
                "matches": stats.matches,
                "rated_matches": stats.rated_matches,
                "wins": stats.wins,
                "places": stats.places,
                "hands": stats.hands,
                "points": stats.points,
                "moons_shot": stats.moons_shot,
                "moons_suffered": stats.moons_suffered,
                "queens_taken": stats.queens,
            }
            for stats in TableSizeStats.objects.filter(competitor=competitor)
        ],
        "history": [
            {
                "match": result.match_id,
                "ended": _when(result.ended_at),
                "players": result.players,
                "place": result.place,
                "total": result.total,
                "left": result.left,
                "rating_after": result.rating,
            }
            for result in MatchResult.objects.filter(competitor=competitor).order_by(
                "ended_at", "id"
            )
        ],
    }


def _tournaments(user: User) -> list[dict[str, Any]]:
    entries = Entry.objects.filter(user=user).select_related("tournament").order_by("pk")
    return [
        {"tournament": entry.tournament.name, "withdrawn": entry.withdrawn} for entry in entries
    ]


def _matches(user: User) -> list[dict[str, Any]]:
    """Every match the player was seated in, oldest first, each as they may download it."""
    matches = Match.objects.filter(seats__user=user).distinct().order_by("created_at", "pk")
    return [
        {
            "created": _when(match.created_at),
            "started": _when(match.started_at),
            "finished": _when(match.finished_at),
            "rated": match.rated,
            "private": match.is_private,
            "record": match_record(match, user),
        }
        for match in matches
    ]
