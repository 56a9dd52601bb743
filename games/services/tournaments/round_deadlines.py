"""A round's deadline: when it passes, bots finish the round's matches and the round closes.

Staff set `Round.deadline` in the admin (`set_deadline`); once that commits, a task is queued
for the deadline (`games/background/round_deadline_tasks.py`), and the periodic sweep queues
it again for any round past its deadline whose task was lost (`queue_due_rounds` there).
The task, and the admin's "Finish by bots now", call `finish_round_by_bots`.

A match is finished one decision at a time, never under one long lock: each decision a person
owes is chosen by the timeout bot on the table as last committed, then applied under the
match's lock only if the match is still at the version the bot saw, exactly as a person's move
is checked. So a person's move and a bot's meeting on the same decision are ordered by the
lock: whichever comes second finds the table changed; the person's move is refused as made on
an old table, and the bot looks again. The cards searching bots owe (theirs, and those of seats
whose players left) are played through `bot_turns`, as in any match. Running all of this twice,
or at once from the task and the sweep, finishes each match once and closes the round once.

Once every match is finished, the round closes through `close_round`, and the next round is
seated and started (or, after the last round, the tournament finishes), as staff would do it.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from django.contrib.auth.models import User
from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext, gettext_lazy

from games import engine
from games.lib import clock
from games.models import (
    Action,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
    Seat,
    Table,
    TournamentStatus,
)
from games.services import bot_turns, states
from games.services.errors import Conflict, NotFound
from games.services.table import TIMEOUT_BOT, LockedTable
from games.services.tournaments.common import lock
from games.services.tournaments.rounds import (
    close_round,
    finish_tournament,
    seat_next_round,
    start_round,
)
from games.services.writes import write_transaction

logger = logging.getLogger(__name__)

# Sent with: round_id (int) and deadline (aware datetime), once a deadline set has committed.
round_deadline_set = Signal()

# More decisions than any match can hold: a guard against a table that never moves, never met.
MOST_DECISIONS = 20000

NOT_DUE = gettext_lazy("The round's deadline has not passed, or has changed: nothing was finished.")
ROUND_NOT_RUNNING = gettext_lazy("This round is not being played: there is nothing to finish.")


class Step(Enum):
    """What one step of finishing a match did."""

    MOVED = "moved"  # a decision was made, or the table changed meanwhile: look again
    FINISHED = "finished"  # the match is over
    STUCK = "stuck"  # nobody, person or bot, could be made to decide: give up for now


@dataclass(frozen=True)
class RoundFinish:
    """What finishing a round by bots did: matches finished, and how the round went on."""

    round: Round
    matches_finished: int
    closed: bool
    next_round: Round | None = None
    tournament_finished: bool = False

    @property
    def message(self) -> str:
        count = self.matches_finished
        words = f"{count} match{'es' if count != 1 else ''} finished by bots"
        text = f"Round {self.round.number} of {self.round.tournament}: {words}"
        if not self.closed:
            return f"{text}; the round is still open."
        if self.next_round is not None:
            return f"{text}; the round is closed and round {self.next_round.number} has started."
        if self.tournament_finished:
            return f"{text}; the round is closed and the tournament is finished."
        return f"{text}; the round is closed."


# ----- setting the deadline -----


@write_transaction()
def set_deadline(round_id: int, deadline: datetime | None) -> Round:
    """Set (or clear) a round's deadline; once committed, its task is queued."""
    round_ = Round.objects.filter(pk=round_id).first()
    if round_ is None:
        raise NotFound(gettext("There is no such round."))
    lock(round_.tournament_id)
    round_.refresh_from_db()
    if round_.status == RoundStatus.CLOSED:
        raise Conflict(
            gettext("Round %(number)s is closed: its deadline can no longer change.")
            % {"number": round_.number}
        )
    round_.deadline = deadline
    round_.save(update_fields=["deadline"])
    if deadline is not None:
        transaction.on_commit(
            lambda: round_deadline_set.send(sender=None, round_id=round_id, deadline=deadline)
        )
    return round_


# ----- finishing a match, one decision at a time -----


def _decide_for_person(
    match_id: int, version: int, position: int, decision: engine.Decision
) -> None:
    """Apply the bot's decision for a person's seat if the table is as the bot saw it."""
    with write_transaction():
        table = LockedTable.lock(match_id)
        if (
            table.match.version != version
            or table.match.status != MatchStatus.ACTIVE
            or table.is_bot(position)
            or position not in table.game.to_act()
        ):
            return  # a person moved meanwhile, or another finisher did: look again
        table.apply(decision, Action.Actor.TIMEOUT)
        seat = table.seats[position]
        if not seat.finished_by_bot:
            seat.finished_by_bot = True
            Seat.objects.filter(pk=seat.pk).update(finished_by_bot=True)
        table.advance()
        table.save()


