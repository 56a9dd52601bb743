"""Looking back: every trick of the hand in play, and a finished hand's record and replay.

- `hand_so_far`: the tricks of the hand being played, as every seat may see them (R6.3: every
  card played to this hand's tricks is public), for players and spectators alike.
- `hand_record` and `replay_frame`: a hand's whole record (the deal, the passes, every trick,
  the score) and one step of its replay, every hand face up. Only for those
  `games.access.may_see_hand_record` allows: the views check it before calling these.

A replay is rebuilt from the truth, the recorded deals and the action log, through the
engine's checked door: what it shows is what was played, card for card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from games import engine
from games.lib.card_words import card_words
from games.models import Action, Hand, Match, Seat

from .table import Place, cancelled_so_far, places, plays_of
from .tricks import shown_trick


def hand_so_far(
    seats: Sequence[Seat], me: Seat | None, view: engine.PublicView
) -> dict[str, object]:
    """Return the hand in play's tricks so far, the trick on the table and the points taken."""
    around = places(seats, me, view)
    by_pos = {p.position: p for p in around}
    tricks = [
        shown_trick(trick, by_pos, hand=None, number=number)
        for number, trick in enumerate(view.tricks, start=1)
    ]
    return {
        "places": around,
        "tricks": tricks,
        "trick": plays_of(view.trick, by_pos, cancelled_so_far(view.trick)),
        "trick_number": len(view.tricks) + 1,
        "points": [(p, view.points_taken[p.position]) for p in around],
    }


@dataclass(frozen=True)
class Step:
    """One step of a replay: how many of the hand's decisions it applies, and what it shows."""

    number: int
    applied: int  # decisions of this hand applied so far
    kind: str  # "deal", "passes", "play" or "moon"
    trick: int  # the trick this step belongs to (0 before the first card)


@dataclass(frozen=True)
class SeatFrame:
    """One seat as a replay step shows it: the cards it still holds, face up, and its points."""

    place: Place
    # Each card with whether it is marked: passed (at the deal) or received (after the passes).
    cards: tuple[tuple[engine.Card, bool], ...]
    points: int


def hand_actions(match: Match, hand: Hand) -> list[Action]:
    """Return the hand's logged decisions in order."""
    return list(Action.objects.filter(match=match, hand=hand).order_by("seq"))


