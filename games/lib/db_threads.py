"""Database work from an event loop, in channels' database thread, with its types kept."""

from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from channels.db import database_sync_to_async

P = ParamSpec("P")
R = TypeVar("R")


def in_db_thread(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """Run `func` as channels' `database_sync_to_async` does, with its signature kept.

    channels ships no type information: this says what its decorator returns.
    """
    wrapped: Callable[P, Awaitable[R]] = database_sync_to_async(func)
    return wrapped
