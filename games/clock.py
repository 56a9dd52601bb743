"""The time the site's timed work goes by; tests replace `now` to travel in time."""

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    """Return the current time, aware, in UTC."""
    return timezone.now()
