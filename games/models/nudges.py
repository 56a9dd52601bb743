"""Nudges: a waiting player reminding the players to act in a match (games/services/nudges.py)."""

from django.conf import settings
from django.db import models


class Nudge(models.Model):
    """One nudge: who sent it, in which match, when, and how many players it reached."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="nudges")
    nudger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="nudges_sent"
    )
    created_at = models.DateTimeField()
    nudged = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # "When did this player last nudge in this match?": one index probe.
            models.Index(fields=["match", "nudger", "created_at"], name="nudge_match_nudger"),
        ]

    def __str__(self) -> str:
        return f"Nudge by {self.nudger_id} in match {self.match_id} at {self.created_at}"
