"""Builders for the engine tests: explicit deals, matches ready to play, forced moon shots."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import pytest

from games.engine import Card, Deal, Match, RuleSet
from games.engine.bots import BaselineBot
from games.engine.cards import CARDS, HEARTS_MASK, QS_MASK, SUIT_MASKS, indices_of, mask_of

TABLE_SIZES = (3, 4, 5, 6, 7)
each_table = pytest.mark.parametrize("players", TABLE_SIZES, ids=lambda n: f"players={n}")
CLUBS_MASK = SUIT_MASKS[0]


def texts(cards: Iterable[Card]) -> list[str]:
    """Return card texts, for readable assertions."""
    return [str(c) for c in cards]


def fill_hands(
    rules: RuleSet, fixed: dict[int, Iterable[str]], avoid: dict[int, str] | None = None
) -> list[int]:
    """Return hands (masks) holding the fixed cards, the rest of the deck dealt round-robin.

    `avoid` maps a seat to suits (e.g. "CH") it must not receive from the filler, to make voids.
    """
    n, size = rules.players, rules.hand_size
    hands = [mask_of(fixed.get(s, ())) for s in range(n)]
    used = 0
    for mask in hands:
        assert not used & mask, "a fixed card is given twice"
        used |= mask
    assert all(m.bit_count() <= size for m in hands)
    assert not used & ~rules.deck_mask, "a fixed card is not in this table's deck"
    avoid = avoid or {}
    seat = 0
    for index in indices_of(rules.deck_mask & ~used):
        for step in range(n):
            s = (seat + step) % n
            if hands[s].bit_count() < size and CARDS[index].suit not in avoid.get(s, ""):
                hands[s] |= 1 << index
                seat = s + 1
                break
        else:
            raise AssertionError(f"no seat can take {CARDS[index]}")
    return hands


def deal_before_pass(rules: RuleSet, hand_no: int, after: list[int], passes: list[int]) -> Deal:
    """Return the deal that, with these passes on hand `hand_no`, leaves the hands `after`."""
    n, off = rules.players, rules.pass_offset(hand_no)
    dealt = [after[s] & ~passes[(s - off) % n] | passes[s] for s in range(n)]
    return Deal.from_hands(rules, [[str(c) for c in _cards(m)] for m in dealt])


def _cards(mask: int) -> list[Card]:
    return [CARDS[i] for i in indices_of(mask)]


def ready_to_play(
    rules: RuleSet,
    hands: list[int],
    hand_no: int = 1,
    totals: list[int] | None = None,
) -> Match:
    """Return a match on hand `hand_no` in the playing phase holding exactly `hands`."""
    match = Match.new(rules)
    match.hand_no = hand_no - 1
    if totals is not None:
        match.totals = list(totals)
    off = rules.pass_offset(hand_no)
    if not off:
        match.start_hand(Deal.from_hands(rules, [_cards(m) for m in hands]))
        return match
    # Each seat passes three cards that belong in the receiver's final hand.
    passes = [_three_of(hands[(s + off) % rules.players]) for s in range(rules.players)]
    match.start_hand(deal_before_pass(rules, hand_no, hands, passes))
    for seat, mask in enumerate(passes):
        match.pass_cards(seat, _cards(mask))
    assert match.hands == hands
    return match


def _three_of(mask: int) -> int:
    picks = indices_of(mask)[-3:]
    return mask_of(CARDS[i] for i in picks)


def play_fixed(match: Match, cards: Iterable[str]) -> None:
    """Play the given cards in turn order through the checked door."""
    for card in cards:
        match.play(match.to_act()[0], card)


def moon_deal(rules: RuleSet, hand_no: int, shooter: int) -> Deal:
    """Return a deal where, after baseline passes, `shooter` must win every trick.

    After the pass the shooter holds the highest clubs (all of them and the top diamonds at
    three players), so every trick is led in clubs or in its unbeatable diamonds.
    """
    n, size = rules.players, rules.hand_size
    deck = rules.deck_mask
    order = indices_of(deck & CLUBS_MASK)[::-1] + indices_of(deck & SUIT_MASKS[1])[::-1]
    target = mask_of(CARDS[i] for i in order[:size])
    off = rules.pass_offset(hand_no)
    if not off:
        hands = fill_hands(rules, {shooter: [str(c) for c in _cards(target)]})
        return Deal.from_hands(rules, [_cards(m) for m in hands])
    top3 = mask_of(["AC", "KC", "QC"])
    giver = (shooter - off) % n
    dealt = [0] * n
    dealt[shooter] = target & ~top3 | mask_of(["AH", "KH", "QH"])
    # The giver's three most dangerous cards must be the A, K, Q of clubs: everything else it
    # holds is a low diamond or spade.
    low = [
        i for i in indices_of(deck & ~target & ~HEARTS_MASK & ~QS_MASK & ~CLUBS_MASK) if i % 13 <= 9
    ]
    dealt[giver] = top3 | mask_of(CARDS[i] for i in low[: size - 3])
    used = dealt[shooter] | dealt[giver]
    fixed = {s: [str(c) for c in _cards(m)] for s, m in enumerate(dealt) if m}
    hands = fill_hands(rules, fixed)
    assert hands[shooter] & used == dealt[shooter]
    return Deal.from_hands(rules, [_cards(m) for m in hands])


def cards_in(value: object) -> set[Card]:
    """Return every Card found anywhere inside a view (dataclasses, tuples, dicts)."""
    found: set[Card] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Card):
            found.add(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, tuple | list | set | frozenset):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
    return found


def baseline_bots(n: int) -> list[BaselineBot]:
    """Return one baseline bot per seat."""
    return [BaselineBot() for _ in range(n)]
