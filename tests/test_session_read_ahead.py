"""Sessions read ahead: the middleware asks Redis as the request arrives, the store reads later."""

import pytest
import redis
from django.contrib.auth import SESSION_KEY
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse

from hearts_site import redis_cache, sessions
from tests.servers import require_redis

# A Redis database of its own, flushed by these tests only.
REDIS_CACHE = {
    "default": {
        "BACKEND": "hearts_site.redis_cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379/4",
    }
}


@pytest.fixture
def redis_sessions():
    require_redis()
    with override_settings(CACHES=REDIS_CACHE):
        caches["default"].clear()
        yield caches["default"]
        caches["default"].clear()


@pytest.fixture
def reads(monkeypatch) -> dict[str, int]:
    """Count the session reads asked ahead, answered from ahead, and made the usual way:
    from the cache when it was not asked ahead, from the database when the cache had none."""
    counted = {"ahead": 0, "answered": 0, "usual": 0, "database": 0}
    get_later, result = redis_cache.RedisCache.get_later, redis_cache.PendingGet.result
    usual, database = redis_cache.RedisCache.get, sessions.SessionStore._get_session_from_db

    def counting_get_later(self, key, version=None):
        counted["ahead"] += 1
        return get_later(self, key, version)

    def counting_result(self):
        counted["answered"] += 1
        return result(self)

    def counting_get(self, key, *args, **kwargs):
        counted["usual"] += key.startswith(sessions.SessionStore.cache_key_prefix)
        return usual(self, key, *args, **kwargs)

    def counting_database(self):
        counted["database"] += 1
        return database(self)

    monkeypatch.setattr(redis_cache.RedisCache, "get_later", counting_get_later)
    monkeypatch.setattr(redis_cache.PendingGet, "result", counting_result)
    monkeypatch.setattr(redis_cache.RedisCache, "get", counting_get)
    monkeypatch.setattr(sessions.SessionStore, "_get_session_from_db", counting_database)
    return counted


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_signed_in_request_reads_its_session_from_the_answer_asked_ahead(
    redis_sessions, reads, alice
):
    client = signed_in(alice)
    reads.update(ahead=0, answered=0, usual=0, database=0)
    response = client.get("/")
    assert response.status_code == 200 and response.context["user"] == alice
    assert reads == {"ahead": 1, "answered": 1, "usual": 0, "database": 0}


def test_a_request_that_never_opens_its_session_leaves_the_connection_clean(
    redis_sessions, reads, alice
):
    client = signed_in(alice)
    redis_sessions.set("unrelated", "its own value", 30)
    reads.update(ahead=0, answered=0, usual=0, database=0)
    assert client.get("/healthz").status_code == 200
    assert reads["ahead"] == 1  # asked, and its answer dropped on the way out
    # Redis's connections go back to the pool in order: the next command gets its own answer.
    assert redis_sessions.get("unrelated") == "its own value"
    assert client.get("/").context["user"] == alice


def test_a_session_missing_from_the_cache_is_found_in_the_database(redis_sessions, reads, alice):
    client = signed_in(alice)
    redis_sessions.clear()  # the cache lost it; the database keeps every session
    reads.update(ahead=0, answered=0, usual=0, database=0)
    assert client.get("/").context["user"] == alice
    assert reads == {"ahead": 1, "answered": 1, "usual": 0, "database": 1}
    reads.update(ahead=0, answered=0, usual=0, database=0)
    assert client.get("/").context["user"] == alice  # and the cache has it again
    assert reads == {"ahead": 1, "answered": 1, "usual": 0, "database": 0}


def test_a_post_to_a_view_other_than_a_move_still_reads_its_session_ahead(
    redis_sessions, reads, alice
):
    client = signed_in(alice)  # saved by this process, which knows it (`sessions.use_known`)
    reads.update(ahead=0, answered=0, usual=0, database=0)
    assert client.post(reverse("logout")).status_code == 302
    assert reads == {"ahead": 1, "answered": 1, "usual": 0, "database": 0}


def test_a_visitor_without_a_session_asks_nothing_ahead(redis_sessions, reads, client):
    assert client.get("/accounts/login/").status_code == 200
    assert reads["ahead"] == 0


def test_a_broken_answer_falls_back_to_the_usual_read(redis_sessions, monkeypatch, alice):
    client = signed_in(alice)
    broken_answers, result = [], redis_cache.PendingGet.result

    def broken(self):
        broken_answers.append(self)
        result(self)  # the answer is read, then the read fails as if the connection dropped
        raise redis.ConnectionError("the connection dropped")

    monkeypatch.setattr(redis_cache.PendingGet, "result", broken)
    assert client.get("/").context["user"] == alice
    assert len(broken_answers) == 1
    store = sessions.SessionStore(client.cookies["sessionid"].value)
    assert store[SESSION_KEY] == str(alice.pk)
