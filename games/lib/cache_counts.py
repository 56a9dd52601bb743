"""Counters in the shared cache (Redis with several processes), for limits across processes.

With Redis down the cache answers nothing and stores nothing (django-redis's
IGNORE_EXCEPTIONS, hearts_site/settings.py): a count is then 0, so no cap refuses anything
until Redis is back, rather than every request that counts failing.
"""

from django.core.cache import cache


def count_up(key: str, timeout: int) -> int:
    """Count one more under `key` and return the count; a new count lasts `timeout` seconds.

    Return 0 when the cache could not count (it answered None: Redis is unreachable).
    """
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        count: int | None = cache.incr(key)
    except ValueError:  # expired between add() and incr(): this one starts a new count
        cache.add(key, 1, timeout=timeout)
        return 1
    return count if count is not None else 0
