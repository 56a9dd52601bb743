"""A map of the values a process kept most recently, shared by its threads.

Several things are kept in process between requests (engine states, tables, sessions), each
bounded so that a busy site's memory stays flat: past the limit, the entry kept longest ago
goes first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The most recently kept values by key, each operation under one lock."""

    def __init__(self) -> None:
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            return self._items.get(key)

    def put(self, key: K, value: V, limit: int) -> None:
        """Keep `value` as the newest entry; forget the oldest ones beyond `limit`."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > limit:
                self._items.popitem(last=False)

    def pop(self, key: K) -> None:
        with self._lock:
            self._items.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._items

    def __iter__(self) -> Iterator[K]:
        with self._lock:
            return iter(list(self._items))  # oldest first; a copy, as threads change it

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)
