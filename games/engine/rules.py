"""The rule set: one frozen value stored with a match, so it always replays under its own rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from functools import cached_property
from typing import Any

from .cards import CLUBS, FULL_DECK, RANKS, SUIT_MASKS, SUITS
from .errors import BadRules

MOON_OPTIONS = ("ask", "subtract", "add")
MIN_PLAYERS, MAX_PLAYERS = 3, 7
MIN_TARGET, MAX_TARGET = 25, 500
MIN_HANDS, MAX_HANDS = 1, 50
# Always written out; later options are written only when set, so the JSON form of a match
# created before an option existed stays exactly as it was stored.
CORE_FIELDS = ("players", "target", "moon")

# R1.3: cards removed so that everyone gets the same number.
REMOVED: dict[int, tuple[str, ...]] = {
    3: ("2D",),
    4: (),
    5: ("2D", "2C"),
    6: ("2D", "3D", "3C", "4C"),
    7: ("2D", "3D", "3C"),
}

PASS_OFFSETS_FOUR = (1, -1, 2, 0)  # R2.3: left, right, across, hold
PASS_OFFSETS_OTHER = (1, -1)  # R2.4: left, right
PASS_NAMES = {1: "left", -1: "right", 2: "across", 0: "none"}


def _mask_of_texts(texts: tuple[str, ...]) -> int:
    mask = 0
    for t in texts:
        mask |= 1 << (SUITS.index(t[1]) * 13 + RANKS.index(t[0]))
    return mask


@dataclass(frozen=True)
class RuleSet:
    """The rules of one match; variants (R5) are further fields whose defaults mean "off"."""

    players: int = 4
    target: int = 100
    moon: str = "ask"
    # R4.7: 0 plays to the target; n ends the match after exactly n hands.
    hands: int = 0

    def __post_init__(self) -> None:
        if type(self.players) is not int or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise BadRules(f"Hearts is for 3 to 7 players, not {self.players!r}", "R1.1")
        if type(self.target) is not int or not MIN_TARGET <= self.target <= MAX_TARGET:
            raise BadRules(
                f"The target must be a whole number from 25 to 500, not {self.target!r}", "R4.5"
            )
        if self.moon not in MOON_OPTIONS:
            raise BadRules(
                f"The moon choice must be one of {', '.join(MOON_OPTIONS)}, not {self.moon!r}",
                "R4.3",
            )
        if type(self.hands) is not int or not (
            self.hands == 0 or MIN_HANDS <= self.hands <= MAX_HANDS
        ):
            raise BadRules(
                f"A match of fixed length lasts 1 to 50 hands (0 plays to the target), "
                f"not {self.hands!r}",
                "R4.7",
            )

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form; options left at their defaults are omitted."""
        data = asdict(self)
        defaults = RuleSet.__dataclass_fields__
        return {
            name: value
            for name, value in data.items()
            if name in CORE_FIELDS or value != defaults[name].default
        }

    def is_over(self, hands_played: int, totals: Sequence[int]) -> bool:
        """Say whether the match ends after this many hands with these totals (R4.5, R4.7)."""
        if self.hands:
            return hands_played >= self.hands
        return bool(totals) and max(totals) >= self.target

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Return the rule set of a JSON form; missing keys take their defaults (older matches)."""
        if not isinstance(data, dict):
            raise BadRules("A rule set must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            # A flag this engine does not know would silently change the game: refuse it.
            raise BadRules(f"Unknown rule option(s): {', '.join(unknown)}")
        return cls(**data)

    @cached_property
    def deck_mask(self) -> int:
        """Return the card set in play for this table size (R1.3)."""
        return FULL_DECK & ~_mask_of_texts(REMOVED[self.players])

    @cached_property
    def hand_size(self) -> int:
        """Return the number of cards each player is dealt."""
        return self.deck_mask.bit_count() // self.players

    @cached_property
    def deck_indices(self) -> tuple[int, ...]:
        """Return the indices of the cards in play, lowest first."""
        return tuple(i for i in range(52) if self.deck_mask >> i & 1)

    @property
    def tricks_per_hand(self) -> int:
        """Return the number of tricks in a hand."""
        return self.hand_size

    @cached_property
    def opening_card_index(self) -> int:
        """Return the index of the lowest club in the deck, which leads the first trick (R3.1)."""
        clubs = self.deck_mask & SUIT_MASKS[CLUBS]
        return (clubs & -clubs).bit_length() - 1

    def pass_offset(self, hand_no: int) -> int:
        """Return the seat offset passes go to on a 1-based hand number (0: no pass)."""
        cycle = PASS_OFFSETS_FOUR if self.players == 4 else PASS_OFFSETS_OTHER
        return cycle[(hand_no - 1) % len(cycle)] % self.players

    def pass_direction(self, hand_no: int) -> str:
        """Return "left", "right", "across" or "none" for a 1-based hand number (R2.3, R2.4)."""
        cycle = PASS_OFFSETS_FOUR if self.players == 4 else PASS_OFFSETS_OTHER
        return PASS_NAMES[cycle[(hand_no - 1) % len(cycle)]]
