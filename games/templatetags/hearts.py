"""Small filters for the match templates: a card's suit colour, signed scores, ordinals.

They return plain text; the markup of cards, seats and regions lives in the templates
(`games/_card.html`, `games/_seat.html`, `games/_table.html`, `games/match.html`).
"""

from datetime import datetime, timedelta
from functools import cache

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

from games import clock, engine

register = template.Library()


@cache
def suit_class(card: engine.Card) -> str:
    """Return the CSS classes that colour a card by suit (red hearts and diamonds)."""
    return f"suit-{card.suit.lower()} {'is-red' if card.is_red else 'is-black'}"


register.filter("suit_class", suit_class)


@register.filter
def signed(value: int) -> str:
    """Return a score with its sign: "+5", "0", "−26"."""
    if value > 0:
        return f"+{value}"
    return str(value).replace("-", "−")


@register.filter
def waited(since: datetime | None) -> str:
    """Say how long it has been since then: "3 hours, 5 minutes", or "less than a minute"."""
    if since is None:
        return ""
    now = timezone.now()
    if now - since < timedelta(minutes=1):
        return "less than a minute"
    return timesince(since, now)


def duration_words(seconds: float) -> str:
    """Say a duration the way a clock is read at a glance: "2 days 3 h", "4 h 12 min", "9 min"."""
    seconds = int(seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} day{'s' if days != 1 else ''}" + (f" {hours} h" if hours else "")
    if hours:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    if minutes:
        return f"{minutes} min" + (f" {secs} s" if secs and minutes < 10 else "")
    return f"{secs} s"


@register.filter
def seconds_left(deadline: datetime | None) -> int:
    """Return the whole seconds from now until the deadline (0 once it has passed)."""
    if deadline is None:
        return 0
    return max(0, int((deadline - clock.now()).total_seconds()))


@register.filter
def time_left(deadline: datetime | None) -> str:
    """Say how long is left until the deadline: "4 h 12 min left", or "time is up"."""
    if deadline is None:
        return ""
    left = seconds_left(deadline)
    return f"{duration_words(left)} left" if left else "time is up"


@register.filter
def duration(seconds: int | None) -> str:
    """Say a number of seconds as a duration: 86400 is "1 day"."""
    return duration_words(seconds or 0)


@register.filter
def ordinal(value: int | None) -> str:
    """Return 1 as "1st", 2 as "2nd" and so on."""
    if value is None:
        return ""
    teens = 10 <= value % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
    return f"{value}{suffix}"