def finish_step(match_id: int) -> Step:
    """Make the next decision the match owes, whoever owes it; say what happened.

    The bot searches outside any transaction, on the table as last committed: no lock is held
    while it thinks.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.ACTIVE or not match.snapshot:
        return Step.FINISHED
    seats = list(match.seats.order_by("position"))
    state = states.load(match.pk, match.snapshot)
    people = [p for p in state.to_act() if seats[p].playing_level is None]
    if people:
        position = people[0]
        decision = TIMEOUT_BOT.choose(state.view(position))
        _decide_for_person(match_id, match.version, position, decision)
        return Step.MOVED
    if bot_turns.play_bot_card(match_id):
        return Step.MOVED
    # No bot card was owed: the table moved on meanwhile (the background bots, a person), or
    # nobody can move at all.
    now = Match.objects.filter(pk=match_id).values_list("status", "version").first()
    if now is None or now[0] != MatchStatus.ACTIVE:
        return Step.FINISHED
    return Step.MOVED if now[1] != match.version else Step.STUCK


def finish_match_by_bots(match_id: int) -> bool:
    """Let bots make every decision left in the match; say whether it is now finished."""
    for _ in range(MOST_DECISIONS):
        step = finish_step(match_id)
        if step is Step.FINISHED:
            return True
        if step is Step.STUCK:
            logger.error("Match %s could not be finished by bots: nobody can move", match_id)
            return False
    return False


# ----- finishing a round -----


def _unfinished_matches(round_: Round) -> list[int]:
    return list(
        Table.objects.filter(round=round_, match__status=MatchStatus.ACTIVE)
        .order_by("number")
        .values_list("match_id", flat=True)
    )


def _round_creator(round_: Round) -> User | None:
    """Return who started the round's matches: the next round's matches are started by them."""
    matches = Match.objects.filter(tournament_table__round=round_).select_related("created_by")
    first = matches.order_by("pk").first()
    return first.created_by if first is not None else None


def _go_on(round_: Round, matches_finished: int) -> RoundFinish:
    """Close the round, then seat and start the next one or finish the tournament."""
    tournament_id = round_.tournament_id
    try:
        close_round(tournament_id, round_id=round_.pk)
    except Conflict:
        # Closed meanwhile by another finisher or by staff, or a match is still in play.
        round_.refresh_from_db()
        return RoundFinish(round_, matches_finished, closed=round_.status == RoundStatus.CLOSED)
    tournament = round_.tournament
    tournament.refresh_from_db()
    if tournament.status == TournamentStatus.FINISHED:
        return RoundFinish(round_, matches_finished, closed=True)
    if round_.number >= tournament.round_count:
        with contextlib.suppress(Conflict):  # staff finished it meanwhile
            finish_tournament(tournament_id)
        return RoundFinish(round_, matches_finished, closed=True, tournament_finished=True)
    creator = _round_creator(round_)
    try:
        seat_next_round(tournament_id)
        assert creator is not None, "a round that closes has matches, each created by someone"
        next_round = start_round(tournament_id, creator)
    except Conflict:
        # Too few entrants left, say: staff decide in the admin.
        logger.exception("Round %s closed, but the next round could not start", round_.pk)
        return RoundFinish(round_, matches_finished, closed=True)
    return RoundFinish(round_, matches_finished, closed=True, next_round=next_round)


def finish_round_by_bots(round_id: int) -> RoundFinish:
    """Let bots finish every match still in play in the round, then close it and go on."""
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is None:
        raise NotFound(gettext("There is no such round."))
    if round_.status != RoundStatus.RUNNING:
        raise Conflict(str(ROUND_NOT_RUNNING))
    finished = sum(finish_match_by_bots(m) for m in _unfinished_matches(round_))
    return _go_on(round_, finished)


def finish_round_at_deadline(
    round_id: int, deadline: datetime, now: datetime | None = None
) -> RoundFinish:
    """Finish the round by bots if `deadline` is still its deadline and has passed.

    `deadline` is the one the caller found (a queued task, the sweep): if staff moved it since,
    the task of the new deadline does the work, when its time comes.
    """
    now = now or clock.now()
    round_ = Round.objects.filter(pk=round_id).first()
    if round_ is None:
        raise NotFound(gettext("There is no such round."))
    if round_.status != RoundStatus.RUNNING:
        raise Conflict(str(ROUND_NOT_RUNNING))
    if round_.deadline != deadline or deadline > now:
        raise Conflict(str(NOT_DUE))
    return finish_round_by_bots(round_id)


def due_rounds(now: datetime, limit: int) -> list[tuple[int, datetime]]:
    """The (round, deadline) of running rounds whose deadline has passed, oldest first.

    One range read on the partial index `round_running_deadline`.
    """
    rows = (
        Round.objects.filter(status=RoundStatus.RUNNING, deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", "deadline")[:limit]
    )
    return [(pk, deadline) for pk, deadline in rows if deadline is not None]
