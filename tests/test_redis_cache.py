"""The Redis cache backend: Django's, with one Redis client per pool shared by every call."""

import threading

import pytest

from hearts_site.redis_cache import RedisCache
from tests.servers import require_redis

# A Redis database of its own, flushed by these tests only.
LOCATION = "redis://127.0.0.1:6379/4"


@pytest.fixture
def cache():
    require_redis()
    backend = RedisCache(LOCATION, {"KEY_PREFIX": "redis-cache-test"})
    backend.clear()
    yield backend
    backend.clear()


def test_values_go_in_and_come_back_as_with_djangos_backend(cache):
    cache.set("session", {"_auth_user_id": "7", "flags": [1, 2]}, 30)
    assert cache.get("session") == {"_auth_user_id": "7", "flags": [1, 2]}
    assert cache.add("session", "other") is False
    cache.set_many({"a": 1, "b": 2})
    assert cache.get_many(["a", "b", "missing"]) == {"a": 1, "b": 2}
    assert cache.incr("a") == 2
    cache.delete("session")
    assert cache.get("session", "gone") == "gone"


def test_every_call_and_every_thread_share_one_client(cache):
    first = cache._cache.get_client(write=True)
    seen = []

    def use():
        cache.set("k", "v")
        seen.append(cache._cache.get_client(write=True))

    threads = [threading.Thread(target=use) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(client is first for client in seen)
    assert cache._cache.get_client() is first  # one server: reads and writes share its pool
    assert cache.get("k") == "v"
