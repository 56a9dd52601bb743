"""Django's Redis cache, with one Redis client per connection pool instead of one per call.

Django's client builds a new `redis.Redis` around the shared connection pool for every cache
operation, which costs about 45 µs, a third of a session read that Redis itself answers in
under 60 µs. A `redis.Redis` is safe to share between threads (each command takes its own
connection from the pool), so one per pool serves every thread.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class SharedClients(RedisCacheClient):
    """Build the Redis client of each pool once, and hand out that one."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            # Two threads may both build one here; either serves, and the last one is kept.
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    """Django's Redis cache backend, sharing its Redis clients (see the module's docstring)."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = SharedClients
