"""Back up the site's database while it runs (see games/management/backups.py)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from games.management.backups import BackupError, back_up, vendor


class Command(BaseCommand):
    help = (
        "Write a consistent copy of the database while the site runs: a SQLite file (SQLite's "
        "online backup) or a pg_dump archive (PostgreSQL). Restore it with `restore`."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path",
            nargs="?",
            help="Where to write it (default: backups/hearts-<date and time>.sqlite3 or .dump).",
        )

    def handle(self, *args: object, path: str | None, **options: object) -> None:
        if path is None:
            stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
            suffix = "sqlite3" if vendor() == "sqlite" else "dump"
            path = f"backups/hearts-{stamp}.{suffix}"
        try:
            written = back_up(Path(path))
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Backed up the database to {written}")
