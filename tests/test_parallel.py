"""The Redis database each worker of a parallel run takes (tests/parallel.py)."""

import pytest

from tests.parallel import worker_redis_url


def test_each_worker_moves_up_from_the_database_named():
    url = "redis://127.0.0.1:6379/1"
    assert worker_redis_url(url, "gw0") == "redis://127.0.0.1:6379/1"
    assert worker_redis_url(url, "gw1") == "redis://127.0.0.1:6379/2"
    assert worker_redis_url("redis://127.0.0.1:6379", "gw3") == "redis://127.0.0.1:6379/3"


def test_workers_stay_clear_of_the_daphne_tests_database():
    with pytest.raises(RuntimeError, match="fewer workers"):
        worker_redis_url("redis://127.0.0.1:6379/1", "gw14")


def test_workers_stay_clear_of_the_worker_events_tests_database():
    assert worker_redis_url("redis://127.0.0.1:6379/1", "gw12") == "redis://127.0.0.1:6379/13"
    with pytest.raises(RuntimeError, match="fewer workers"):
        worker_redis_url("redis://127.0.0.1:6379/1", "gw13")
