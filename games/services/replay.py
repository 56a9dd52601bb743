"""Rebuild a match's engine state from the truth: its hands' deals and the action log."""

from typing import Any

from games import engine
from games.models import Action, Hand, Match


def replay_match(match: Match) -> engine.Match:
    """Replay every logged decision over the recorded deals, through the checked door."""
    deals = [hand.deal for hand in Hand.objects.filter(match=match).order_by("number")]
    actions = Action.objects.filter(match=match).order_by("hand__number", "seq")
    return engine.replay(match.rule_set, deals, (action.as_decision() for action in actions))


def log_matches_snapshot(match: Match) -> bool:
    """Say whether the replayed log reproduces the stored snapshot exactly."""
    stored: dict[str, Any] | None = match.snapshot  # the engine's JSON form, if it has started
    if stored is None:
        return not Action.objects.filter(match=match).exists()
    try:
        return replay_match(match).snapshot() == stored
    except engine.EngineError:
        return False  # the log breaks the rules somewhere: it cannot be the truth
