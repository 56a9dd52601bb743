"""Slow down password guessing: count failed logins per username and per client address."""

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


@dataclass(frozen=True)
class LoginThrottle:
    """Failure counters for one login attempt's username and client address."""

    username: str
    address: str

    @classmethod
    def for_request(cls, request: HttpRequest, username: str) -> "LoginThrottle":
        """Build the throttle for this request and the username it tries."""
        return cls(username=username.strip().lower(), address=client_address(request))

    def _keys(self) -> list[str]:
        return [f"login-fail:user:{self.username}", f"login-fail:addr:{self.address}"]

    def is_locked(self) -> bool:
        """Say whether either counter has reached the limit."""
        counts = cache.get_many(self._keys())
        return any(count >= settings.LOGIN_FAILURE_LIMIT for count in counts.values())

    def record_failure(self) -> None:
        """Count one more failure; the pause runs from the first failure of a series."""
        for key in self._keys():
            if cache.add(key, 1, timeout=settings.LOGIN_LOCKOUT_SECONDS):
                continue
            try:
                cache.incr(key)
            except ValueError:  # expired between add() and incr()
                cache.add(key, 1, timeout=settings.LOGIN_LOCKOUT_SECONDS)

    def reset(self) -> None:
        """Forget this username's failures after a successful login."""
        cache.delete(self._keys()[0])


def client_address(request: HttpRequest) -> str:
    """Return the client's address as the server saw it."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def lockout_minutes() -> int:
    """Return the length of the pause in whole minutes, rounded up."""
    return -(-settings.LOGIN_LOCKOUT_SECONDS // 60)
