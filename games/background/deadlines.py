"""The worker's side of clocks: a task for each deadline, and a periodic sweep.

Each decision a clock starts on queues `time_out_seat` to run at its deadline. A task may be
lost (a database restored from a backup, a worker killed while running it): `sweep_deadlines`
runs every `SWEEP_INTERVAL_SECONDS` and queues a timeout again for each overdue decision that
has no task ready to run. The sweep only queues; the tasks decide, so a sweep stays a few
indexed reads however many decisions are overdue, and several workers share the deciding.
Every task goes through `services.timeouts.time_out`, which does nothing for a decision
already made, so a deadline met twice is met once. The sweep also ends vacations whose days
are over, sends the reminders due and closes open matches that never filled, each through one
indexed read.
"""

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone
from django_tasks import TaskContext, TaskResultStatus, task
from django_tasks.base import Task
from django_tasks_db.models import DBTaskResult, DBTaskResultQuerySet

from games.lib import clock
from games.lib.queues import NOW
from games.notifications import reminders
from games.services import challenges, stalled, vacations
from games.services.errors import ActionRefused
from games.services.events import deadlines_set
from games.services.timeouts import due, time_out

from .bot_runner import queue_stuck_bots
from .round_deadline_tasks import queue_due_rounds

logger = logging.getLogger(__name__)

# The paths these tasks were stored under before they came to games/background/: tasks queued
# then still carry them (games/deadlines.py keeps them importable), so the queue is read under
# both names.
STORED_BEFORE = "games.deadlines"


def stored_paths(queued: Task[..., Any]) -> list[str]:  # any task, whatever it returns
    """The task paths the queue may hold this task under: its own, and its path before."""
    return [queued.module_path, f"{STORED_BEFORE}.{queued.name}"]


@task(queue_name=NOW)
def time_out_seat(match_id: int, position: int, deadline: str) -> bool:
    """Time out the seat's decision if it is still owed at that deadline; say if it was."""
    try:
        time_out(match_id, position, datetime.fromisoformat(deadline))
    except ActionRefused:
        return False  # decided in time, timed out already, or the match ended
    return True


@receiver(deadlines_set, dispatch_uid="games.deadlines.queue")
def queue_timeouts(
    sender: object, *, match_id: int, deadlines: list[tuple[int, datetime]], **kwargs: object
) -> None:
    """Queue a timeout for each deadline a committed change started."""
    try:
        for position, deadline in deadlines:
            time_out_seat.using(run_after=deadline).enqueue(
                match_id=match_id, position=position, deadline=deadline.isoformat()
            )
    except Exception:
        # The move is committed; the sweep will meet the deadline if its task is lost.
        logger.exception("Could not queue the timeouts of match %s", match_id)


def timeouts_on_their_way() -> set[tuple[int, int, datetime]]:
    """The (match, seat, deadline) of every timeout task ready for the worker to run now.

    Ready means the task library's own test, by the real time as its worker picks tasks, so an
    overdue decision is never left waiting on a task the worker will not pick yet. Every
    timeout is queued with a run-after time at the default priority, which lets this read seek
    the library's index of ready tasks (status, priority, run-after) instead of scanning them
    all. A task being run is not counted: a second one for its deadline finds the decision made
    and does nothing, and one whose worker was killed is replaced.
    """
    ready = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY,
        priority=time_out_seat.priority,
        run_after__lte=timezone.now(),
        task_path__in=stored_paths(time_out_seat),
    )
    found = set()
    for args_kwargs in ready.order_by().values_list("args_kwargs", flat=True):
        kwargs = args_kwargs["kwargs"]
        deadline = datetime.fromisoformat(kwargs["deadline"])
        found.add((kwargs["match_id"], kwargs["position"], deadline))
    return found


def queue_missed_timeouts(now: datetime | None = None) -> int:
    """Queue a timeout for each overdue decision with no task on its way; return how many.

    At most `SWEEP_BATCH` overdue decisions are looked at, oldest first; the next sweep takes
    the rest. A task queued here is ready at once.
    """
    overdue = due(now or clock.now(), settings.SWEEP_BATCH)
    if not overdue:
        return 0
    on_their_way = timeouts_on_their_way()
    real_now = timezone.now()
    queued = 0
    with transaction.atomic():  # one commit for the lot, not one for each task
        for match_id, position, deadline in overdue:
            if (match_id, position, deadline) in on_their_way:
                continue
            # Due at its deadline like its lost task, or at once if the worker's clock is
            # behind the site's (`games/lib/clock.py` moves the site's in tests).
            time_out_seat.using(run_after=min(deadline, real_now)).enqueue(
                match_id=match_id, position=position, deadline=deadline.isoformat()
            )
            queued += 1
    return queued


def pending_sweeps() -> DBTaskResultQuerySet:
    return DBTaskResult.objects.filter(
        task_path__in=stored_paths(sweep_deadlines), status=TaskResultStatus.READY
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


@task(queue_name=NOW, takes_context=True)
def sweep_deadlines(context: TaskContext) -> int:
    """Queue the next sweep, then run each part (ARCHITECTURE.md, "Clocks"); return how many
    timeouts it queued again."""
    # The next run first, so that a failure below never ends the chain.
    if not pending_sweeps().exclude(id=context.task_result.id).exists():
        interval = timedelta(seconds=settings.SWEEP_INTERVAL_SECONDS)
        sweep_deadlines.using(run_after=clock.now() + interval).enqueue()
    # Vacations first, so that the clocks they start again are met below. Each part on its own:
    # one failing must not keep the others from their work.
    _run(vacations.sweep)
    queued = _run(queue_missed_timeouts)
    _run(reminders.send_due_reminders)
    _run(challenges.expire_challenges)  # before the stalled matches: a seat may go to a bot
    _run(stalled.expire_open_matches)
    _run(queue_stuck_bots)  # tables left waiting on a bot (its task lost)
    _run(queue_due_rounds)  # tournament rounds past their deadline whose task was lost
    return queued
