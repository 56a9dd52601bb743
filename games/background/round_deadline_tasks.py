"""The worker's side of round deadlines: a task for each deadline staff set on a round.

Once a deadline set in the admin commits, `finish_round_at_deadline` is queued to run then.
A task lost (the worker down, a database restored from a backup) is made up for by the
periodic sweep (`games/background/deadlines.py` calls `queue_due_rounds`). Both go through the
same service, which does nothing for a round already closed or a deadline since moved, so a
deadline met twice is met once.
"""

import logging
from datetime import datetime

from django.conf import settings
from django.dispatch import receiver
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from games.lib import clock
from games.lib.queues import LONG
from games.services.errors import ActionRefused
from games.services.tournaments import round_deadlines

logger = logging.getLogger(__name__)


@task(queue_name=LONG)
def finish_round_at_deadline(round_id: int, deadline: str) -> int | None:
    """Let bots finish the round if that is still its deadline; return how many matches."""
    try:
        done = round_deadlines.finish_round_at_deadline(round_id, datetime.fromisoformat(deadline))
    except ActionRefused:
        return None  # closed already, or the deadline moved (its own task comes then)
    return done.matches_finished


@task(queue_name=LONG)
def finish_round_now(round_id: int) -> int | None:
    """Let bots finish the round at once (staff asked, in the admin); return how many matches.

    A task rather than the admin's request: every decision left at a round's tables, hundreds
    of the strong bot's searches early in its matches, takes far longer than a page should.
    """
    try:
        done = round_deadlines.finish_round_by_bots(round_id)
    except ActionRefused:
        return None  # closed meanwhile (its deadline, or staff asking twice)
    logger.info("%s", done.message)
    return done.matches_finished


@receiver(round_deadlines.round_deadline_set, dispatch_uid="games.round_deadline_tasks.queue")
def queue_round_deadline(
    sender: object, *, round_id: int, deadline: datetime, **kwargs: object
) -> None:
    """Queue the task of a round's deadline, once staff set it."""
    try:
        finish_round_at_deadline.using(run_after=deadline).enqueue(
            round_id=round_id, deadline=deadline.isoformat()
        )
    except Exception:
        # The deadline is saved; the sweep meets it if its task is lost.
        logger.exception("Could not queue the deadline of round %s", round_id)


def queue_due_rounds(now: datetime | None = None) -> int:
    """Queue the deadline task of every running round past its deadline with none waiting
    (its task lost); return how many. The sweep calls this: it only reads and queues, so
    finishing rounds never holds up the clocks."""
    now = now or clock.now()
    queued = 0
    for round_id, deadline in round_deadlines.due_rounds(now, settings.SWEEP_BATCH):
        waiting = DBTaskResult.objects.filter(
            task_path=finish_round_at_deadline.module_path,
            status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING],
            args_kwargs__kwargs__round_id=round_id,
        )
        if waiting.exists():
            continue
        finish_round_at_deadline.enqueue(round_id=round_id, deadline=deadline.isoformat())
        queued += 1
    return queued
