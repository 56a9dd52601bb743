"""Errors raised by the checked doors; each is a ValueError with a message a player understands."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every rejection; `rule` names the RULES.md rule that forbids it, when one does."""

    default_rule: str | None = None

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule if rule is not None else self.default_rule


class BadCard(EngineError):
    """Card text that is not a card."""


class BadRules(EngineError):
    """A rule set outside what the rules allow."""


class BadDeal(EngineError):
    """An explicit deal with the wrong deck, missing or repeated cards."""

    default_rule = "R1.3"


class WrongPhase(EngineError):
    """A decision that does not belong to the current phase of the match."""

    default_rule = "R6.1"


class NotYourTurn(EngineError):
    """A decision from a seat that is not to act."""


class CardNotHeld(EngineError):
    """A card the seat does not hold."""


class BadPass(EngineError):
    """A pass that is not three distinct held cards."""

    default_rule = "R2.5"


class IllegalMove(EngineError):
    """A play the rules forbid; `rule` is e.g. "R3.2"."""


class BadMoonChoice(EngineError):
    """A moon choice other than "subtract" or "add"."""

    default_rule = "R4.3"


class BadDecision(EngineError):
    """A decision value that is malformed."""


class BadSnapshot(EngineError):
    """A snapshot or replay log that does not describe a reachable state."""
