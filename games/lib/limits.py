"""Count requests in fixed windows in the shared cache, to cap how often something is done."""

from hashlib import sha256

from games.lib.cache_counts import count_up


def within_limit(kind: str, key: str, limit: int, window_seconds: int) -> bool:
    """Count one more request for (kind, key); say whether the count is still within `limit`.

    The window starts at the first request of a series and lasts `window_seconds`. The key
    is hashed: it may be an e-mail address, which has no place in cache keys or their logs.
    """
    cache_key = f"limit:{kind}:{sha256(key.encode()).hexdigest()}"
    return count_up(cache_key, window_seconds) <= limit
