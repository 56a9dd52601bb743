"""Small filters for the match templates: a card's suit colour, signed scores, ordinals.

They return plain text; the markup of cards, seats and regions lives in the templates
(`games/_card.html`, `games/_seat.html`, `games/_table.html`, `games/match.html`).
"""

from datetime import datetime, timedelta
from functools import cache

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext, ngettext, pgettext

from games import engine
from games.lib import card_words, clock

register = template.Library()


@cache
def suit_class(card: engine.Card) -> str:
    """Return the CSS classes that colour a card by suit (red hearts and diamonds)."""
    return f"suit-{card.suit.lower()} {'is-red' if card.is_red else 'is-black'}"


register.filter("suit_class", suit_class)


@register.filter
def words(card: engine.Card) -> str:
    """Return a card in words in the active language, like "Queen of spades"."""
    return card_words.card_words(card)


@register.filter
def pass_direction(direction: str) -> str:
    """Return a passing direction code ("left", "across", ...) in words."""
    return card_words.direction_words(direction)


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
        return gettext("less than a minute")
    return timesince(since, now)


def duration_words(seconds: float) -> str:
    """Say a duration the way a clock is read at a glance: "2 days 3 h", "4 h 12 min", "9 min"."""
    seconds = int(seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    day_words = ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    hour_words = gettext("%(count)d h") % {"count": hours}
    minute_words = gettext("%(count)d min") % {"count": minutes}
    second_words = gettext("%(count)d s") % {"count": secs}
    if days:
        return day_words + (f" {hour_words}" if hours else "")
    if hours:
        return hour_words + (f" {minute_words}" if minutes else "")
    if minutes:
        return minute_words + (f" {second_words}" if secs and minutes < 10 else "")
    return second_words


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
    if not left:
        return gettext("time is up")
    return gettext("%(time)s left") % {"time": duration_words(left)}


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
    last = 0 if teens else value % 10
    if last == 1:
        words = pgettext("ordinal", "%(number)dst")
    elif last == 2:
        words = pgettext("ordinal", "%(number)dnd")
    elif last == 3:
        words = pgettext("ordinal", "%(number)drd")
    else:
        words = pgettext("ordinal", "%(number)dth")
    return words % {"number": value}