def replay_steps(actions: Sequence[Action], players: int) -> list[Step]:
    """Return the steps of a hand's replay: the deal, the passes as one step, each card, the moon.

    Every pass comes before the first card (R2), so the passes are the log's leading run; every
    trick holds one card from each seat, so the cards number the tricks.
    """
    steps = [Step(0, 0, "deal", 0)]
    passes = 0
    while passes < len(actions) and actions[passes].kind == Action.Kind.PASS:
        passes += 1
    if passes:
        steps.append(Step(1, passes, "passes", 0))
    cards = 0
    for applied in range(passes + 1, len(actions) + 1):
        if actions[applied - 1].kind == Action.Kind.PLAY:
            cards += 1
            steps.append(Step(len(steps), applied, "play", (cards - 1) // players + 1))
        else:
            steps.append(Step(len(steps), applied, "moon", (cards - 1) // players + 1))
    return steps


def state_before_hand(match: Match, hand: Hand) -> engine.Match:
    """Return the engine state as `hand` starts: every earlier hand replayed, this one dealt."""
    rules = match.rule_set
    earlier = Hand.objects.filter(match=match, number__lte=hand.number).order_by("number")
    deals = [h.deal for h in earlier]
    decisions = (
        action.as_decision()
        for action in Action.objects.filter(match=match, hand__number__lt=hand.number).order_by(
            "hand__number", "seq"
        )
    )
    return engine.replay(rules, deals, decisions)


def replay_frame(
    match: Match,
    hand: Hand,
    seats: Sequence[Seat],
    me: Seat | None,
    number: int,
) -> dict[str, object]:
    """Return replay step `number` of a hand (clamped to the steps there are), every hand open."""
    actions = hand_actions(match, hand)
    state = state_before_hand(match, hand)
    steps = replay_steps(actions, state.n)
    step = steps[max(0, min(number, len(steps) - 1))]
    for action in actions[: step.applied]:
        state.apply(action.as_decision())
    view = state.public_view()
    seat_views = [state.view(s) for s in range(state.n)]
    around = places(seats, me, view)
    by_pos = {p.position: p for p in around}
    passes = _passes(actions)
    done = actions[step.applied - 1] if step.applied else None
    # The card that ends a trick moves it off the table: show it complete, with its winner.
    closed = view.tricks[-1] if done and done.kind == Action.Kind.PLAY and not view.trick else None
    if step.kind == "deal":
        marked = {s: frozenset(passes.get(s, ())) for s in range(state.n)}
    elif step.kind == "passes":
        marked = {s: frozenset(str(c) for c in v.received or ()) for s, v in enumerate(seat_views)}
    else:
        marked = {s: frozenset() for s in range(state.n)}
    frames = [
        SeatFrame(
            place=p,
            cards=_marking(seat_views[p.position].hand, marked[p.position]),
            points=view.points_taken[p.position],
        )
        for p in around
    ]
    shown = closed.plays if closed else view.trick
    cancelled = closed.cancelled if closed else cancelled_so_far(view.trick)
    return {
        "steps": len(steps),
        "step": step,
        "seats": frames,
        "trick_plays": plays_of(shown, by_pos, cancelled),
        "closed": shown_trick(closed, by_pos, hand=None, number=step.trick) if closed else None,
        "said": _said(step, done, by_pos, bool(passes), closed),
        "links": _links(steps, step),
        "score": _score(view, by_pos) if step.number == len(steps) - 1 else [],
    }


def _marking(
    cards: Sequence[engine.Card], marked: frozenset[str]
) -> tuple[tuple[engine.Card, bool], ...]:
    return tuple((card, str(card) in marked) for card in cards)


def _passes(actions: Sequence[Action]) -> dict[int, list[str]]:
    return {a.seat: a.value.split() for a in actions if a.kind == Action.Kind.PASS}


def _said(
    step: Step,
    done: Action | None,
    by_pos: dict[int, Place],
    passed: bool,
    closed: engine.TrickView | None,
) -> str:
    """Say in words what the step shows."""
    if step.kind == "deal":
        if passed:
            return gettext(
                "The deal: every hand as it was dealt, the cards each player passes marked."
            )
        return gettext("The deal: every hand as it was dealt.")
    if step.kind == "passes":
        return gettext("The passes are exchanged: the cards each player received are marked.")
    assert done is not None
    who = by_pos[done.seat].name
    if step.kind == "moon":
        if done.value == "subtract":
            return gettext(
                "%(name)s shot the moon and chose to subtract the points from their own total."
            ) % {"name": who}
        return gettext(
            "%(name)s shot the moon and chose to add the points to everyone else's total."
        ) % {"name": who}
    card = engine.Card.parse(done.value)
    words = gettext("Trick %(trick)s: %(name)s plays %(card)s.") % {
        "trick": step.trick,
        "name": who,
        "card": card_words(card),
    }
    if closed is not None:
        if closed.winner is not None:
            points = closed.points
            winner = by_pos[closed.winner].name
            if points:
                words += " " + ngettext(
                    "%(name)s wins the trick, taking %(count)d point.",
                    "%(name)s wins the trick, taking %(count)d points.",
                    points,
                ) % {"name": winner, "count": points}
            else:
                words += " " + gettext("%(name)s wins the trick.") % {"name": winner}
        else:
            words += " " + gettext("Nobody wins it: every card of the suit led is cancelled.")
    return words


def _links(steps: Sequence[Step], step: Step) -> dict[str, int | None]:
    """Return the step numbers the replay's controls lead to (None where there is none)."""
    last = len(steps) - 1
    now = step.number
    # A trick's steps run from its first card to its last: "previous trick" goes to the end of
    # the trick before, "next trick" to the end of this one (or the next, from its end).
    ends = [s.number for i, s in enumerate(steps) if s.kind == "play" and _ends_trick(steps, i)]
    earlier = [e for e in ends if e < now]
    later = [e for e in ends if e > now]
    return {
        "first": 0 if now > 0 else None,
        "previous": now - 1 if now > 0 else None,
        "next": now + 1 if now < last else None,
        "last": last if now < last else None,
        "previous_trick": earlier[-1] if earlier else (0 if now > 0 else None),
        "next_trick": later[0] if later else (last if now < last else None),
    }


def _ends_trick(steps: Sequence[Step], index: int) -> bool:
    following = steps[index + 1] if index + 1 < len(steps) else None
    return following is None or following.kind != "play" or following.trick != steps[index].trick


def _score(view: engine.PublicView, by_pos: dict[int, Place]) -> list[tuple[Place, int, int]]:
    """Return each seat's score for the hand and total after it, once the hand is scored."""
    if not view.sheet or view.phase not in (engine.HAND_OVER, engine.FINISHED):
        return []
    row = view.sheet[-1]
    return [(by_pos[s], row.scores[s], row.totals[s]) for s in sorted(by_pos)]


def hand_record(
    match: Match, hand: Hand, seats: Sequence[Seat], me: Seat | None
) -> dict[str, object]:
    """Return a hand's whole record: each seat's deal and pass, every trick, and the score."""
    actions = hand_actions(match, hand)
    state = state_before_hand(match, hand)
    dealt = [state.view(s) for s in range(state.n)]
    for action in actions:
        state.apply(action.as_decision())
    view = state.public_view()
    around = places(seats, me, view)
    by_pos = {p.position: p for p in around}
    passes = _passes(actions)
    deal_rows = [
        {
            "place": p,
            "cards": _marking(dealt[p.position].hand, frozenset(passes.get(p.position, ()))),
            "pass_to": (
                by_pos[dealt[p.position].pass_to]  # type: ignore[index]
                if p.position in passes and dealt[p.position].pass_to is not None
                else None
            ),
        }
        for p in around
    ]
    tricks = [
        shown_trick(trick, by_pos, hand=None, number=number)
        for number, trick in enumerate(view.tricks, start=1)
    ]
    return {
        "deal_rows": deal_rows,
        "pass_direction": view.pass_direction,
        "tricks": tricks,
        "widow": view.widow or (),
        "score": _score(view, by_pos),
        "finished": hand.finished_at is not None,
    }
