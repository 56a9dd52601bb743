"""Remember when each player was last on the site, cheaply: at most one write a minute each.

A process-wide memo answers most requests without any I/O; when it lets a write through, the
UPDATE itself compares the stored time, so several processes still write about once a minute.
"""

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import cast

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse

from games.lib import clock
from games.models import NotificationSettings

# user id -> when this process last wrote (or found) their last-seen time.
_written: dict[int, datetime] = {}
# Past this many entries, forget the stale ones, so the memo stays small.
_MEMO_LIMIT = 10_000


def _interval() -> timedelta:
    return timedelta(seconds=settings.SEEN_WRITE_SECONDS)


def due(user_id: int, now: datetime) -> bool:
    """Say whether this process should write the user's last-seen time now."""
    last = _written.get(user_id)
    if last is not None and now - last < _interval():
        return False
    if len(_written) >= _MEMO_LIMIT:
        # A copy, so threads of a WSGI server adding entries meanwhile do not break the loop.
        for stale, at in list(_written.items()):
            if now - at >= _interval():
                _written.pop(stale, None)
    _written[user_id] = now
    return True


def _stale_rows(user_id: int, now: datetime) -> QuerySet[NotificationSettings]:
    """Select the user's row if its stored time is older than the interval (or unset)."""
    older = Q(last_seen__isnull=True) | Q(last_seen__lte=now - _interval())
    return NotificationSettings.objects.filter(older, user_id=user_id)


def write(user_id: int, now: datetime) -> None:
    """Store the time, unless the stored one is within the interval (another process wrote)."""
    _stale_rows(user_id, now).update(last_seen=now)


def mark_seen(user_id: int) -> None:
    """Record that the user is on the site now, unless that was recorded within the interval."""
    now = clock.now()
    if due(user_id, now):
        write(user_id, now)


async def amark_seen(user_id: int) -> None:
    """Record that the user is on the site now, from async code."""
    now = clock.now()
    if due(user_id, now):
        await _stale_rows(user_id, now).aupdate(last_seen=now)


def forget_writes() -> None:
    """Forget what this process wrote, so the next request of each user writes again."""
    _written.clear()


def _known_user_id(request: HttpRequest) -> int | None:
    """Return the signed-in user's id if the request already loaded the user, else None.

    Loading the user only to note them would cost a session read on every request; the pages
    a signed-in player uses all load it anyway.
    """
    for attribute in ("_cached_user", "_acached_user"):
        user = request.__dict__.get(attribute)
        if user is not None and user.is_authenticated:
            user_id: int = user.pk
            return user_id
    return None


class LastSeenMiddleware:
    """After each response, note the signed-in player as seen (written at most once a minute)."""

    sync_capable = True
    async_capable = True

    def __init__(
        self, get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]
    ) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponse | Awaitable[HttpResponse]:
        if self.is_async:
            return self.__acall__(request)
        response = self.get_response(request)
        user_id = _known_user_id(request)
        if user_id is not None:
            mark_seen(user_id)
        return response

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        # Served asynchronously: the next handler is a coroutine function.
        response = await cast(Awaitable[HttpResponse], self.get_response(request))
        user_id = _known_user_id(request)
        if user_id is not None:
            await amark_seen(user_id)
        return response
