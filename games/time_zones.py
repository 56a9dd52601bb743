"""The requests' side of each player's time zone (the zones themselves: `games/lib/zones.py`).

A signed-in player's pages are answered in the zone on their profile, kept in the session on
signing in and on changing it, so that knowing it costs no query. A visitor who is not
signed in reads UTC, named as such.
"""

from collections.abc import Callable

from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from games.lib.zones import supported_zone, zone_of

SESSION_KEY = "player_time_zone"


def remember_zone(request: HttpRequest, name: str) -> None:
    """Answer this session's next pages in this zone (the profile, saved by its form, keeps it)."""
    request.session[SESSION_KEY] = name


@receiver(user_logged_in)
def zone_on_login(
    sender: type[User], request: HttpRequest | None, user: User, **kwargs: object
) -> None:
    """On signing in, answer this session's pages in the player's zone."""
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = zone_of(user).key


class PlayerTimeZoneMiddleware:
    """Answer each request in its player's time zone (after the session and authentication)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with timezone.override(self.zone(request)):
            return self.get_response(request)

    @staticmethod
    def zone(request: HttpRequest) -> str | None:
        session = getattr(request, "session", None)
        if session is None:
            return None
        name = supported_zone(session.get(SESSION_KEY))
        if name is None and SESSION_KEY not in session:
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated:
                # A session begun before zones were kept in it: read the profile once.
                name = session[SESSION_KEY] = zone_of(user).key
        return name
