"""The background workers' heartbeats, read by the readiness check (`/readyz`).

Each `manage.py worker` process keeps one row, written every `WORKER_HEARTBEAT_SECONDS` by a
thread of its own (`games/background/heartbeat.py`) and removed when it stops.
"""

from django.db import models


class WorkerHeartbeat(models.Model):
    """One running worker: which queues it takes, when it started, when it was last heard of."""

    class Queues(models.TextChoices):
        NOW = "now", "now"
        LONG = "long", "long"
        ALL = "all", "all"

    # Unique per process: the host's name and the process id.
    name = models.CharField(max_length=200, unique=True)
    queues = models.CharField(max_length=8, choices=Queues.choices)
    started_at = models.DateTimeField()
    # The readiness check reads the recent beats, the worker prunes the old: a range on this.
    last_beat = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"worker {self.name} ({self.queues})"
