"""The time zone each player reads times in, and a time as the site shows it.

Stored times are UTC. Each profile keeps a zone (`Profile.time_zone`, an IANA name such as
"Asia/Jakarta"; sign-up takes the browser's, the profile page changes it). A request is
answered in its player's zone (`games/time_zones.py`, the middleware), an e-mail or notice is
written in its recipient's (`as_read_by`), so Django's `date` filter and `localtime` give the
player's own clock. Every time shown names its zone (the date format's `e`: "WIB", "PDT"),
so that nobody has to guess which clock it is.

Shared by the models (the field's check), the requests, the e-mails and the services.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from games.lib.languages import language_of

DEFAULT_ZONE = "UTC"


@cache
def _known_zones() -> frozenset[str]:
    return frozenset(available_timezones())


@cache
def zone_names() -> tuple[str, ...]:
    """Every zone a player may choose, by its IANA name, sorted."""
    return tuple(sorted(_known_zones()))


def supported_zone(name: str | None) -> str | None:
    """Return the zone of this name, or None if there is no such zone (read on every
    request: a set, not the sorted list)."""
    if not name or name not in _known_zones():
        return None
    return name


def validate_zone(name: str) -> None:
    """Refuse a time zone that does not exist."""
    if supported_zone(name) is None:
        raise ValidationError(
            _("%(zone)s is not a time zone we know. Choose one from the list."),
            params={"zone": name},
            code="unknown_zone",
        )


def zone_of(user: User | None) -> ZoneInfo:
    """Return the zone to show this user times in: their choice, else UTC."""
    try:
        chosen = user.profile.time_zone if user is not None else ""
    except AttributeError:  # no profile (Django's RelatedObjectDoesNotExist is one)
        chosen = ""
    return ZoneInfo(supported_zone(chosen) or DEFAULT_ZONE)


def shown(moment: datetime, layout: str = "j F Y, H:i") -> str:
    """A moment as the site shows it: in the active zone (the reader's), the zone named.

    `layout` is a `date` filter format without the zone; templates write the same with
    `|date:"... e"`.
    """
    return date_format(timezone.localtime(moment), f"{layout} e")


@contextmanager
def as_read_by(user: User) -> Iterator[None]:
    """Write what is rendered within for this user: in their language and their time zone
    (an e-mail, a notice), whatever the request or task that writes it."""
    with translation.override(language_of(user)), timezone.override(zone_of(user)):
        yield
