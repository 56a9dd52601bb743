"""Rematches: the answers of a finished match's people to "Play again" (services/rematches.py).

The new match points back at the one it replays (`Match.rematch_of`, one at most: the column
is unique), so a finished match has at most one rematch however many people accept at once.
"""

from django.conf import settings
from django.db import models


class RematchAnswer(models.Model):
    """One person's answer to a finished match's offer to play again: yes, or no thanks."""

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="rematch_answers"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accepted = models.BooleanField()
    answered_at = models.DateTimeField()

    class Meta:
        ordering = ["answered_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_rematch_answer_each")
        ]

    def __str__(self) -> str:
        answer = "yes" if self.accepted else "no"
        return f"Rematch of match {self.match_id}: user {self.user_id} says {answer}"
