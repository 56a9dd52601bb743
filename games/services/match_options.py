"""A match's settings as one value: what the lobby's form, a tournament or a test chooses.

Every match is created from a `MatchOptions` (`services.lobby`), and every place that needs
the engine's rules for some settings asks `MatchOptions.rule_set`: the lobby, each tournament
table, and the tournament admin's check of a tournament's rules. A new option is added here once.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games import engine
from games.models import BotLevel
from games.services.errors import BadInput

if TYPE_CHECKING:
    from games.models import Match, Tournament


@dataclass(frozen=True)
class MatchOptions:
    """What a player chooses when creating a match, or a tournament for each of its tables."""

    players: int = 4
    variant: str = "standard"  # the engine's RuleSet.variant (R5)
    bonus_card: str = "JD"  # Omnibus Hearts' bonus card (R5.1)
    target: int = 100
    moon: str = "ask"
    hands: int = 0  # 0 plays to the target; n ends the match after n hands (R4.7)
    bots: int = 0
    private: bool = False
    auto_finish: bool = True
    decision_seconds: int | None = None  # None: untimed (see services/clocks.py)
    bank_seconds: int = 0
    timeouts_to_leave: int = 2  # timeouts in a row that hand the seat to a bot
    # Whether a player on vacation has their clock stopped here (services/vacations.py).
    allow_vacation: bool = True
    # The level of each bot seat, in seat order (`engine.LEVELS`); a seat not named is "easy".
    bot_levels: tuple[str, ...] = ()
    # Whether the match changes its players' ratings when it ends (services/records.py).
    rated: bool = True
    # Whether the table chat takes free text, not only phrases (services/chat.py).
    free_chat: bool = True

    @classmethod
    def of_tournament(cls, tournament: "Tournament") -> "MatchOptions":
        """Return the options of every table's match: the tournament's rules and time control.

        The table's size is the table's own (`rule_set(players)`), not the preferred one.
        """
        return cls(
            players=tournament.table_size,
            variant=tournament.variant,
            bonus_card=tournament.bonus_card,
            target=tournament.target,
            moon=tournament.moon,
            hands=tournament.hands,
            decision_seconds=tournament.decision_seconds,
            bank_seconds=tournament.bank_seconds,
            timeouts_to_leave=tournament.timeouts_to_leave,
            allow_vacation=tournament.allow_vacation,
        )

    @classmethod
    def of_match(cls, match: "Match") -> "MatchOptions":
        """Return the settings a match was created with, to create another like it.

        The seats are not settings: `bots` and `bot_levels` are left at their defaults, for
        the caller to choose (a rematch seats the same bots where they sat).
        """
        rules = match.rule_set
        return cls(
            players=rules.players,
            variant=rules.variant,
            bonus_card=rules.bonus_card,
            target=rules.target,
            moon=rules.moon,
            hands=rules.hands,
            private=match.is_private,
            auto_finish=match.auto_finish,
            decision_seconds=match.decision_seconds,
            bank_seconds=match.bank_seconds,
            timeouts_to_leave=match.timeouts_to_leave,
            allow_vacation=match.allow_vacation,
            rated=match.rated,
            free_chat=match.free_chat,
        )

    def rule_set(self, players: int | None = None) -> engine.RuleSet:
        """Return the engine's rules at a table of `players` (these options' own by default).

        Raises `BadInput` with the engine's reason and rule (R4.7, R5, R5.1 …) for rules the
        engine refuses.
        """
        try:
            return engine.RuleSet(
                players=self.players if players is None else players,
                target=self.target,
                moon=self.moon,
                hands=self.hands,
                # Plain strings: the engine refuses anything else, choices' enums included.
                variant=str(self.variant),
                bonus_card=str(self.bonus_card),
            )
        except engine.EngineError as error:
            raise BadInput(error.message, error.rule) from None

    def time_control(self) -> dict[str, Any]:
        """Return the match's time-control fields (`models.TimeControl`) for these options."""
        return {
            "decision_seconds": self.decision_seconds,
            "bank_seconds": self.bank_seconds,
            "timeouts_to_leave": self.timeouts_to_leave,
            "allow_vacation": self.allow_vacation,
        }

    def bot_level(self, index: int) -> str:
        """Return the level of the index-th bot seat (0 for the first)."""
        return self.bot_levels[index] if index < len(self.bot_levels) else BotLevel.EASY
