"""Rebuild every player's statistics, rating and results from the stored matches."""

from django.core.management.base import BaseCommand

from games.services import records


class Command(BaseCommand):
    help = (
        "Forget every statistic, rating and result, and count again every finished match in "
        "the order they ended, filling in from the log who took the Q♠ where it was not "
        "recorded. Gives exactly the figures the matches gave as they ended."
    )

    def handle(self, *args: object, **options: object) -> None:
        count = records.rebuild()
        self.stdout.write(f"Counted {count} finished match{'es' if count != 1 else ''}.")
