"""The app's models: profiles, and matches with their seats, hands, log and score sheet."""

from games.models.matches import (
    Action,
    Hand,
    Match,
    MatchStatus,
    MoonOption,
    ScoreLine,
    Seat,
    new_invite_code,
)
from games.models.profiles import Profile, display_name_of

__all__ = [
    "Action",
    "Hand",
    "Match",
    "MatchStatus",
    "MoonOption",
    "Profile",
    "ScoreLine",
    "Seat",
    "display_name_of",
    "new_invite_code",
]
