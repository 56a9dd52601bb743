"""What each seat, and a spectator, may know (R6.3): plain frozen data, nothing more.

The views are built by `viewing.py` (and `cancellation_views.py` for two decks); this module
holds only their shapes, so that `state.py` can name them without importing a builder.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .phases import FINISHED
from .rules import RuleSet
from .scoring import ScoreRow


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """A card on the table and the seat that played it."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickView:
    """A trick of this hand: the cards in play order, the winner once complete, its points.

    `taker` is the seat that took the trick's cards: in every game, the winner of a won trick.
    Cancellation (R5.2): `cancelled` holds the cards played twice to the trick (both copies,
    any suit); a trick whose every card of the suit led is cancelled has no `winner`, and its
    cards go to `taker`, the winner of the next won trick (its leader on the last trick), None
    while they wait. In the other games `cancelled` is empty.
    """

    leader: int
    plays: tuple[PlayedCard, ...]
    winner: int | None
    points: int
    cancelled: tuple[Card, ...] = field(default=(), kw_only=True)
    taker: int | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class CardOption:
    """A card in the seat's hand, whether it may be played now, and if not, why (R3.8)."""

    card: Card
    legal: bool
    reason: str | None
    rule: str | None


@dataclass(frozen=True, slots=True)
class HandRecord:
    """The full record of a finished hand, shown to the match's players afterwards (R6.3)."""

    deal: tuple[tuple[Card, ...], ...]
    passes: tuple[tuple[Card, ...] | None, ...]
    tricks: tuple[TrickView, ...]
    widow: tuple[Card, ...] = field(default=(), kw_only=True)  # R5.2's widow


@dataclass(frozen=True, slots=True)
class PublicView:
    """What anyone watching may know: played cards, counts, scores, whose turn."""

    rules: RuleSet
    players: int
    hand_no: int
    # A Phase (a str) from the engine; typed str because the site may seal a view with its own.
    phase: str
    pass_direction: str
    to_act: tuple[int, ...]
    has_passed: tuple[bool, ...]
    hand_counts: tuple[int, ...]
    leader: int | None
    trick: tuple[PlayedCard, ...]
    tricks: tuple[TrickView, ...]
    first_trick: bool
    hearts_broken: bool
    points_taken: tuple[int, ...]
    totals: tuple[int, ...]
    sheet: tuple[ScoreRow, ...]
    shooter: int | None
    winners: tuple[int, ...]
    record: HandRecord | None
    # R5.1 Omnibus: the bonus card, and the seat that took it this hand (None until taken).
    bonus_card: Card | None = field(default=None, kw_only=True)
    bonus_taker: int | None = field(default=None, kw_only=True)
    # R5.2 Cancellation: the dealer; the widow's size, its taker once trick 1's cards are
    # taken, and its cards only once the hand is over (they are never shown during play, and
    # its points count in `points_taken` only then); the cards of tricks not won that wait
    # for the next won trick.
    dealer: int | None = field(default=None, kw_only=True)
    widow_size: int = field(default=0, kw_only=True)
    widow_taker: int | None = field(default=None, kw_only=True)
    widow: tuple[Card, ...] | None = field(default=None, kw_only=True)
    carried: tuple[Card, ...] = field(default=(), kw_only=True)

    @property
    def is_finished(self) -> bool:
        """Return True once the match is over."""
        return self.phase == FINISHED

    @property
    def lead_card(self) -> Card | None:
        """Return the card that led the current trick, if any."""
        return self.trick[0].card if self.trick else None


@dataclass(frozen=True, slots=True)
class SeatView(PublicView):
    """What one seat may know: the public view plus its own hand, pass and legal plays."""

    seat: int
    hand: tuple[Card, ...]
    passed: tuple[Card, ...] | None
    pass_to: int | None
    received: tuple[Card, ...] | None
    pass_from: int | None
    my_turn: bool
    legal: tuple[Card, ...]
    options: tuple[CardOption, ...]
    hand_mask: int
    legal_mask: int
