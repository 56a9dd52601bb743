"""Timeouts: a bot makes the decision a seat let its clock run out on (see `clocks.py`).

Deadlines are met by a task queued for each one (`games/background/deadlines.py`); a periodic
sweep finds overdue decisions (`due`) whose task was lost and queues one again. Every task
calls `time_out`, which checks that the deadline it was given is still the seat's, so a
deadline met twice changes nothing the second time. A timeout goes through the same lock,
table and save as a person's move; the bot searches before, on the table as committed, so no
other change waits on its search.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import engine
from games.lib import clock, metrics
from games.models import Action, Match, MatchStatus, Seat
from games.services import states
from games.services.errors import Conflict, NotFound
from games.services.table import TIMEOUT_BOT, Changed, LockedTable
from games.services.writes import write_transaction

ALREADY_DECIDED = _("That decision has already been made: nothing timed out.")


def time_out(
    match_id: int, position: int, deadline: datetime, now: datetime | None = None
) -> Changed:
    """Let a bot make the decision a seat let time run out on; refuse if it was made already.

    `deadline` is the one the caller was queued for: if the seat's deadline
    has moved since, the player decided in time, or another caller timed it out first.
    """
    searched = _searched_decision(match_id, position)
    with write_transaction():
        table = LockedTable.lock(match_id)
        seats = [s for s in table.seats if s.position == position]
        if not seats:
            raise NotFound(gettext("There is no such seat."))
        seat = seats[0]
        now = now or clock.now()
        if (
            table.match.status != MatchStatus.ACTIVE
            or not seat.to_act
            or seat.deadline != deadline
            or deadline > now
        ):
            raise Conflict(str(ALREADY_DECIDED))
        if searched is not None and searched[0] == table.match.version:
            decision = searched[1]
        else:
            # The table changed since the search (rare: someone else's decision meanwhile).
            decision = TIMEOUT_BOT.choose(table.game.view(position))
        table.apply(decision, Action.Actor.TIMEOUT)
        seat.timeouts_in_a_row += 1
        seat.bank_left = 0  # the allowance and the whole bank are spent
        if seat.timeouts_in_a_row >= table.match.timeouts_to_leave:
            # Too many in a row: a bot keeps the seat, and the player is shown as gone.
            seat.resigned = True
            seat.left_on_time = True
        table.advance()
        transaction.on_commit(metrics.count_timeout)
        return table.save()


def _searched_decision(match_id: int, position: int) -> tuple[int, engine.Decision] | None:
    """Search for the seat's decision on the table as committed, outside any transaction:
    the search (the strong bot's, tens of milliseconds) holds no lock that others wait on.
    Return the version it saw and the decision, or None if the seat owes none now."""
    match = Match.objects.filter(pk=match_id, status=MatchStatus.ACTIVE).first()
    if match is None or not match.snapshot:
        return None
    state = states.load(match.pk, match.snapshot)
    if position not in state.to_act():
        return None
    return match.version, TIMEOUT_BOT.choose(state.view(position))


def due(now: datetime, limit: int) -> list[tuple[int, int, datetime]]:
    """The (match, seat, deadline) of decisions whose deadline has passed, oldest first.

    One range read on the partial index `seat_deadline`: only seats that owe a decision in a
    timed match have a deadline at all.
    """
    rows = (
        Seat.objects.filter(deadline__lte=now)
        .order_by("deadline")
        .values_list("match_id", "position", "deadline")[:limit]
    )
    return [(match_id, position, deadline) for match_id, position, deadline in rows if deadline]
