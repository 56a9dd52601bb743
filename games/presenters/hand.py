"""The viewer's own hand: which cards can be chosen now and why not, and what was passed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

from django.utils.translation import gettext

from games import engine
from games.lib.card_words import pass_words, reason_words

from .table import Place

# Black and red suits alternate in the hand, so two neighbouring suits never share a colour.
SUIT_ORDER = "CDSH"


@dataclass(frozen=True)
class HandCard:
    """A card in the viewer's hand and whether it can be chosen now."""

    card: engine.Card
    legal: bool
    reason_id: str | None
    checked: bool = False
    received: bool = False  # passed to the viewer this hand: marked in the hand


@dataclass(frozen=True)
class Reason:
    """Why some cards cannot be played now, in words and by rule (R3.8)."""

    id: str
    text: str
    rule: str | None


def _sort_key(card: engine.Card) -> tuple[int, engine.Card]:
    return SUIT_ORDER.index(card.suit), card


def _reason_for_waiting(view: engine.SeatView, by_pos: dict[int, Place]) -> str:
    if view.phase != engine.PLAYING:
        return gettext("You cannot play a card now.")
    return gettext("Wait for your turn: %(name)s is to play.") % {
        "name": by_pos[view.to_act[0]].name
    }


def hand_cards(
    view: engine.SeatView, by_pos: dict[int, Place], selected: Iterable[str]
) -> tuple[list[HandCard], list[Reason]]:
    """Return the viewer's cards in suit order, and the reasons the disabled ones point to."""
    reasons: dict[str, Reason] = {}
    chosen = set(selected)

    def reason_id(text: str, rule: str | None) -> str:
        if text not in reasons:
            reasons[text] = Reason(f"why-{len(reasons) + 1}", text, rule)
        return reasons[text].id

    received = set(view.received or ())
    cards = []
    for option in sorted(view.options, key=lambda o: _sort_key(o.card)):
        card, checked, got = option.card, str(option.card) in chosen, option.card in received
        if option.legal:
            cards.append(HandCard(card, True, None, checked, got))
        elif view.my_turn:
            rid = reason_id(reason_words(option.reason, option.rule), option.rule)
            cards.append(HandCard(card, False, rid, checked, got))
        else:
            rid = reason_id(_reason_for_waiting(view, by_pos), None)
            cards.append(HandCard(card, False, rid, checked, got))
    return cards, list(reasons.values())


# The viewer's pass: "from" is a keyword, so the class is spelled as a call.
PassInfo = TypedDict(
    "PassInfo",
    {
        "to": Place,
        "from": Place | None,
        "direction": str,
        "passed": list[engine.Card],
        "received": list[engine.Card],
        "waiting_for": list[Place],
    },
)


def pass_info(view: engine.SeatView, by_pos: dict[int, Place]) -> PassInfo | None:
    """Return who the viewer passes to and receives from, and the cards once they are known."""
    if view.pass_to is None:
        return None
    return {
        "to": by_pos[view.pass_to],
        "from": by_pos[view.pass_from] if view.pass_from is not None else None,
        "direction": pass_words(view.pass_direction),
        "passed": sorted(view.passed or (), key=_sort_key),
        "received": sorted(view.received or (), key=_sort_key),
        "waiting_for": [by_pos[p] for p in view.to_act] if view.phase == engine.PASSING else [],
    }
