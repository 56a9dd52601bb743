"""Card faces and small number filters for the match templates.

Every card rendering carries `data-card` and the card in words, so that pages can be checked
for what they show.
"""

from functools import cache

from django import template
from django.utils.html import format_html

from games import engine

register = template.Library()


@cache
def suit_class(card: engine.Card) -> str:
    """Return the CSS classes that colour a card by suit (red hearts and diamonds)."""
    return f"suit-{card.suit.lower()} {'is-red' if card.is_red else 'is-black'}"


register.filter("suit_class", suit_class)


# Cards are 52 constants, so each rendering is computed once per process and reused.
@register.simple_tag
@cache
def card_face(card: engine.Card, extra: str = "") -> str:
    """Render a card: its symbol for the eye, its name in words for screen readers."""
    return format_html(
        '<span class="playing-card {} {}" data-card="{}">'
        '<span class="card-rank" aria-hidden="true">{}</span>'
        '<span class="card-suit" aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span></span>',
        suit_class(card),
        extra,
        card,
        card.symbol[:-1],
        card.symbol[-1],
        card.words,
    )


@register.simple_tag
@cache
def card_inner(card: engine.Card) -> str:
    """Render the inside of a card-shaped button or label: symbol shown, words spoken."""
    return format_html(
        '<span class="card-rank" aria-hidden="true">{}</span>'
        '<span class="card-suit" aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span>',
        card.symbol[:-1],
        card.symbol[-1],
        card.words,
    )


@register.simple_tag
@cache
def play_button(card: engine.Card, legal: bool, reason_id: str | None) -> str:
    """Render a card of the hand as a play button; a disabled one points to its reason.

    The hand is the hottest part of the page a move answers with: thirteen buttons built
    from a handful of variants each, so each variant is built once per process.
    """
    state = "" if legal else format_html(' disabled aria-describedby="{}"', reason_id)
    return format_html(
        '<button type="submit" name="card" value="{}" data-card="{}" class="playing-card {}"{}>'
        "{}</button>",
        card,
        card,
        suit_class(card),
        state,
        card_inner(card),
    )


@register.filter
def signed(value: int) -> str:
    """Return a score with its sign: "+5", "0", "−26"."""
    if value > 0:
        return f"+{value}"
    return str(value).replace("-", "−")


@register.filter
def ordinal(value: int | None) -> str:
    """Return 1 as "1st", 2 as "2nd" and so on."""
    if value is None:
        return ""
    teens = 10 <= value % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
    return f"{value}{suffix}"
