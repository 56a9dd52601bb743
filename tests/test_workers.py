"""The server's pool of worker threads: the thread idle the shortest time takes the next task."""

from __future__ import annotations

import threading

import pytest
from asgiref.sync import sync_to_async

from hearts_site.workers import LastIdleFirstExecutor
from tests.async_helpers import run_async

WAIT = 10  # seconds: a generous bound, reached only if the pool is broken


def thread_name() -> str:
    return threading.current_thread().name


@pytest.fixture
def executor():
    pool = LastIdleFirstExecutor(max_workers=3, thread_name_prefix="test")
    yield pool
    pool.shutdown(cancel_futures=True)


def test_a_task_gives_its_result_or_its_error(executor):
    assert executor.submit(pow, 2, 10).result(WAIT) == 1024
    assert executor.submit(dict, a=1).result(WAIT) == {"a": 1}
    with pytest.raises(ZeroDivisionError):
        executor.submit(lambda: 1 / 0).result(WAIT)


def test_tasks_one_after_another_all_run_in_the_same_thread(executor):
    names = {executor.submit(thread_name).result(WAIT) for _ in range(20)}
    assert len(names) == 1


def occupy(executor, count: int) -> tuple[list, threading.Event]:
    """Start `count` tasks that each hold a thread until the event is set."""
    release = threading.Event()
    started = threading.Barrier(count + 1)

    def hold() -> str:
        started.wait(WAIT)
        release.wait(WAIT)
        return thread_name()

    futures = [executor.submit(hold) for _ in range(count)]
    started.wait(WAIT)
    return futures, release


def test_overlapping_tasks_start_threads_up_to_the_limit_and_the_rest_wait(executor):
    futures, release = occupy(executor, 3)
    queued = executor.submit(thread_name)
    assert not queued.done()  # every thread is busy: it waits for one
    release.set()
    names = {future.result(WAIT) for future in futures}
    assert len(names) == 3
    assert queued.result(WAIT) in names  # no fourth thread was started


def test_the_thread_that_went_idle_last_takes_the_next_task(executor):
    futures, release = occupy(executor, 3)
    release.set()
    for future in futures:
        future.result(WAIT)
    # All three are idle now; make one of them the last to go idle, then see who is next.
    last = executor.submit(thread_name).result(WAIT)
    assert executor.submit(thread_name).result(WAIT) == last


def test_after_shutdown_nothing_new_is_taken_and_waiting_tasks_can_be_cancelled():
    executor = LastIdleFirstExecutor(max_workers=1)
    futures, release = occupy(executor, 1)
    queued = executor.submit(thread_name)
    executor.shutdown(wait=False, cancel_futures=True)  # its one thread is busy
    assert queued.cancelled()
    with pytest.raises(RuntimeError):
        executor.submit(thread_name)
    release.set()
    assert futures[0].result(WAIT)  # the running task still finishes


def test_a_pool_needs_a_thread():
    with pytest.raises(ValueError):
        LastIdleFirstExecutor(max_workers=0)


def test_the_event_loop_hands_work_to_it_as_the_server_does(executor):
    async def two_in_a_row() -> set[str]:
        call = sync_to_async(thread_name, thread_sensitive=False, executor=executor)
        return {await call(), await call()}

    assert len(run_async(two_in_a_row)) == 1


def test_shutdown_waits_for_the_running_task():
    executor = LastIdleFirstExecutor(max_workers=1)
    futures, release = occupy(executor, 1)
    threading.Timer(0.05, release.set).start()
    executor.shutdown()
    assert futures[0].done()
