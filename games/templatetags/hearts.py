"""Card faces and small number filters for the match templates.

Every card rendering carries `data-card` and the card in words, so that pages can be checked
for what they show.
"""

from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import cache
from html import escape

from django import template
from django.template import defaulttags
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timesince import timesince

from games import engine

from .names import bot_marker

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
# Built here as plain strings rather than as template loops, they cost a tenth as much (a
# move's answer is mostly these). Text is escaped with `html.escape`, as Django escapes it;
# numbers and the fixed markup need none. What they return is made a `SafeString` directly:
# `mark_safe` first looks through its arguments for lazy text, a dozen times per answer.


@register.simple_tag
def play_buttons(hand_cards: Iterable) -> SafeString:
    """Render the hand's cards as play buttons, one list item each."""
    return SafeString(
        "".join(f"<li>{play_button(c.card, c.legal, c.reason_id)}</li>" for c in hand_cards)
    )


SEAT_BADGES = {"passing": "choosing", "moon": "shot the moon", "playing": "to play"}


@register.simple_tag
def seat_items(places: Iterable, phase: str | None) -> SafeString:
    """Render the seats around the table, in playing order from the viewer."""
    return SafeString("".join(seat_item(place, phase) for place in places))


def seat_item(place, phase: str | None) -> str:
    """Render a seat at the table: name, total, and whether it is to act, has passed, or waits.

    Its `data-spot` places it on the table's ellipse (see `presenters.table.Place.spot`).
    """
    classes = "seat" + (" is-to-act" if place.to_act else "") + (" is-you" if place.is_you else "")
    you = ' <span class="you-tag">(you)</span>' if place.is_you else ""
    if place.to_act:
        badge = f'<strong class="badge badge-turn">{SEAT_BADGES.get(phase, "to play")}</strong>'
    elif phase == "passing" and place.passed:
        badge = '<span class="badge">passed</span>'
    else:
        badge = ""
    cards = ""
    if phase in ("passing", "playing"):
        plural = "" if place.cards_left == 1 else "s"
        cards = f'<span class="seat-cards">{place.cards_left} card{plural}</span>'
    return (
        f'<li class="{classes}" data-spot="{place.spot}">'
        f'<span class="seat-name">{escape(place.name)}{bot_marker(place.is_bot)}{you}</span> '
        f'<span class="seat-total">{place.total} <span class="seat-unit">pts</span></span> '
        f'<span class="seat-note">{badge} {cards}</span></li>'
    )


@register.simple_tag
def trick_cards(trick: Iterable) -> SafeString:
    """Render the cards on the table, each placed in front of the seat that played it."""
    items = "".join(
        f'<li class="trick-card" data-spot="{p.place.spot}">'
        f"{card_face(p.card)}"
        f'<span class="visually-hidden"> played by {escape(p.place.who)}</span></li>'
        for p in trick
    )
    return SafeString(items or '<li class="visually-hidden">No card played to this trick yet.</li>')


@register.simple_tag
def trick_list(plays: Iterable) -> SafeString:
    """Render a completed trick as a list: each card, small, with who played it."""
    return SafeString(
        "".join(
            f"<li>{card_face(p.card, 'card-small')} "
            f'<span class="trick-player">{escape(p.place.who)}</span></li>'
            for p in plays
        )
    )


@register.simple_tag
def card_faces(cards: Iterable, extra: str = "") -> SafeString:
    """Render several cards side by side."""
    return SafeString("".join(card_face(card, extra) for card in cards))


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


@register.simple_tag(takes_context=True)
def form_csrf(context) -> str:
    """Render a form's CSRF field, except in a region that htmx swaps into a page.

    A form in such a region is only ever posted by htmx, which sends the page's own token in a
    header (`hx-headers` on `<body>`); a fresh masked token per region would cost every answer
    a random string and a new cookie for nothing. Full pages, the only ones a browser without
    JavaScript posts from, always carry the field.
    """
    if context.get("fragment"):
        return ""
    return CSRF_NODE.render(context)


CSRF_NODE = defaulttags.CsrfTokenNode()
