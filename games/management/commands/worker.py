"""Run the background worker: make sure the daily digest is scheduled, then run queued tasks."""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from games.background.deadlines import ensure_sweep_scheduled
from games.notifications.tasks import ensure_digest_scheduled


class Command(BaseCommand):
    help = (
        "Run queued tasks (turn e-mails, the daily digest, timeouts) from the database until "
        "stopped. "
        "Run one or more beside the web servers."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--interval",
            type=float,
            default=1.0,
            help="Seconds to wait, when no task is due, before looking again (default 1).",
        )

    def handle(self, *args: object, interval: float, verbosity: int, **options: object) -> None:
        # Tasks are rows, so a restart loses none; only the digest chain needs a first link.
        if ensure_digest_scheduled() and verbosity:
            self.stdout.write("Scheduled the daily digest.")
        if ensure_sweep_scheduled() and verbosity:
            self.stdout.write("Scheduled the sweep for missed deadlines.")
        # No autoreloader: its extra process would outlive a stop signal sent to this one.
        call_command("db_worker", interval=interval, reload=False, verbosity=verbosity)
