"""Cards, suits and passing directions in the reader's language.

The engine speaks English and knows nothing of Django (`Card.words`, `SUIT_NAMES`): the pages
translate from its ranks, suits and direction codes here, in the language active when asked.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, pgettext

from games import engine
from games.engine.cards import SUIT_NAMES

_SUITS = {
    "C": lambda: pgettext("suit", "clubs"),
    "D": lambda: pgettext("suit", "diamonds"),
    "H": lambda: pgettext("suit", "hearts"),
    "S": lambda: pgettext("suit", "spades"),
}

# "Queen of spades": the rank and the suit in one string each, so that a language may put the
# words in its own order and agree them (Sundanese and Indonesian put the rank first too).
_CARDS = {
    "2": lambda suit: pgettext("card", "Two of %(suit)s") % {"suit": suit},
    "3": lambda suit: pgettext("card", "Three of %(suit)s") % {"suit": suit},
    "4": lambda suit: pgettext("card", "Four of %(suit)s") % {"suit": suit},
    "5": lambda suit: pgettext("card", "Five of %(suit)s") % {"suit": suit},
    "6": lambda suit: pgettext("card", "Six of %(suit)s") % {"suit": suit},
    "7": lambda suit: pgettext("card", "Seven of %(suit)s") % {"suit": suit},
    "8": lambda suit: pgettext("card", "Eight of %(suit)s") % {"suit": suit},
    "9": lambda suit: pgettext("card", "Nine of %(suit)s") % {"suit": suit},
    "T": lambda suit: pgettext("card", "Ten of %(suit)s") % {"suit": suit},
    "J": lambda suit: pgettext("card", "Jack of %(suit)s") % {"suit": suit},
    "Q": lambda suit: pgettext("card", "Queen of %(suit)s") % {"suit": suit},
    "K": lambda suit: pgettext("card", "King of %(suit)s") % {"suit": suit},
    "A": lambda suit: pgettext("card", "Ace of %(suit)s") % {"suit": suit},
}

_DIRECTIONS = {
    "left": lambda: pgettext("pass direction", "left"),
    "right": lambda: pgettext("pass direction", "right"),
    "across": lambda: pgettext("pass direction", "across"),
    "none": lambda: pgettext("pass direction", "none"),
}

# The engine's reasons are English; the rule and what the message names (a suit, a card) are
# read back from it here and said in the reader's language.
FOLLOW = re.compile(r"You must follow (?P<suit>\w+)")
OPENING = re.compile(r"The (?P<card>\S+) must lead the first trick")

_PASS_WORDS = {
    "left": lambda: gettext("to the left"),
    "right": lambda: gettext("to the right"),
    "across": lambda: gettext("across the table"),
}


def suit_words(suit: str) -> str:
    """Return a suit ("C", or its English name "clubs") in words, like "clubs"."""
    code = next((c for c, name in SUIT_NAMES.items() if name == suit), suit)
    return _SUITS[code]() if code in _SUITS else suit


def card_words(card: engine.Card) -> str:
    """Return a card in words, like "Queen of spades" (`Card.words`, translated)."""
    return _CARDS[card.rank](suit_words(card.suit))


def direction_words(direction: str) -> str:
    """Return a passing direction code ("left", "across", ...) as a word, like "left"."""
    return _DIRECTIONS[direction]() if direction in _DIRECTIONS else direction


def pass_words(direction: str) -> str:
    """Return where cards are passed, like "to the left" or "across the table"."""
    return _PASS_WORDS[direction]() if direction in _PASS_WORDS else direction


def reason_words(reason: str | None, rule: str | None) -> str:
    """Return why a card cannot be played, from the engine's reason and rule, translated."""
    if rule == "R3.2" and reason and (found := FOLLOW.fullmatch(reason)):
        return gettext("You must follow %(suit)s") % {"suit": suit_words(found["suit"])}
    if rule == "R3.3":
        return gettext("No points on the first trick: play a card that is not a heart or the Q♠")
    if rule == "R3.1" and reason and (found := OPENING.fullmatch(reason)):
        return gettext("The %(card)s must lead the first trick") % {"card": found["card"]}
    if rule == "R3.5":
        return gettext("Hearts are not broken yet")
    return reason or gettext("You cannot play this card now.")
