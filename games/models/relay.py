"""Live events on their way from a worker process to the serving process's sockets.

On the default profile the channel layer lives in the serving process's memory: a worker's
events (a timeout, a bot's card, a round finished by bots) could not reach it. The worker
writes them here once its change has committed; the serving process reads them in order and
sends them to its layer (`games/live.py`, "the relay"). With Redis every process shares one
layer and nothing is written here.
"""

from django.db import models


class RelayedEvent(models.Model):
    """One event for one channel-layer group, as `games/live.py` sends it (no card in it)."""

    id = models.BigAutoField(primary_key=True)
    group = models.CharField(max_length=100)
    message = models.JSONField()
    # Read by the relay in id order; rows older than a few minutes are removed by it.
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"event {self.id} for {self.group}"
