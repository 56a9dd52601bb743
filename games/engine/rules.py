"""The rule set: one frozen value stored with a match, so it always replays under its own rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from functools import cached_property
from typing import Any

from .cards import CLUBS, FULL_DECK, RANKS, SUIT_MASKS, SUITS, TWO_DECKS
from .errors import BadRules

MOON_OPTIONS = ("ask", "subtract", "add")
# R1.1: the standard game (and Omnibus, which plays the same deck) is for 3 to 7 players.
MIN_PLAYERS, MAX_PLAYERS = 3, 7
# R5: "standard" plays R1-R4; "omnibus" adds a bonus card (R5.1); "cancellation" plays two decks
# (R5.2). They do not combine (R5.4), hence one field with three values rather than two flags.
STANDARD, OMNIBUS, CANCELLATION = "standard", "omnibus", "cancellation"
VARIANTS = (STANDARD, OMNIBUS, CANCELLATION)
BONUS_CARDS = ("JD", "TD")  # R5.1: the J♦, or the 10♦ by local custom
BONUS_POINTS = -10
# R5.2: Cancellation is for 5 to 10 players.
MIN_CANCELLATION_PLAYERS, MAX_CANCELLATION_PLAYERS = 5, 10
PLAYER_RANGES = {
    STANDARD: range(MIN_PLAYERS, MAX_PLAYERS + 1),
    OMNIBUS: range(MIN_PLAYERS, MAX_PLAYERS + 1),
    CANCELLATION: range(MIN_CANCELLATION_PLAYERS, MAX_CANCELLATION_PLAYERS + 1),
}
# The rule each variant's table sizes come from, and the game's name in its messages.
PLAYER_RULES = {STANDARD: "R1.1", OMNIBUS: "R5.1", CANCELLATION: "R5.2"}
GAME_NAMES = {STANDARD: "Hearts", OMNIBUS: "Omnibus Hearts", CANCELLATION: "Cancellation Hearts"}
# The most players any variant seats: the size of per-seat tables shared by every variant.
MAX_TABLE = max(r.stop - 1 for r in PLAYER_RANGES.values())
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


def players_allowed(variant: str = STANDARD) -> range:
    """Return the table sizes a variant allows (R1.1, R5.2), e.g. range(3, 8)."""
    if variant not in PLAYER_RANGES:
        raise BadRules(_unknown_variant(variant), "R5")
    return PLAYER_RANGES[variant]


def check_players(players: object, variant: str = STANDARD) -> None:
    """Raise BadRules, naming the game's rule, unless the variant seats `players` (R1.1, R5)."""
    allowed = players_allowed(variant)
    if type(players) is not int or players not in allowed:
        raise BadRules(
            f"{GAME_NAMES[variant]} is for {allowed[0]} to {allowed[-1]} players, not {players!r}",
            PLAYER_RULES[variant],
        )


def _unknown_variant(variant: object) -> str:
    return f"The variant must be one of {', '.join(VARIANTS)}, not {variant!r}"


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
    # R5: "standard", "omnibus" (R5.1) or "cancellation" (R5.2).
    variant: str = STANDARD
    # R5.1: the Omnibus bonus card, "JD" or "TD"; only Omnibus may change it.
    bonus_card: str = "JD"

    def __post_init__(self) -> None:
        if type(self.variant) is not str or self.variant not in VARIANTS:
            raise BadRules(_unknown_variant(self.variant), "R5")
        if type(self.bonus_card) is not str or self.bonus_card not in BONUS_CARDS:
            raise BadRules(
                f"The bonus card is the J♦ (JD) or the 10♦ (TD), not {self.bonus_card!r}", "R5.1"
            )
        if self.bonus_card != "JD" and self.variant != OMNIBUS:
            raise BadRules("Only Omnibus Hearts has a bonus card to choose", "R5.1")
        check_players(self.players, self.variant)
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
    def two_decks(self) -> bool:
        """Say whether this game plays two decks (R5.2), with cards 0..103 (see cards.py)."""
        return self.variant == CANCELLATION

    @cached_property
    def bonus_mask(self) -> int:
        """Return the Omnibus bonus card as a one-card set (R5.1), or 0 without one."""
        return _mask_of_texts((self.bonus_card,)) if self.variant == OMNIBUS else 0

    @cached_property
    def moon_points(self) -> int:
        """Return the points a moon shot is worth: 26, or 52 with two decks (R4.3, R5.2)."""
        return 52 if self.two_decks else 26

    @cached_property
    def deck_mask(self) -> int:
        """Return the card set in play for this table size (R1.3; both decks for R5.2)."""
        if self.two_decks:
            return TWO_DECKS
        return FULL_DECK & ~_mask_of_texts(REMOVED[self.players])

    @cached_property
    def hand_size(self) -> int:
        """Return the number of cards each player is dealt (R1.3; as far as they go, R5.2)."""
        return self.deck_mask.bit_count() // self.players

    @cached_property
    def widow_size(self) -> int:
        """Return the number of cards left over after the deal (R5.2's widow; 0 otherwise)."""
        return self.deck_mask.bit_count() - self.hand_size * self.players

    @cached_property
    def deck_indices(self) -> tuple[int, ...]:
        """Return the indices of the cards in play, lowest first."""
        return tuple(i for i in range(self.deck_mask.bit_length()) if self.deck_mask >> i & 1)

    @cached_property
    def deck_bits(self) -> tuple[int, ...]:
        """Return the one-card sets of the cards in play, in the order of deck_indices."""
        return tuple(1 << i for i in self.deck_indices)

    @property
    def tricks_per_hand(self) -> int:
        """Return the number of tricks in a hand."""
        return self.hand_size

    def dealer(self, hand_no: int) -> int:
        """Return the seat that deals a 1-based hand: (hand_no - 1) mod n (R5.2, R5.4)."""
        return (hand_no - 1) % self.players

    @cached_property
    def opening_card_index(self) -> int:
        """Return the index of the lowest club in the deck, which leads the first trick (R3.1)."""
        clubs = self.deck_mask & SUIT_MASKS[CLUBS]
        return (clubs & -clubs).bit_length() - 1

    def pass_offset(self, hand_no: int) -> int:
        """Return the seat offset passes go to on a 1-based hand number (0: no pass)."""
        if self.two_decks:
            return 0  # R5.2: no passing
        cycle = PASS_OFFSETS_FOUR if self.players == 4 else PASS_OFFSETS_OTHER
        return cycle[(hand_no - 1) % len(cycle)] % self.players

    def pass_direction(self, hand_no: int) -> str:
        """Return "left", "right", "across" or "none" for a 1-based hand number (R2.3, R2.4)."""
        if self.two_decks:
            return "none"  # R5.2: no passing
        cycle = PASS_OFFSETS_FOUR if self.players == 4 else PASS_OFFSETS_OTHER
        return PASS_NAMES[cycle[(hand_no - 1) % len(cycle)]]
