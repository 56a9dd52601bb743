"""The table chat's preset phrases: a key each, stored with the message, and its words, said
in each reader's language (so a phrase sent in Sundanese reads in English to an English
reader)."""

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# In the order the chat offers them.
PRESETS: dict[str, Promise] = {
    "good_luck": _("Good luck!"),
    "have_fun": _("Have fun!"),
    "well_played": _("Well played!"),
    "nice_pass": _("Nice pass!"),
    "thanks": _("Thanks!"),
    "sorry": _("Sorry!"),
    "oops": _("Oops!"),
    "one_moment": _("One moment, please."),
    "back": _("I am back."),
    "good_game": _("Good game!"),
    "rematch": _("Another match?"),
    "bye": _("Bye!"),
}


def preset_words(key: str) -> str:
    """Return a phrase's words in the active language (a key no longer offered: empty)."""
    words = PRESETS.get(key)
    return str(words) if words is not None else ""
