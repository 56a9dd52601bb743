"""How many live sockets one signed-in session may hold open at once.

Each open page holds one socket; a person with many tabs holds a few dozen at most. A script
opening thousands on one session would hold as many consumers and group memberships: past
`LIVE_SOCKETS_PER_SESSION`, the handshake is refused. The count lives in the cache (Redis when
several processes serve the site), so it holds across processes. A process killed with its
sockets open leaves its count behind: the count expires an hour after its last change, so a
session is never refused for long by sockets that no longer exist.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from games.lib.cache_counts import count_up

COUNT_SECONDS = 3600


@dataclass
class SocketSlot:
    """One socket's place in its session's count."""

    key: str
    taken: bool = False

    async def take(self) -> bool:
        """Count this socket in; say False (and count nothing) if the session has too many."""
        count = await sync_to_async(count_up)(self.key, COUNT_SECONDS)
        await cache.atouch(self.key, COUNT_SECONDS)  # an hour from its last change
        if count > settings.LIVE_SOCKETS_PER_SESSION:
            await self._uncount()
            return False
        self.taken = True
        return True

    async def give_back(self) -> None:
        """Count this socket out, once, if it was counted in."""
        if self.taken:
            self.taken = False
            await self._uncount()

    async def _uncount(self) -> None:
        with contextlib.suppress(ValueError):  # the count has expired: nothing to take back
            await cache.adecr(self.key)


def socket_slot(scope: dict[str, Any]) -> SocketSlot:
    """Return the slot of a socket's session (or, without a session key, of its user)."""
    session = scope.get("session")
    key = getattr(session, "session_key", None) or f"user-{scope['user'].pk}"
    return SocketSlot(f"live-sockets:{key}")
