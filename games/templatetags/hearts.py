"""Card faces and small number filters for the match templates.

Every card rendering carries `data-card` and the card in words, so that pages can be checked
for what they show.
"""

from collections.abc import Iterable
from functools import cache

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

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


# The loops below draw what every move's answer redraws: the hand, the seats and the trick.
# Rendered here rather than as template loops, they cost a tenth as much (a move's answer is
# mostly these), and the markup stays in one place each.


@register.simple_tag
def play_buttons(hand_cards: Iterable) -> SafeString:
    """Render the hand's cards as play buttons, one list item each."""
    return format_html_join(
        "", "<li>{}</li>", ((play_button(c.card, c.legal, c.reason_id),) for c in hand_cards)
    )


SEAT_BADGES = {"passing": "choosing", "moon": "shot the moon", "playing": "to play"}
YOU_TAG = mark_safe(' <span class="you-tag">(you)</span>')
PASSED_BADGE = mark_safe('<span class="badge">passed</span>')
EMPTY_TRICK = mark_safe('<li class="visually-hidden">No card played to this trick yet.</li>')


@register.simple_tag
def seat_item(place, phase: str | None) -> SafeString:
    """Render a seat at the table: name, total, and whether it is to act, has passed, or waits.

    `--cos` and `--sin` place it on the table's ellipse (see `presenters.table.Place`).
    """
    classes = "seat" + (" is-to-act" if place.to_act else "") + (" is-you" if place.is_you else "")
    you = YOU_TAG if place.is_you else ""
    if place.to_act:
        badge = format_html(
            '<strong class="badge badge-turn">{}</strong>', SEAT_BADGES.get(phase, "to play")
        )
    elif phase == "passing" and place.passed:
        badge = PASSED_BADGE
    else:
        badge = ""
    cards = ""
    if phase in ("passing", "playing"):
        plural = "" if place.cards_left == 1 else "s"
        cards = format_html('<span class="seat-cards">{} card{}</span>', place.cards_left, plural)
    return format_html(
        '<li class="{}" style="--cos: {}; --sin: {}">'
        '<span class="seat-name">{}{}</span> '
        '<span class="seat-total">{} <span class="seat-unit">pts</span></span> '
        '<span class="seat-note">{} {}</span></li>',
        classes, place.cos, place.sin, place.name, you, place.total, badge, cards,
    )  # fmt: skip


@register.simple_tag
def trick_cards(trick: Iterable) -> SafeString:
    """Render the cards on the table, each placed in front of the seat that played it."""
    items = format_html_join(
        "",
        '<li class="trick-card" style="--cos: {}; --sin: {}">{}'
        '<span class="visually-hidden"> played by {}</span></li>',
        ((p.place.cos, p.place.sin, card_face(p.card), p.place.who) for p in trick),
    )
    return items or EMPTY_TRICK


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
