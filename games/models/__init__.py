"""The app's models: profiles, matches with their seats, hands, log and score sheet, tournaments."""

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
from games.models.tournaments import (
    Entry,
    Round,
    RoundStatus,
    Table,
    TableSeat,
    Tournament,
    TournamentStatus,
)

__all__ = [
    "Action",
    "Entry",
    "Hand",
    "Match",
    "MatchStatus",
    "MoonOption",
    "Profile",
    "Round",
    "RoundStatus",
    "ScoreLine",
    "Seat",
    "Table",
    "TableSeat",
    "Tournament",
    "TournamentStatus",
    "display_name_of",
    "new_invite_code",
]
