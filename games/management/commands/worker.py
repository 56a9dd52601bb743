"""Run a background worker: make sure the periodic tasks are scheduled, then run queued tasks.

Each worker takes the queues of one kind (`games/lib/queues.py`): `--queues now` for what is
due at a moment (timeouts, bots' cards, the sweep), `--queues long` for what may take long
(rounds finished by bots, e-mails); with neither, every queue. Run as many of each as the
club needs, on this machine or others sharing its database.

While it runs, a thread writes the worker's heartbeat every `WORKER_HEARTBEAT_SECONDS`
(`games/background/heartbeat.py`), which `/readyz` reads; the row goes when the worker stops.

A worker outlives a lost database connection: it waits, connects again and goes on (a task
interrupted by the loss is left to the sweep). Anything else it cannot recover from ends it
with a non-zero status, for its supervisor to restart it.
"""

import logging
import os
import time

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, close_old_connections, connections

from games import live
from games.background.deadlines import ensure_sweep_scheduled
from games.background.heartbeat import Heartbeat
from games.lib.process_role import become_worker
from games.lib.queues import LONG, WORKER_QUEUES
from games.notifications.tasks import ensure_digest_scheduled

logger = logging.getLogger(__name__)

# How much lower the `long` workers' processor priority is (os.nice: 0 normal, 19 lowest).
LONG_WORK_NICENESS = 10

# Seconds to wait before connecting again after the database went away: doubling, at most.
RETRY_FIRST = 0.5
RETRY_MOST = 30.0


def drop_connections() -> None:
    """Close this thread's database connections, rolling back whatever they hold.

    django-tasks' worker exits from its signal handler, so a stop can land in the middle of a
    statement: on SQLite, after its BEGIN ran but before Django noted the transaction, which
    leaves the connection inside a transaction Django does not know of, where the next one
    fails. The worker is stopping: its last writes (the heartbeat's row) start afresh.
    """
    for connection in connections.all(initialized_only=True):
        connection.close()


class Command(BaseCommand):
    help = (
        "Run queued tasks (timeouts, bots' cards, the sweep, rounds finished by bots, e-mails) "
        "from the database until stopped. Run one or more of each kind beside the web servers."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--queues",
            choices=sorted(WORKER_QUEUES),
            default=None,
            help="Take only the queues of this kind: 'now' (clocks, bots) or 'long' (rounds "
            "finished by bots, e-mails). Default: every queue.",
        )
        parser.add_argument(
            "--interval",
            type=float,
            default=None,
            help="Seconds to wait, when no task is due, before looking again (default 0.02 for "
            "the 'now' queues, 1 otherwise).",
        )

    def handle(
        self,
        *args: object,
        queues: str | None,
        interval: float | None,
        verbosity: int,
        **options: object,
    ) -> None:
        names = WORKER_QUEUES[queues] if queues else ("*",)
        if interval is None:
            # A bot's card waits for a worker to look, and a person for the bot: looking is one
            # indexed read, so the `now` workers look often (bench/README.md, "Turn wait").
            interval = 0.02 if queues == "now" else 1.0
        if queues == LONG:
            # Long work yields the processor to the clocks, the bots and the web server: on a
            # machine they share, a round finished by bots must not make timeouts late.
            os.nice(LONG_WORK_NICENESS)
        become_worker()
        if live.through_database() and verbosity:
            self.stdout.write("Live events go to the web server through the database.")
        self._schedule(verbosity)
        heartbeat = Heartbeat(queues)
        heartbeat.start()
        try:
            self._run(names, interval, verbosity)
        finally:
            drop_connections()
            heartbeat.stop()

    def _run(self, names: tuple[str, ...], interval: float, verbosity: int) -> None:
        """Run django-tasks' worker until it is stopped, connecting again after a lost database."""
        delay = RETRY_FIRST
        while True:
            began = time.monotonic()
            try:
                # No autoreloader: its extra process would outlive a stop signal sent to this one.
                call_command(
                    "db_worker",
                    queue_name=",".join(names),
                    interval=interval,
                    reload=False,
                    verbosity=verbosity,
                )
                return  # stopped by a signal
            except DatabaseError:
                logger.exception("The worker lost the database; connecting again in %.1f s", delay)
            # Drop the broken connections; the next query opens new ones.
            for connection in connections.all(initialized_only=True):
                connection.close_if_unusable_or_obsolete()
            close_old_connections()
            if time.monotonic() - began > RETRY_MOST:
                delay = RETRY_FIRST  # it had been working: a new outage starts short
            time.sleep(delay)
            delay = min(delay * 2, RETRY_MOST)

    def _schedule(self, verbosity: int) -> None:
        # Tasks are rows, so a restart loses none; only the periodic chains need a first link.
        if ensure_digest_scheduled() and verbosity:
            self.stdout.write("Scheduled the daily digest.")
        if ensure_sweep_scheduled() and verbosity:
            self.stdout.write("Scheduled the sweep for missed deadlines.")
