"""Why a service refused an action, with the HTTP status a view should answer with."""

from games import engine
from games.lib.card_words import reason_words


class ActionRefused(Exception):
    """An action the match did not accept; the match is unchanged."""

    status = 400

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


class BadInput(ActionRefused):
    """Malformed or impossible input: a card not held, a pass of the wrong size."""

    status = 400


class IllegalPlay(ActionRefused):
    """A card the rules forbid now; `rule` names the rule (R3.2, R3.5 …)."""

    status = 400


class NotAllowed(ActionRefused):
    """The caller may not do this here: not seated, not the creator."""

    status = 403


class NotFound(ActionRefused):
    """No such match (or none the caller may see)."""

    status = 404


class Conflict(ActionRefused):
    """The match is not in a state for this action: out of turn, wrong phase, finished."""

    status = 409


class TooManyOpen(ActionRefused):
    """The player already holds as many open matches as a player may (created or joined)."""

    status = 429


class TooSoon(ActionRefused):
    """Allowed again later, not now: `retry_after` says in how many seconds."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class StaleVersion(Conflict):
    """The caller acted on a table that has moved on since they saw it."""


def from_engine(error: engine.EngineError) -> ActionRefused:
    """Translate an engine rejection into the service's terms, keeping its rule.

    A card the rules forbid is said in the reader's language (the engine speaks English).
    """
    if isinstance(error, engine.IllegalMove):
        return IllegalPlay(reason_words(error.message, error.rule), error.rule)
    if isinstance(error, engine.NotYourTurn | engine.WrongPhase):
        return Conflict(error.message, error.rule)
    return BadInput(error.message, error.rule)
