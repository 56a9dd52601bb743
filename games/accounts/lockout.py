"""How django-axes pauses password guessing: per username and address, and per address.

Two counters, over the failures of the last `LOGIN_LOCKOUT_SECONDS`:

- one username from one address: `LOGIN_FAILURE_LIMIT` failures pause that pair only, so
  somebody guessing a player's password from elsewhere never locks the player out;
- one address, whatever the usernames: `LOGIN_ADDRESS_FAILURE_LIMIT` failures pause the
  address, which stops one client trying a password on many accounts. It is higher than the
  first, since people behind one address (an office, a school) share it.

Axes compares the largest count with a single limit; `LoginLockoutHandler` measures each
counter against its own limit instead. The counters are `AXES_LOCKOUT_PARAMETERS` in the
settings, username and address first; the address is `addresses.client_address`.
"""

from datetime import timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_lockout_parameters
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

TOO_MANY_REQUESTS = 429


def failure_limit(request: HttpRequest, credentials: dict[str, object] | None = None) -> int:
    """Return the limit for one username from one address (read late: tests change it)."""
    return settings.LOGIN_FAILURE_LIMIT


def cool_off(request: HttpRequest | None = None) -> timedelta:
    """Return how long failures count, and so how long a pause lasts after the last one."""
    return timedelta(seconds=settings.LOGIN_LOCKOUT_SECONDS)


def lockout_minutes() -> int:
    """Return the length of the pause in whole minutes, rounded up."""
    return -(-settings.LOGIN_LOCKOUT_SECONDS // 60)


def _limit_of(parameters: list[str]) -> int:
    if "username" in parameters:
        return settings.LOGIN_FAILURE_LIMIT
    return settings.LOGIN_ADDRESS_FAILURE_LIMIT


# django-axes ships no type information: its handler class is Any to mypy.
class LoginLockoutHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """Axes' database handler, with a limit of its own for each counter."""

    def get_failures(
        self, request: HttpRequest, credentials: dict[str, object] | None = None
    ) -> int:
        """Return the failures as measured against `failure_limit`, by the closest counter.

        Axes locks once this reaches `failure_limit`: so report the limit less the room left
        on the counter with the least room, which reaches it exactly when any counter
        reaches its own limit.
        """
        limit = failure_limit(request, credentials)
        parameter_sets = get_lockout_parameters(request, credentials)
        attempt_sets = self.get_user_attempts(request, credentials)
        least_room = limit
        for parameters, attempts in zip(parameter_sets, attempt_sets, strict=True):
            count = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            least_room = min(least_room, _limit_of(list(parameters)) - count)
        return limit - least_room

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, object] | None = None
    ) -> int:
        """Forget this username's failures from this address after a successful login.

        Only that counter: clearing the address's too would let someone guessing at other
        accounts wipe their count by signing in to their own now and then.
        """
        attempts = self.filter_user_attempts(request, credentials)[0]
        count: int
        count, _ = attempts.delete()
        return count


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, object] | None = None,
) -> HttpResponse:
    """Answer a paused sign-in: 429, saying how long to wait; nothing was checked or changed."""
    context = {"minutes": lockout_minutes()}
    return render(request, "registration/locked_out.html", context, status=TOO_MANY_REQUESTS)
