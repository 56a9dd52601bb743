"""The app's models: profiles, e-mail settings, matches, rematches, challenges, tournaments,
follows, blocks, table chat."""

from games.models.challenges import Answer, Challenge, ChallengeSeat, Unanswered
from games.models.chat import (
    CHAT_TEXT_MAX,
    ChatBan,
    ChatMessage,
    ChatReport,
    Mute,
    ReportOutcome,
    Room,
)
from games.models.heartbeats import WorkerHeartbeat
from games.models.matches import (
    Action,
    BonusCard,
    BotLevel,
    Hand,
    Match,
    MatchStatus,
    MoonOption,
    ScoreLine,
    Seat,
    Variant,
    new_invite_code,
)
from games.models.notifications import NotificationSettings, notification_settings_for
from games.models.nudges import Nudge
from games.models.people import Block, Follow
from games.models.profiles import FORMER_PLAYER, Profile, display_name_of, is_former_player
from games.models.records import Competitor, MatchResult, TableSizeStats
from games.models.relay import RelayedEvent
from games.models.rematches import RematchAnswer
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
    "Answer",
    "Challenge",
    "ChallengeSeat",
    "Unanswered",
    "Block",
    "CHAT_TEXT_MAX",
    "ChatBan",
    "ChatMessage",
    "ChatReport",
    "ReportOutcome",
    "Mute",
    "Room",
    "BonusCard",
    "BotLevel",
    "Competitor",
    "Entry",
    "Follow",
    "Hand",
    "Match",
    "MatchResult",
    "MatchStatus",
    "MoonOption",
    "NotificationSettings",
    "Nudge",
    "Profile",
    "RelayedEvent",
    "RematchAnswer",
    "Round",
    "RoundStatus",
    "ScoreLine",
    "Seat",
    "Variant",
    "WorkerHeartbeat",
    "Table",
    "TableSizeStats",
    "TableSeat",
    "Tournament",
    "TournamentStatus",
    "display_name_of",
    "is_former_player",
    "FORMER_PLAYER",
    "notification_settings_for",
    "new_invite_code",
]
