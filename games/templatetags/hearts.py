"""Small filters for the match templates: a card's suit colour, signed scores, ordinals.

They return plain text; the markup of cards, seats and regions lives in the templates
(`games/_card.html`, `games/_seat.html`, `games/_table.html`, `games/match.html`).
"""

from datetime import datetime, timedelta
from functools import cache

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

from games import engine

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


@register.filter
def ordinal(value: int | None) -> str:
    """Return 1 as "1st", 2 as "2nd" and so on."""
    if value is None:
        return ""
    teens = 10 <= value % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
    return f"{value}{suffix}"
