"""The worker's side of clocks: a task for each deadline, and a periodic sweep.

Each decision a clock starts on queues `time_out_seat` to run at its deadline. The worker may
be down when a deadline passes, or a task may be lost with a database restored from a backup:
`sweep_deadlines` runs every `SWEEP_INTERVAL_SECONDS` and times out whatever is overdue. Both
go through `services.timeouts.time_out`, which does nothing for a decision already made, so a
deadline met twice (by its task and by the sweep) is met once. The sweep also ends vacations
whose days are over, sends the reminders due and closes open matches that never filled, each
through one indexed read.
"""

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.dispatch import receiver
from django_tasks import TaskContext, TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from games import clock
from games.notifications import reminders
from games.services import bot_turns, stalled, vacations
from games.services.errors import ActionRefused
from games.services.events import deadlines_set
from games.services.timeouts import sweep, time_out
from games.services.tournaments.round_deadlines import sweep_rounds

logger = logging.getLogger(__name__)


@task()
def time_out_seat(match_id: int, position: int, deadline: str) -> bool:
    """Time out the seat's decision if it is still owed at that deadline; say if it was."""
    try:
        time_out(match_id, position, datetime.fromisoformat(deadline))
    except ActionRefused:
        return False  # decided in time, timed out already, or the match ended
    return True


@receiver(deadlines_set, dispatch_uid="games.deadlines.queue")
def queue_timeouts(sender, *, match_id: int, deadlines: list[tuple[int, datetime]], **kwargs):
    """Queue a timeout for each deadline a committed change started."""
    try:
        for position, deadline in deadlines:
            time_out_seat.using(run_after=deadline).enqueue(
                match_id=match_id, position=position, deadline=deadline.isoformat()
            )
    except Exception:
        # The move is committed; the sweep will meet the deadline if its task is lost.
        logger.exception("Could not queue the timeouts of match %s", match_id)


def pending_sweeps():
    return DBTaskResult.objects.filter(
        task_path=sweep_deadlines.module_path, status=TaskResultStatus.READY
    )


def ensure_sweep_scheduled() -> bool:
    """Queue a sweep now unless one is already waiting; say whether one was queued."""
    if pending_sweeps().exists():
        return False
    sweep_deadlines.enqueue()
    return True


def _run(part: Callable[[], int]) -> int:
    """Run one part of the sweep and return its count; a failure is logged (counted 0), and
    the other parts still run."""
    try:
        return part()
    except Exception:
        logger.exception("The sweep's %s failed", part.__name__)
        return 0


@task(takes_context=True)
def sweep_deadlines(context: TaskContext) -> int:
    """Queue the next sweep, then run each part (ARCHITECTURE.md, "Clocks"); return timeouts."""
    # The next run first, so that a failure below never ends the chain.
    if not pending_sweeps().exclude(id=context.task_result.id).exists():
        interval = timedelta(seconds=settings.SWEEP_INTERVAL_SECONDS)
        sweep_deadlines.using(run_after=clock.now() + interval).enqueue()
    # Vacations first, so that the clocks they start again are met below. Each part on its own:
    # one failing must not keep the others from their work.
    _run(vacations.sweep)
    timed_out = _run(sweep)
    _run(reminders.send_due_reminders)
    _run(stalled.expire_open_matches)
    _run(bot_turns.sweep)  # tables left waiting on a bot (the server that ran it stopped)
    _run(sweep_rounds)  # tournament rounds past their deadline whose task was lost
    return timed_out
