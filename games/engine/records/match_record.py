"""A match's record as one viewer may download it, and the check that replays it.

The site writes the record (`/matches/<id>/record.json`); `python -m games.engine.replay_check
FILE` (`replay_check.py`) reads it and checks it with nothing but Python and the engine:

```json
{"format": "hearts-match-record/1", "match": 12, "status": "finished",
 "rules": {"players": 4, "target": 100, "moon": "ask"},
 "seats": [{"seat": 0, "name": "Alice", "controller": "person", "bot_level": null}, …],
 "viewer_seat": 0, "sealed": false, "totals": [45, 101, 60, 54],
 "commitment": "<64 hex>", "secret": "<64 hex, once the deals are revealed>",
 "hands": [
   {"number": 1, "pass_direction": "left", "complete": true, "from_secret": true,
    "deal": {"hands": ["2C 5C … AS", "…", "…", "…"]},
    "decisions": [{"type": "pass", "seat": 0, "cards": ["QS", "AH", "KH"], "by": "person"}, …],
    "score": {"points": […], "scores": […], "totals": […], "moon": null, "option": null}},
   {"number": 2, "pass_direction": "right", "complete": false,
    "your_hand": {"seat": 0, "dealt": "…", "received": "…"},
    "decisions": [the cards played to tricks, and the viewer's own pass], "score": null}]}
```

A hand is `complete` when the record holds its whole deal and every decision in order (the
engine's decision values, with `by`: who made it). A hand the viewer may not see in full holds
only what they could see at the table (R6.3), and cannot be replayed.

The check replays the leading run of complete hands in order, from hand 1, through the
engine's checked door: totals carry from hand to hand, so a hand can be checked only once
every hand before it has been. Each decision must be legal; each replayed score row must equal
the recorded one (points, scores, totals, moon, and Omnibus' bonus taker); once every hand is
complete, the final totals too. With a secret, the commitment and every deal dealt from the
secret are checked as `python -m games.engine.verify` checks them (`shuffle.verify`). Hands
after the first partial one are reported as not checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..deal import Deal
from ..decisions import Decision
from ..errors import EngineError
from ..rules import RuleSet
from ..state import FINISHED, HAND_OVER, Match, ScoreRow
from .shuffle import BadRecord, Record, verify

FORMAT = "hearts-match-record/1"

SCORE_KEYS = ("points", "scores", "totals")


@dataclass(frozen=True)
class Score:
    """A hand's recorded score row: what the hand's end wrote on the score sheet."""

    points: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    moon: int | None
    option: str | None
    bonus: int | None

    @classmethod
    def of(cls, row: ScoreRow) -> Score:
        return cls(row.points, row.scores, row.totals, row.moon, row.moon_option, row.bonus)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "points": list(self.points),
            "scores": list(self.scores),
            "totals": list(self.totals),
            "moon": self.moon,
            "option": self.option,
        }
        if self.bonus is not None:
            data["bonus"] = self.bonus
        return data


@dataclass(frozen=True)
class HandEntry:
    """One hand of a record; `deal` is kept as written, and read only when it is checked."""

    number: int
    pass_direction: str
    complete: bool
    from_secret: bool
    deal: object
    decisions: tuple[Any, ...]
    score: Score | None


@dataclass(frozen=True)
class MatchRecord:
    rules: RuleSet
    hands: tuple[HandEntry, ...]
    match: int | None = None
    commitment: str | None = None
    secret: str | None = None
    totals: tuple[int, ...] | None = None


# ----- reading -----


def _ints(value: object, n: int, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n or any(type(v) is not int for v in value):
        raise BadRecord(f"{where} must be a list of {n} whole numbers, one per seat")
    return tuple(value)


def _seat_or_none(value: object, n: int, where: str) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < n:
        raise BadRecord(f"{where} must be a seat number from 0 to {n - 1}, or null")
    return value


def _score(value: object, n: int, where: str) -> Score | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BadRecord(f'{where}: "score" must be an object, or null')
    for key in (*SCORE_KEYS, "moon", "option"):
        if key not in value:
            raise BadRecord(f'{where}: the score has no "{key}"')
    option = value["option"]
    if option is not None and not isinstance(option, str):
        raise BadRecord(f'{where}: the score\'s "option" must be text, or null')
    return Score(
        points=_ints(value["points"], n, f"{where}: the score's points"),
        scores=_ints(value["scores"], n, f"{where}: the score's scores"),
        totals=_ints(value["totals"], n, f"{where}: the score's totals"),
        moon=_seat_or_none(value["moon"], n, f"{where}: the score's moon"),
        option=option,
        bonus=_seat_or_none(value.get("bonus"), n, f"{where}: the score's bonus"),
    )


def _hand(item: object, index: int, n: int) -> HandEntry:
    where = f"hands[{index}]"
    if not isinstance(item, dict):
        raise BadRecord(f"{where} must be an object")
    number = item.get("number")
    if number != index + 1 or type(number) is not int:
        raise BadRecord(f"{where}: hands must be numbered 1, 2, 3 … in order, not {number!r:.40}")
    where = f"hand {number}"
    complete = item.get("complete")
    if not isinstance(complete, bool):
        raise BadRecord(f'{where}: "complete" must be true or false')
    decisions = item.get("decisions", [])
    if not isinstance(decisions, list):
        raise BadRecord(f'{where}: "decisions" must be a list')
    direction = item.get("pass_direction")
    if not isinstance(direction, str):
        raise BadRecord(f'{where}: "pass_direction" must be text')
    if complete and "deal" not in item:
        raise BadRecord(f'{where} is complete but gives no "deal"')
    return HandEntry(
        number=number,
        pass_direction=direction,
        complete=complete,
        from_secret=item.get("from_secret") is True,
        deal=item.get("deal"),
        decisions=tuple(decisions),
        score=_score(item.get("score"), n, where),
    )


def _hex(value: object, name: str) -> str:
    if not isinstance(value, str) or len(value) != 64 or value.strip("0123456789abcdef"):
        raise BadRecord(f'"{name}" must be 64 lowercase hexadecimal digits, not {value!r:.80}')
    return value


def from_json(data: object) -> MatchRecord:
    """Return the record of a JSON form, or raise BadRecord saying what is wrong with it."""
    if not isinstance(data, dict):
        raise BadRecord("A match record is a JSON object")
    if data.get("format") != FORMAT:
        raise BadRecord(f'"format" must be "{FORMAT}", not {data.get("format")!r:.80}')
    if "rules" not in data:
        raise BadRecord('The record has no "rules"')
    try:
        rules = RuleSet.from_dict(data["rules"])
    except (EngineError, TypeError, AttributeError) as error:
        message = error.message if isinstance(error, EngineError) else str(error)
        raise BadRecord(f'"rules": {message}') from None
    match = data.get("match")
    if match is not None and type(match) is not int:
        raise BadRecord(f'"match" must be a match number, not {match!r:.80}')
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise BadRecord('"hands" must be a list of hands')
    secret = data.get("secret")
    commitment = data.get("commitment")
    if secret is not None and commitment is None:
        raise BadRecord('The record gives a "secret" but no "commitment"')
    totals = data.get("totals")
    return MatchRecord(
        rules=rules,
        hands=tuple(_hand(item, index, rules.players) for index, item in enumerate(hands)),
        match=match,
        commitment=None if commitment is None else _hex(commitment, "commitment"),
        secret=None if secret is None else _hex(secret, "secret"),
        totals=None if totals is None else _ints(totals, rules.players, '"totals"'),
    )


# ----- checking -----

CHECKED, IN_PLAY, PARTIAL, NOT_CHECKED, FAILED = (
    "checked",
    "checked, not over",
    "partial",
    "not checked",
    "failed",
)


@dataclass(frozen=True)
class HandCheck:
    """What the check made of one hand: its status, and why, in plain words."""

    number: int
    status: str
    detail: str = ""
    deal_from_secret: bool | None = None  # None: not dealt from the secret, or not checked


@dataclass(frozen=True)
class Check:
    hands: tuple[HandCheck, ...]
    commitment_ok: bool | None  # None: the record gives no secret
    problems: tuple[str, ...]  # everything that does not check, hand and decision named

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def checked(self) -> int:
        return sum(1 for hand in self.hands if hand.status in (CHECKED, IN_PLAY))


def describe(decision: object) -> str:
    """Say what a decision is, for a message: "seat 2 plays the QS"."""
    if not isinstance(decision, dict):
        return "not a decision"
    seat, kind = decision.get("seat"), decision.get("type")
    if kind == "play":
        return f"seat {seat} plays {decision.get('card')}"
    if kind == "pass":
        cards = decision.get("cards")
        shown = " ".join(map(str, cards)) if isinstance(cards, list) else repr(cards)
        return f"seat {seat} passes {shown}"
    if kind == "moon":
        return f"seat {seat} chooses {decision.get('option')} for the moon"
    return f"a decision of type {kind!r:.20}"


def _engine_decision(decision: object) -> object:
    if isinstance(decision, dict):
        return {key: value for key, value in decision.items() if key != "by"}
    return decision


def _deal(rules: RuleSet, value: object) -> Deal:
    if not isinstance(value, dict) or not isinstance(value.get("hands"), list):
        raise BadRecord('the deal must give its "hands", one per seat')
    return Deal.from_hands(rules, value["hands"])


def _why(error: EngineError) -> str:
    return f"{error.message} ({error.rule})" if error.rule else error.message


def _differences(recorded: Score, replayed: Score) -> list[str]:
    words = []
    for key in (*SCORE_KEYS, "moon", "option", "bonus"):
        mine, theirs = getattr(recorded, key), getattr(replayed, key)
        if mine != theirs:
            shown = [list(v) if isinstance(v, tuple) else v for v in (mine, theirs)]
            words.append(f"{key} recorded {shown[0]}, replayed {shown[1]}")
    return words


class _Failed(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _replay_hand(game: Match, hand: HandEntry, deal: Deal) -> str:
    """Play one hand through the checked door; return IN_PLAY or CHECKED, or raise _Failed."""
    where = f"hand {hand.number}"
    if game.phase == FINISHED:
        raise _Failed(f"{where}: the match was over after hand {game.hand_no}")
    expected = game.rules.pass_direction(hand.number)
    if hand.pass_direction != expected:
        raise _Failed(f"{where}: the pass goes {expected}, not {hand.pass_direction}")
    try:
        game.start_hand(deal)
    except EngineError as error:
        raise _Failed(f"{where}: the deal: {_why(error)}") from None
    for index, decision in enumerate(hand.decisions, start=1):
        said = f"{where}, decision {index} ({describe(decision)})"
        if game.phase in (HAND_OVER, FINISHED):
            raise _Failed(f"{said}: the hand is already over")
        try:
            game.apply(Decision.from_dict(_engine_decision(decision)))
        except EngineError as error:
            raise _Failed(f"{said}: {_why(error)}") from None
    over = game.phase in (HAND_OVER, FINISHED)
    if hand.score is None:
        if over:
            raise _Failed(f"{where}: the decisions end the hand, but no score is recorded")
        return IN_PLAY
    if not over:
        raise _Failed(f"{where}: a score is recorded, but the decisions do not end the hand")
    differences = _differences(hand.score, Score.of(game.sheet[-1]))
    if differences:
        raise _Failed(f"{where}: the score does not match: {'; '.join(differences)}")
    return CHECKED


def check(record: MatchRecord) -> Check:
    """Replay the record's leading run of complete hands and check their deals and scores."""
    rules = record.rules
    deals: dict[int, Deal] = {}
    problems: list[str] = []
    results: list[HandCheck] = []
    game = Match.new(rules)
    blocked = ""  # why the hands from here on cannot be replayed: one before them was not
    for hand in record.hands:
        if not hand.complete:
            blocked = blocked or f"hand {hand.number} is partial"
            results.append(HandCheck(hand.number, PARTIAL, "only what this viewer may see"))
            continue
        if blocked:
            results.append(HandCheck(hand.number, NOT_CHECKED, blocked))
            continue
        try:
            deals[hand.number] = deal = _deal(rules, hand.deal)
            status = _replay_hand(game, hand, deal)
        except (BadRecord, _Failed) as error:
            message = error.message
            if isinstance(error, BadRecord):
                message = f"hand {hand.number}: {message}"
            problems.append(message)
            results.append(HandCheck(hand.number, FAILED, message))
            blocked = f"hand {hand.number} does not check"
            continue
        results.append(HandCheck(hand.number, status))
        if status != CHECKED:
            blocked = f"hand {hand.number} is not over"
    recorded = record.totals
    if record.hands and not blocked and recorded is not None and recorded != tuple(game.totals):
        problems.append(
            f"the final totals do not match: recorded {list(recorded)}, "
            f"replayed {list(game.totals)}"
        )
    commitment_ok = None
    if record.secret is not None and record.commitment is not None:
        commitment_ok, results = _check_deals(record, deals, results, problems)
    return Check(tuple(results), commitment_ok, tuple(problems))


def _check_deals(
    record: MatchRecord,
    deals: dict[int, Deal],
    results: Sequence[HandCheck],
    problems: list[str],
) -> tuple[bool, list[HandCheck]]:
    """Check the commitment and each deal from the secret, as `games.engine.verify` does."""
    assert record.secret is not None and record.commitment is not None
    from_secret = {hand.number for hand in record.hands if hand.from_secret}
    played = tuple((n, deal) for n, deal in sorted(deals.items()) if n in from_secret)
    verification = verify(Record(record.rules, record.commitment, record.secret, played))
    if not verification.commitment_ok:
        problems.append("the commitment is not the secret's")
    ok = {hand.number: hand.ok for hand in verification.hands}
    checked = []
    for result in results:
        if result.number in ok:
            result = HandCheck(result.number, result.status, result.detail, ok[result.number])
            if not ok[result.number]:
                problems.append(f"hand {result.number}: the deal is not the one the secret gives")
        checked.append(result)
    return verification.commitment_ok, checked
