"""Cards drawn from their template once per process, then reused.

A card's markup (`games/_card.html`) depends on the card and its extra class alone, and a page
draws dozens of cards: through `{% include %}` each costs the template engine about 20 µs,
most of a region's time. Drawn once and kept here, the markup still lives in the template.
The rendered cards are few (52 cards, two parts, a couple of classes, three languages).
"""

from functools import cache

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games import engine

register = template.Library()


@cache
def _drawn(part: str, card: engine.Card, extra: str, language: str | None) -> SafeString:
    # The card's words are in the active language: each language draws and keeps its own.
    return SafeString(render_to_string(f"games/_card.html#{part}", {"card": card, "extra": extra}))


@register.simple_tag
def card_face(card: engine.Card, extra: str = "") -> SafeString:
    """Render a card face (`games/_card.html#face`), with an extra class if given."""
    return _drawn("face", card, extra, get_language())


@register.simple_tag
def card_inner(card: engine.Card) -> SafeString:
    """Render what goes inside a card-shaped button or label (`games/_card.html#inner`)."""
    return _drawn("inner", card, "", get_language())
