"""Replay every match's log and check it gives the stored state (after a restore, say)."""

from django.core.management.base import BaseCommand, CommandError

from games.models import Match
from games.services.replay import log_matches_snapshot


class Command(BaseCommand):
    help = (
        "Replay every match's log of decisions over its recorded deals, through the rules, and "
        "check that it gives the state stored with the match. Fails if any does not."
    )

    def handle(self, *args: object, **options: object) -> None:
        broken = [
            match.pk
            for match in Match.objects.order_by("pk").iterator()
            if not log_matches_snapshot(match)
        ]
        checked = Match.objects.count()
        if broken:
            raise CommandError(
                f"{len(broken)} of {checked} matches do not replay as stored: {broken[:50]}"
            )
        self.stdout.write(f"Every match replays as stored ({checked} checked).")
