"""Building the views of a standard or Omnibus match (R6.3); see views.py for their shapes.

Match.view and Match.public_view call these through the registry in state.py, which this module
fills in when `games.engine` is imported: state.py imports no builder, and no builder cycle.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .cards import (
    ALL_CARDS,
    CARDS,
    DECK_SIZE,
    HEARTS_MASK,
    QS_INDEX,
    QS_MASK,
    cards_from_mask,
)
from .phases import FINISHED, HAND_OVER, MOON, PASSING, PLAYING
from .state import Match, register_views
from .views import CardOption, HandRecord, PlayedCard, PublicView, SeatView, TrickView


def _points(mask: int) -> int:
    return (mask & HEARTS_MASK).bit_count() + (13 if mask & QS_MASK else 0)


# Shared immutable pieces: a view is rebuilt for every decision, so reuse what cannot change.
_PLAYED = tuple(tuple(PlayedCard(seat, card) for card in CARDS) for seat in range(7))


def _plays(leader: int, cards: tuple[int, ...] | list[int], n: int) -> tuple[PlayedCard, ...]:
    return tuple(_PLAYED[(leader + i) % n][c] for i, c in enumerate(cards))


# Either copy of a card in two-deck play (R5.2).
_LEGAL = tuple(CardOption(card, True, None, None) for card in ALL_CARDS)


@lru_cache(maxsize=4096)
def _illegal(index: int, reason: str | None, rule: str | None) -> CardOption:
    return CardOption(ALL_CARDS[index], False, reason, rule)


@lru_cache(maxsize=8192)
def _trick_view(leader: int, cards: tuple[int, ...], winner: int | None, n: int) -> TrickView:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return TrickView(leader, _plays(leader, cards, n), winner, _points(mask), taker=winner)


def _public_fields(match: Match) -> dict[str, Any]:
    n = match.n
    tricks = tuple(_trick_view(ld, cards, w, n) for ld, cards, w in match.tricks)
    over = match.phase in (MOON, HAND_OVER, FINISHED) and match.deal is not None
    record = None
    if over:
        record = HandRecord(
            deal=match.deal.hands,  # type: ignore[union-attr]
            passes=tuple(None if p is None else cards_from_mask(p) for p in match.passes),
            tricks=tricks,
        )
    in_hand = match.phase in (PASSING, PLAYING)
    fields = {
        "rules": match.rules,
        "players": n,
        "hand_no": match.hand_no,
        "phase": match.phase,
        "pass_direction": match.pass_direction,
        "to_act": match.to_act(),
        "has_passed": tuple(p is not None for p in match.passes),
        "hand_counts": tuple(h.bit_count() for h in match.hands),
        "leader": match.leader if match.phase == PLAYING else None,
        "trick": _plays(match.leader, match.trick, n),
        "tricks": tricks,
        "first_trick": match.phase == PLAYING and match.first,
        "hearts_broken": match.broken if in_hand else False,
        "points_taken": match.points_taken,
        "totals": tuple(match.totals),
        "sheet": tuple(match.sheet),
        "shooter": match.shooter if match.phase == MOON else None,
        "winners": match.winners,
        "record": record,
    }
    if match.bonus:
        fields["bonus_card"] = CARDS[match.bonus.bit_length() - 1]
        fields["bonus_taker"] = match.bonus_taker
    return fields


def public_view(match: Match) -> PublicView:
    """Return the spectator's view of a match."""
    return PublicView(**_public_fields(match))


def hand_fields(match: Match, seat: int) -> dict[str, Any]:
    """Return a seat's own hand for its SeatView: its cards, which it may play now, and why not.

    Shared by every game: the match says which cards are legal and why the others are not.
    """
    hand_mask = match.hands[seat]
    my_turn = seat in match.to_act()
    legal_mask = match.legal_mask() if match.phase == PLAYING and my_turn else 0
    hand = cards_from_mask(hand_mask)
    options = []
    legal = []
    reasons: dict[int, tuple[str | None, str | None]] = {}
    for card in hand:
        i = card.index
        if legal_mask >> i & 1:
            options.append(_LEGAL[i])
            legal.append(card)
            continue
        # Every rule's verdict depends only on the suit and on whether the card is a Q♠.
        face = i % DECK_SIZE
        key = face // 13 + (4 if face == QS_INDEX else 0)
        if key not in reasons:
            error = match.illegal_reason(seat, card)
            reasons[key] = (error.message, error.rule) if error else (None, None)
        options.append(_illegal(i, *reasons[key]))
    return {
        "seat": seat,
        "hand": hand,
        "my_turn": my_turn,
        "legal": tuple(legal),
        "options": tuple(options),
        "hand_mask": hand_mask,
        "legal_mask": legal_mask,
    }


def seat_view(match: Match, seat: int) -> SeatView:
    """Return one seat's view of a match; it holds no other seat's unplayed or passed cards."""
    n = match.n
    passed = match.passes[seat]
    all_passed = match.pass_offset and all(p is not None for p in match.passes)
    offset = match.pass_offset
    return SeatView(
        **_public_fields(match),
        **hand_fields(match, seat),
        passed=None if passed is None else cards_from_mask(passed),
        pass_to=(seat + offset) % n if offset else None,
        received=cards_from_mask(match.received[seat]) if all_passed else None,
        pass_from=(seat - offset) % n if offset else None,
    )


register_views(Match, seat_view, public_view)
