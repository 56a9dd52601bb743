"""Deals: random from a recorded seed, or explicit (R6.2)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cards import BITS, TEXTS, Card, cards_from_mask, index_of, text_of_mask
from .errors import BadCard, BadDeal
from .rules import RuleSet


class Deal:
    """The hands as dealt, seat by seat, as card sets; immutable once made."""

    __slots__ = ("masks", "players", "seed")

    masks: tuple[int, ...]
    players: int
    seed: int | None

    def __init__(self, masks: Sequence[int], seed: int | None = None) -> None:
        """Trust the masks; use from_hands or from_seed for checked construction."""
        object.__setattr__(self, "masks", tuple(masks))
        object.__setattr__(self, "players", len(self.masks))
        object.__setattr__(self, "seed", seed)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Deal is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and other.masks == self.masks

    def __hash__(self) -> int:
        return hash(self.masks)

    def __repr__(self) -> str:
        return f"Deal({[text_of_mask(m) for m in self.masks]!r}, seed={self.seed!r})"

    @classmethod
    def from_rng(cls, rules: RuleSet, rng: random.Random, seed: int | None = None) -> Deal:
        """Shuffle the table's deck with a caller's Random and deal it out."""
        deck = list(rules.deck_indices)
        rng.shuffle(deck)
        size = len(deck) // rules.players
        bit = BITS.__getitem__
        # Distinct bits: their sum is their union, and sum/map run at C speed.
        masks = [sum(map(bit, deck[start : start + size])) for start in range(0, len(deck), size)]
        return cls(masks, seed)

    @classmethod
    def from_random(cls, rules: RuleSet, rng: random.Random) -> Deal:
        """Return a uniformly random deal for simulations, about four times faster than from_rng.

        Sorting on random keys runs at C speed where shuffle draws each swap in Python. For the
        same Random state it gives a different deal than from_rng, so recorded seeds (R6.2)
        keep using from_seed.
        """
        deck = list(rules.deck_indices)
        random_ = rng.random
        deck.sort(key=lambda _: random_())
        size = len(deck) // rules.players
        bit = BITS.__getitem__
        return cls(
            [sum(map(bit, deck[start : start + size])) for start in range(0, len(deck), size)]
        )

    @classmethod
    def from_seed(cls, rules: RuleSet, seed: int) -> Deal:
        """Return the deal a recorded seed gives; the same seed always gives the same deal."""
        if type(seed) is not int:
            raise BadDeal(f"A deal seed must be a whole number, not {seed!r}")
        return cls.from_rng(rules, random.Random(seed), seed)

    @classmethod
    def from_hands(cls, rules: RuleSet, hands: Sequence[Sequence[Card | str] | str]) -> Deal:
        """Return an explicit deal, checking it is exactly the table's deck dealt evenly."""
        n = rules.players
        if isinstance(hands, str) or len(hands) != n:
            raise BadDeal(f"A {n}-player deal needs {n} hands")
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
                    i = item.index if isinstance(item, Card) else index_of(item)
                except BadCard as exc:
                    raise BadDeal(f"Seat {seat}: {exc.message}") from None
                bit = 1 << i
                if not bit & deck:
                    raise BadDeal(f"{TEXTS[i]} is not in the {n}-player deck")
                if bit & seen:
                    raise BadDeal(f"{TEXTS[i]} is dealt twice")
                seen |= bit
                mask |= bit
            masks.append(mask)
        missing = deck & ~seen
        if missing:
            raise BadDeal(f"Cards missing from the deal: {text_of_mask(missing)}")
        return cls(masks)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Return each seat's dealt cards, sorted."""
        return tuple(cards_from_mask(m) for m in self.masks)

    def check(self, rules: RuleSet) -> None:
        """Raise BadDeal unless this deal is the table's deck dealt evenly to its seats."""
        Deal.from_hands(rules, [text_of_mask(m) for m in self.masks])

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form: the hands always, the seed when there is one."""
        data: dict[str, Any] = {"hands": [text_of_mask(m) for m in self.masks]}
        if self.seed is not None:
            data["seed"] = self.seed
        return data

    @classmethod
    def from_dict(cls, rules: RuleSet, data: dict[str, Any]) -> Deal:
        """Return the deal of a JSON form, checked against the rules."""
        if not isinstance(data, dict) or ("hands" not in data and "seed" not in data):
            raise BadDeal("A deal must give its hands or its seed")
        if "hands" in data:
            deal = cls.from_hands(rules, data["hands"])
            seed = data.get("seed")
            return cls(deal.masks, seed) if seed is not None else deal
        return cls.from_seed(rules, data["seed"])
