"""Count requests in fixed windows in the shared cache, to cap how often something is done."""

from hashlib import sha256

from django.core.cache import cache


def within_limit(kind: str, key: str, limit: int, window_seconds: int) -> bool:
    """Count one more request for (kind, key); say whether the count is still within `limit`.

    The window starts at the first request of a series and lasts `window_seconds`. The key
    is hashed: it may be an e-mail address, which has no place in cache keys or their logs.
    """
    cache_key = f"limit:{kind}:{sha256(key.encode()).hexdigest()}"
    if cache.add(cache_key, 1, timeout=window_seconds):
        return limit >= 1
    try:
        count = cache.incr(cache_key)
    except ValueError:  # expired between add() and incr(): this request opens a new window
        cache.add(cache_key, 1, timeout=window_seconds)
        count = 1
    return count <= limit
