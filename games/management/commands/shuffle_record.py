"""Write a match's shuffle record, the file `python -m games.engine.verify` checks."""

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Match
from games.presenters.shuffle import NotRevealed, record_json


class Command(BaseCommand):
    help = (
        "Write the shuffle record of a match whose secret is revealed (its commitment, secret "
        "and deals played), to check with: python -m games.engine.verify FILE"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match", type=int, help="the match's number")
        parser.add_argument(
            "-o", "--output", default="-", help="the file to write (default: standard output)"
        )

    def handle(self, *args: object, match: int, output: str, **options: object) -> None:
        found = Match.objects.filter(pk=match).first()
        if found is None:
            raise CommandError(f"There is no match {match}.")
        try:
            record = record_json(found)
        except NotRevealed as refusal:
            raise CommandError(f"Match {match}: {refusal.message}") from None
        text = json.dumps(record, indent=2) + "\n"
        if output == "-":
            self.stdout.write(text, ending="")
            return
        try:
            with open(output, "w", encoding="utf-8") as file:
                file.write(text)
        except OSError as error:
            raise CommandError(f"Cannot write {output}: {error.strerror or error}") from None
        self.stderr.write(f"Wrote the shuffle record of match {match} to {output}.")
