"""The app's models: profiles, e-mail settings, matches with their seats, hands, log, scores."""

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
from games.models.notifications import NotificationSettings, notification_settings_for
from games.models.profiles import Profile, display_name_of

__all__ = [
    "Action",
    "Hand",
    "Match",
    "MatchStatus",
    "MoonOption",
    "NotificationSettings",
    "Profile",
    "ScoreLine",
    "Seat",
    "display_name_of",
    "notification_settings_for",
    "new_invite_code",
]
