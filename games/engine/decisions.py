"""Decisions as values: a seat's pass, play or moon choice, as the match applies and logs them.

`Pass`, `Play` and `MoonChoice` are frozen, hashable and compared by value; `Decision` is
their common base. Three forms, each for one reader:

- the value itself, for the engine (`Match.apply(decision)`) and the bots (`bot.choose(view)`);
- `str(decision)`, the action log's value ("QS", "2C QS AH" with the cards sorted, "add"),
  read back with `Decision.from_log(kind, seat, value)`, `kind` being `decision.kind`;
- `to_dict()`, the JSON form of snapshots' callers, exports and match records
  (`{"type": "play", "seat": 1, "card": "QS"}`), read back with `Decision.from_dict`, which
  refuses a malformed one with `BadDecision` (or `BadCard` for a card that is not one).

>>> play = Play(1, Card.parse("QS"))
>>> play, str(play), play.to_dict()
(Play(seat=1, card=Card.parse('QS')), 'QS', {'type': 'play', 'seat': 1, 'card': 'QS'})
>>> Decision.from_dict(play.to_dict()) == play == Decision.from_log("play", 1, "QS")
True
>>> passed = Pass(0, (Card.parse("QS"), Card.parse("AH"), Card.parse("2C")))
>>> str(passed), passed.to_dict()["cards"]
('2C AH QS', ['QS', 'AH', '2C'])
>>> str(MoonChoice(2, "add")), MoonChoice(2, "add").kind
('add', 'moon')
>>> Decision.from_dict({"type": "fold", "seat": 0})
Traceback (most recent call last):
...
games.engine.errors.BadDecision: Unknown decision type 'fold': use pass, play or moon
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import Card
from .errors import BadDecision

PASS, PLAY, MOON_CHOICE = "pass", "play", "moon"  # the log's kinds and the dicts' "type"


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


@dataclass(frozen=True, slots=True)
class Decision:
    """What one seat decided; `kind` names the subclass in logs and dicts."""

    kind: ClassVar[str]
    seat: int

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form: {"type": kind, "seat": seat, ...} (subclasses add their part)."""
        raise NotImplementedError

    @staticmethod
    def from_log(kind: str, seat: int, value: str) -> Decision:
        """Return the decision an action log's line holds (`str(decision)` is its value)."""
        if kind == PLAY:
            return Play(seat, Card.parse(value))
        if kind == PASS:
            return Pass(seat, tuple(Card.parse(text) for text in value.split()))
        if kind == MOON_CHOICE:
            return MoonChoice(seat, value)
        raise BadDecision(f"Unknown decision type {kind!r}: use pass, play or moon")

    @staticmethod
    def from_dict(data: object) -> Decision:
        """Return the decision of a JSON form, or raise BadDecision (BadCard for a bad card)."""
        if not isinstance(data, dict):
            raise BadDecision(f"A decision must be an object, not {type(data).__name__}")
        kind = data.get("type")
        seat = data.get("seat")
        if type(seat) is not int:
            raise BadDecision(f"A decision needs a seat number, not {seat!r}")
        if kind == PLAY:
            card = data.get("card")
            if not isinstance(card, Card | str):
                raise BadDecision("A play decision needs a card")
            return Play(seat, _card(card))
        if kind == PASS:
            cards = data.get("cards")
            if not isinstance(cards, list):
                raise BadDecision("A pass decision needs a list of cards")
            return pass_of(seat, cards)
        if kind == MOON_CHOICE:
            option = data.get("option")
            if not isinstance(option, str):
                raise BadDecision("A moon decision needs an option: subtract or add")
            return MoonChoice(seat, option)
        raise BadDecision(f"Unknown decision type {kind!r}: use pass, play or moon")


@dataclass(frozen=True, slots=True)
class Pass(Decision):
    """The cards a seat passes (R2), in the order chosen; the log sorts them."""

    kind: ClassVar[str] = PASS
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        # Sorted, so that the same pass always logs the same value (a repeated request is
        # recognised by it).
        return " ".join(str(card) for card in sorted(self.cards))

    def to_dict(self) -> dict[str, Any]:
        return {"type": PASS, "seat": self.seat, "cards": [str(card) for card in self.cards]}


@dataclass(frozen=True, slots=True)
class Play(Decision):
    """The card a seat plays (R3). With two decks, the first copy names either (see cards.py)."""

    kind: ClassVar[str] = PLAY
    card: Card

    def __str__(self) -> str:
        return str(self.card)

    def to_dict(self) -> dict[str, Any]:
        return {"type": PLAY, "seat": self.seat, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class MoonChoice(Decision):
    """A shooter's choice (R4.3): "subtract" from their total or "add" to everyone else's."""

    kind: ClassVar[str] = MOON_CHOICE
    option: str

    def __str__(self) -> str:
        return self.option

    def to_dict(self) -> dict[str, Any]:
        return {"type": MOON_CHOICE, "seat": self.seat, "option": self.option}


def pass_of(seat: int, cards: Iterable[Card | str]) -> Pass:
    """Return a pass of cards given as Cards or codes."""
    return Pass(seat, tuple(_card(card) for card in cards))
