"""The time the site's timed work goes by; tests replace `now` to travel in time.

A test that runs the site in another process (the worker, say) cannot replace `now` there: it
starts that process with HEARTS_CLOCK_OFFSET_SECONDS in its environment, and the clock runs
that many seconds ahead (or behind). The offset is read once, and only with DEBUG on: a
deployed site's clock never moves this way.
"""

import os
from datetime import datetime, timedelta
from functools import cache

from django.conf import settings
from django.utils import timezone

OFFSET_VARIABLE = "HEARTS_CLOCK_OFFSET_SECONDS"


@cache
def _offset() -> timedelta:
    seconds = os.environ.get(OFFSET_VARIABLE, "")
    if not seconds or not settings.DEBUG:
        return timedelta(0)
    return timedelta(seconds=float(seconds))


def now() -> datetime:
    """Return the current time, aware, in UTC."""
    return timezone.now() + _offset()
