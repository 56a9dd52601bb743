"""Replay from (rules, deals, decisions), compact snapshots, and the decisions' constructors."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .cards import ALL_TEXTS, Card, text_of_mask
from .deal import Deal
from .decisions import Decision, MoonChoice, Pass, Play, pass_of
from .errors import BadSnapshot, EngineError
from .phases import HAND_OVER, MOON, PASSING, PHASES
from .rules import RuleSet
from .scoring import ScoreRow
from .state import Match, lend_record

SNAPSHOT_VERSION = 1


def pass_decision(seat: int, cards: Iterable[Card | str]) -> Pass:
    """Return the decision for a pass (cards as Cards or codes)."""
    return pass_of(seat, cards)


def play_decision(seat: int, card: Card | str) -> Play:
    """Return the decision for a play (a Card or its code)."""
    return Play(seat, card if isinstance(card, Card) else Card.parse(card))


def moon_decision(seat: int, option: str) -> MoonChoice:
    """Return the decision for a moon choice."""
    return MoonChoice(seat, option)


def replay(
    rules: RuleSet,
    deals: Sequence[Deal | dict[str, Any]],
    decisions: Iterable[Decision],
    checked: bool = True,
) -> Match:
    """Rebuild a match: each deal starts the next hand as soon as the one before is over (R6.2).

    >>> from games.engine import Deal, RuleSet, pass_decision, play_decision
    >>> rules = RuleSet(players=4)
    >>> deal = Deal.from_seed(rules, 7)
    >>> passes = [pass_decision(seat, deal.hands[seat][-3:]) for seat in range(4)]
    >>> match = replay(rules, [deal], passes + [play_decision(0, "2C")])
    >>> match.phase, match.turn, match.legal_plays(1)
    (<Phase.PLAYING: 'playing'>, 1, (Card.parse('AC'),))
    >>> replay(rules, [deal], [play_decision(0, "2C")])  # a play while the seats pass
    Traceback (most recent call last):
    ...
    games.engine.errors.WrongPhase: You cannot play a card now: cards are being passed
    """
    match = Match.new(rules)
    pending = [d if isinstance(d, Deal) else Deal.from_dict(rules, d) for d in deals]
    pending.reverse()
    for number, decision in enumerate(decisions):
        if match.phase == HAND_OVER:
            if not pending:
                raise BadSnapshot(f"Decision {number} needs the deal of hand {match.hand_no + 1}")
            match.start_hand(pending.pop())
        if checked:
            match.apply(decision)
        else:
            match.apply_unchecked(decision)
    while pending and match.phase == HAND_OVER:
        match.start_hand(pending.pop())
    if pending:
        raise BadSnapshot(f"{len(pending)} deal(s) left over: hand {match.hand_no} is not over")
    return match


def snapshot(match: Match) -> dict[str, Any]:
    """Return the compact JSON form of a match: rules, score sheet, and this hand's record."""
    plays = [ALL_TEXTS[c] for _, cards, _ in match.tricks for c in cards]
    plays.extend(ALL_TEXTS[c] for c in match.trick)
    return {
        "v": SNAPSHOT_VERSION,
        "rules": match.rules.to_dict(),
        "hand_no": match.hand_no,
        "phase": match.phase,
        "totals": list(match.totals),
        "sheet": [row.to_dict() for row in match.sheet],
        "deal": match.deal.to_dict() if match.deal is not None else None,
        "passes": [None if p is None else text_of_mask(p) for p in match.passes],
        "plays": " ".join(plays),
    }


def from_snapshot(data: dict[str, Any]) -> Match:
    """Rebuild a match from a snapshot through the checked door, refusing inconsistent ones."""
    try:
        match = _rebuild(data)
    except BadSnapshot:
        raise
    except (EngineError, KeyError, TypeError, AttributeError, ValueError) as exc:
        raise BadSnapshot(f"This snapshot does not describe a valid match: {exc}") from None
    if match.snapshot() != data:
        raise BadSnapshot("This snapshot contradicts itself")
    return match


def _rebuild(data: dict[str, Any]) -> Match:
    if not isinstance(data, dict) or data.get("v") != SNAPSHOT_VERSION:
        raise BadSnapshot("Unknown snapshot format")
    if data["phase"] not in PHASES:
        raise BadSnapshot(f"Unknown phase {data['phase']!r}")
    rules = RuleSet.from_dict(data["rules"])
    match = Match.new(rules)
    hand_no = data["hand_no"]
    rows = data["sheet"]
    # Rows before the current hand are taken as written; the current hand is replayed.
    earlier = rows[: max(hand_no - 1, 0)]
    for row in earlier:
        _restore_row(match, row)
    if earlier and rules.is_over(len(earlier), match.totals):
        raise BadSnapshot("The match had already ended before this hand")
    match.hand_no = max(hand_no - 1, 0)
    if data["deal"] is None:
        return match
    match.start_hand(Deal.from_dict(rules, data["deal"]))
    for seat, passed in enumerate(data["passes"]):
        if passed is not None:
            match.pass_cards(seat, passed.split())
    for card in data["plays"].split():
        match.play(match.turn, card)
    if match.phase == MOON and len(rows) == hand_no:
        match.choose_moon(match.shooter, rows[-1]["option"])  # type: ignore[arg-type]
    if match.phase == PASSING and not any(p is None for p in data["passes"]):
        raise BadSnapshot("Every seat passed but the cards were not handed over")
    return match


def _restore_row(match: Match, row: dict[str, Any]) -> None:
    n = match.n
    points, scores = tuple(row["points"]), tuple(row["scores"])
    if len(points) != n or len(scores) != n or not all(type(v) is int for v in points + scores):
        raise BadSnapshot("A score sheet row has the wrong number of scores")
    for s, v in enumerate(scores):
        match.totals[s] += v
    bonus = row.get("bonus")
    if bonus is not None and (type(bonus) is not int or not 0 <= bonus < n):
        raise BadSnapshot("A score sheet row names a bonus taker who is not at the table")
    match.sheet.append(
        ScoreRow(points, scores, tuple(match.totals), row["moon"], row["option"], bonus)
    )


lend_record(snapshot, from_snapshot)
