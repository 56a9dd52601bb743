"""Counters in the shared cache (Redis with several processes), for limits across processes."""

from django.core.cache import cache


def count_up(key: str, timeout: int) -> int:
    """Count one more under `key` and return the count; a new count lasts `timeout` seconds."""
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add() and incr(): this one starts a new count
        cache.add(key, 1, timeout=timeout)
        return 1
