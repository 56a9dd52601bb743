"""The Redis cache backend: Django's, with one Redis client per pool shared by every call."""

import threading

import pytest

from hearts_site.redis_cache import RedisCache
from tests.servers import free_port, require_redis

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


def test_a_value_asked_for_ahead_is_read_when_wanted(cache):
    cache.set("session", {"_auth_user_id": "7"}, 30)
    pending, missing = cache.get_later("session"), cache.get_later("missing")
    assert pending.result() == {"_auth_user_id": "7"}
    assert missing.result() is None
    with pytest.raises(RuntimeError):
        pending.result()  # an answer is read once
    assert cache.get("session") == {"_auth_user_id": "7"}


def test_an_answer_nobody_reads_is_dropped_and_the_next_command_gets_its_own(cache):
    cache.set("a", "first", 30)
    cache.set("b", "second", 30)
    cache.get_later("a").discard()
    # The pool hands out the connection given back last: it must not still hold "first".
    assert cache.get("b") == "second"
    pending = cache.get_later("b")
    pending.discard()
    pending.discard()  # twice is harmless
    assert cache.get("a") == "first"


def test_without_redis_nothing_is_asked_ahead(cache):
    unreachable = RedisCache(f"redis://127.0.0.1:{free_port()}/4", {})
    assert unreachable.get_later("session") is None
