"""What makes a variant's table (R5), in the words the table shows beside the cards.

Omnibus Hearts: the bonus card and who took it this hand. Cancellation Hearts: the dealer, the
widow (its size, then who took it; its cards only once the hand is over), and the cards of
tricks nobody won, waiting for the next trick's winner. All of it is public (R6.3); a sealed
table's view has had the parts that come from the cards taken out (`sealed_view`).
"""

from __future__ import annotations

from dataclasses import dataclass

from games import engine

from .table import Place


@dataclass(frozen=True)
class OmnibusFacts:
    bonus_card: engine.Card
    bonus_taker: Place | None


@dataclass(frozen=True)
class CancellationFacts:
    dealer: Place | None
    widow_size: int
    widow_taker: Place | None
    widow: tuple[engine.Card, ...] | None  # its cards, once the hand is over
    waiting: int  # cards of tricks not won, for the next trick's winner
    waiting_points: int


def variant_facts(
    view: engine.PublicView | None, by_pos: dict[int, Place]
) -> OmnibusFacts | CancellationFacts | None:
    """Return the facts of the match's variant, or None for the standard game."""
    if view is None:
        return None
    if view.bonus_card is not None:
        taker = by_pos.get(view.bonus_taker) if view.bonus_taker is not None else None
        return OmnibusFacts(view.bonus_card, taker)
    if view.rules.two_decks:
        return CancellationFacts(
            dealer=by_pos.get(view.dealer) if view.dealer is not None else None,
            widow_size=view.widow_size,
            widow_taker=by_pos.get(view.widow_taker) if view.widow_taker is not None else None,
            widow=view.widow,
            waiting=len(view.carried),
            waiting_points=sum(card.points for card in view.carried),
        )
    return None
