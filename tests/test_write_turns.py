"""Writers of one process take turns before BEGIN on SQLite; on PostgreSQL row locks order them."""

import threading

import pytest
from django.db import connection, transaction

from games.services import writes


def holds_turn() -> bool:
    """Say whether some thread holds the writers' turn (it is re-entrant: ask from another)."""
    free: list[bool] = []

    def probe() -> None:
        taken = writes._writers.acquire(blocking=False)
        if taken:
            writes._writers.release()
        free.append(taken)

    thread = threading.Thread(target=probe)
    thread.start()
    thread.join()
    return not free[0]


@pytest.mark.django_db(transaction=True)
def test_a_change_holds_the_turn_on_sqlite_only():
    with writes.write_transaction():
        assert connection.in_atomic_block
        assert holds_turn() == (connection.vendor == "sqlite")
    assert not holds_turn()


@pytest.mark.django_db(transaction=True)
def test_inside_a_transaction_no_turn_is_taken_so_nobody_deadlocks():
    with transaction.atomic(), writes.write_transaction():
        assert not holds_turn()


@pytest.mark.django_db(transaction=True)
def test_turns_can_be_switched_off(settings):
    settings.SQLITE_WRITERS_TAKE_TURNS = False
    with writes.write_transaction():
        assert not holds_turn()


@pytest.mark.django_db(transaction=True)
def test_a_second_writer_waits_for_the_first_on_sqlite():
    events: list[str] = []
    first_inside = threading.Event()
    let_first_go = threading.Event()

    def first() -> None:
        with writes.write_transaction():
            events.append("first in")
            first_inside.set()
            let_first_go.wait(5)
            events.append("first out")
        connection.close()

    def second() -> None:
        first_inside.wait(5)
        with writes.write_transaction():
            events.append("second in")
        connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    first_inside.wait(5)
    # Give the second writer time to reach its turn, then let the first one finish.
    threads[1].join(0.3)
    let_first_go.set()
    for thread in threads:
        thread.join(10)
    if connection.vendor == "sqlite":
        assert events == ["first in", "first out", "second in"]
    else:  # nothing but row locks orders PostgreSQL's writers: these two touch no row
        assert events == ["first in", "second in", "first out"]
