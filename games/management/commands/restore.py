"""Restore a backup into a new database (see games/management/backups.py)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.management.backups import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore a backup made by `backup` into a new database, never over the one in use: for "
        "SQLite a new file; for PostgreSQL an empty database created beforehand (createdb). "
        "Then point DATABASE_URL at it, run `migrate` and `check_matches`, and start the site."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="The backup.")
        parser.add_argument(
            "target", help="The new SQLite file, or the empty PostgreSQL database's name."
        )

    def handle(self, *args: object, path: str, target: str, **options: object) -> None:
        try:
            restore(Path(path), target)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Restored {path} into {target}")
