"""Deals: random from a recorded seed, or explicit (R6.2)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cards import (
    ALL_CARDS,
    ALL_TEXTS,
    DECK_SIZE,
    Card,
    cards_from_mask,
    code_index,
    index_of,
    text_of_mask,
)
from .errors import BadCard, BadDeal
from .rules import RuleSet

# BITS[i] is the one-card set of card i, for both decks (R5.2 numbers second copies 52..103).
BITS = tuple(1 << i for i in range(2 * DECK_SIZE))


class Deal:
    """The hands as dealt, seat by seat, as card sets; immutable once made.

    `widow` is the set of cards left over in Cancellation (R5.2), 0 in the other games.
    """

    __slots__ = ("masks", "players", "seed", "widow")

    masks: tuple[int, ...]
    players: int
    seed: int | None
    widow: int

    def __init__(self, masks: Sequence[int], seed: int | None = None, widow: int = 0) -> None:
        """Trust the masks; use from_hands or from_seed for checked construction."""
        object.__setattr__(self, "masks", tuple(masks))
        object.__setattr__(self, "players", len(self.masks))
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "widow", widow)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Deal is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and other.masks == self.masks and other.widow == self.widow

    def __hash__(self) -> int:
        return hash(self.masks)

    def __repr__(self) -> str:
        widow = f", widow={text_of_mask(self.widow)!r}" if self.widow else ""
        return f"Deal({[text_of_mask(m) for m in self.masks]!r}, seed={self.seed!r}{widow})"

    @classmethod
    def from_rng(cls, rules: RuleSet, rng: random.Random, seed: int | None = None) -> Deal:
        """Shuffle the table's deck with a caller's Random and deal it out."""
        deck = list(rules.deck_indices)
        rng.shuffle(deck)
        size = rules.hand_size
        dealt = size * rules.players  # R5.2: as far as the cards go evenly; the rest is the widow
        bit = BITS.__getitem__
        # Distinct bits: their sum is their union, and sum/map run at C speed.
        masks = [sum(map(bit, deck[start : start + size])) for start in range(0, dealt, size)]
        return cls(masks, seed, sum(map(bit, deck[dealt:])))

    @classmethod
    def from_random(cls, rules: RuleSet, rng: random.Random) -> Deal:
        """Return a uniformly random deal for simulations, about four times faster than from_rng.

        Sorting on random keys runs at C speed where shuffle draws each swap in Python. For the
        same Random state it gives a different deal than from_rng, so recorded seeds (R6.2)
        keep using from_seed. The cards are shuffled as one-card sets, so a hand is the sum of
        its slice, with no lookup per card.
        """
        deck = list(rules.deck_bits)
        random_ = rng.random
        deck.sort(key=lambda _: random_())
        size = rules.hand_size
        dealt = size * rules.players
        return cls(
            [sum(deck[start : start + size]) for start in range(0, dealt, size)],
            None,
            sum(deck[dealt:]),
        )

    @classmethod
    def from_seed(cls, rules: RuleSet, seed: int) -> Deal:
        """Return the deal a recorded seed gives; the same seed always gives the same deal."""
        if type(seed) is not int:
            raise BadDeal(f"A deal seed must be a whole number, not {seed!r}")
        return cls.from_rng(rules, random.Random(seed), seed)

    @classmethod
    def from_hands(cls, rules: RuleSet, hands: Sequence[Sequence[Card | str] | str]) -> Deal:
        """Return an explicit deal, checking it is exactly the table's deck dealt evenly.

        With two decks (R5.2) the cards no seat holds are the widow. There a plain name ("QS",
        or the first copy's Card) takes the first copy while it is free, else the second, so a
        deal may list a card twice without saying which copy is which; "QS2" (or
        SECOND_COPIES' card) names the second copy.
        """
        n = rules.players
        if isinstance(hands, str) or len(hands) != n:
            raise BadDeal(f"A {n}-player deal needs {n} hands")
        two_decks = rules.two_decks
        lookup = code_index if two_decks else index_of
        deck = rules.deck_mask
        size = rules.hand_size
        seen = 0
        masks = []
        for seat, hand in enumerate(hands):
            items: Sequence[Card | str] = hand.split() if isinstance(hand, str) else hand
            if len(items) != size:
                raise BadDeal(f"Seat {seat} has {len(items)} cards; each seat needs {size}")
            mask = 0
            for item in items:
                try:
                    i = item.index if isinstance(item, Card) else lookup(item)
                except BadCard as exc:
                    raise BadDeal(f"Seat {seat}: {exc.message}") from None
                if two_decks:
                    if i < DECK_SIZE and seen >> i & 1:
                        i += DECK_SIZE  # the first copy is dealt: this is the second
                    if seen >> i & 1:
                        raise BadDeal(f"{ALL_CARDS[i].face_text} is dealt more than twice", "R5.2")
                else:
                    if not deck >> i & 1:
                        raise BadDeal(f"{ALL_TEXTS[i]} is not in the {n}-player deck")
                    if seen >> i & 1:
                        raise BadDeal(f"{ALL_TEXTS[i]} is dealt twice")
                seen |= 1 << i
                mask |= 1 << i
            masks.append(mask)
        left = deck & ~seen
        if left and not two_decks:
            raise BadDeal(f"Cards missing from the deal: {text_of_mask(left)}")
        return cls(masks, None, left)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Return each seat's dealt cards, sorted."""
        return tuple(cards_from_mask(m) for m in self.masks)

    @property
    def widow_cards(self) -> tuple[Card, ...]:
        """Return the widow's cards, sorted (R5.2; empty in the other games)."""
        return cards_from_mask(self.widow)

    def check(self, rules: RuleSet) -> None:
        """Raise BadDeal unless this deal is the table's deck dealt evenly to its seats."""
        Deal.from_hands(rules, [text_of_mask(m) for m in self.masks])

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form: the hands always, the seed when there is one."""
        data: dict[str, Any] = {"hands": [text_of_mask(m) for m in self.masks]}
        if self.seed is not None:
            data["seed"] = self.seed
        if self.widow:
            data["widow"] = text_of_mask(self.widow)  # R5.2; derived, written for readers
        return data

    @classmethod
    def from_dict(cls, rules: RuleSet, data: dict[str, Any]) -> Deal:
        """Return the deal of a JSON form, checked against the rules."""
        if not isinstance(data, dict) or ("hands" not in data and "seed" not in data):
            raise BadDeal("A deal must give its hands or its seed")
        if "hands" in data:
            deal = cls.from_hands(rules, data["hands"])
            if "widow" in data and data["widow"] != text_of_mask(deal.widow):
                raise BadDeal("The widow is not the cards left over from the deal", "R5.2")
            seed = data.get("seed")
            return cls(deal.masks, seed, deal.widow) if seed is not None else deal
        return cls.from_seed(rules, data["seed"])
