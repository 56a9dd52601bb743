"""Display names: one normal form and one set of rules, wherever a name is set or shown.

A name appears in other players' pages and plain-text e-mails, so it must stay one line of
visible text: no control or format characters (categories Cc, Cf) and no line or paragraph
separators (Zl, Zp). It is stored in Unicode's compatibility form (NFKC), so that "Ａｌｉｃｅ"
in fullwidth letters is "Alice" and two names that look the same compare the same. And it
must not pass for a bot: the bots' names and the "Bot N" that an unnamed bot seat shows are
theirs alone.

Pure functions of the text; `games.accounts.names` adds the check against other players.
"""

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

MAX_LENGTH = 30
# The names bots take at the table, by seat (games/services/lobby.py).
BOT_NAMES = ("Ada", "Basil", "Cleo", "Dmitri", "Edith", "Felix", "Greta", "Hugo", "Iris", "Jonas")
# What a bot seat without a name shows (`Seat.name`): "Bot 1", "Bot 2", ...
_BOT_FALLBACK = re.compile(r"bot\s*\d+", re.IGNORECASE)
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
_SPACES = re.compile(r" {2,}")

MESSAGES = {
    "empty": _("Choose a display name."),
    "hidden": _("A display name cannot contain line breaks, tabs or other invisible characters."),
    "too_long": _("A display name has at most %(limit)d characters (this one has %(length)d)."),
    "bot": _("That name is a bot's; choose another."),
    "not_normal": _("Display names are stored trimmed and in Unicode normal form (NFKC)."),
}


def normalise(name: str) -> str:
    """Return the name in NFKC, trimmed, with runs of spaces made one."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name).strip())


def has_hidden_characters(name: str) -> bool:
    """Say whether the name holds a control, format or line/paragraph separator character."""
    return any(unicodedata.category(char) in _HIDDEN_CATEGORIES for char in name)


def without_hidden_characters(name: str) -> str:
    """Return the name with every such character made a space (for names stored before)."""
    return "".join(
        " " if unicodedata.category(char) in _HIDDEN_CATEGORIES else char for char in name
    )


def is_bot_name(name: str) -> bool:
    """Say whether a person taking this name would pass for a bot."""
    folded = normalise(name).casefold()
    return folded in {bot.casefold() for bot in BOT_NAMES} or bool(_BOT_FALLBACK.fullmatch(folded))


def validate_display_name(value: str) -> None:
    """Refuse a stored name that breaks the rules (the model field's validator)."""
    if has_hidden_characters(value):
        raise ValidationError(MESSAGES["hidden"], code="hidden")
    if value != normalise(value):
        raise ValidationError(MESSAGES["not_normal"], code="not_normal")
    if not value:
        raise ValidationError(MESSAGES["empty"], code="empty")
    if len(value) > MAX_LENGTH:
        raise ValidationError(
            MESSAGES["too_long"],
            code="too_long",
            params={"limit": MAX_LENGTH, "length": len(value)},
        )
    if is_bot_name(value):
        raise ValidationError(MESSAGES["bot"], code="bot")


def one_line(text: object) -> str:
    """Return text that cannot start a new line in a plain-text e-mail, whatever was stored.

    Names are checked when set; this is for the e-mails, in case a stored one predates that.
    `str.split` breaks at every line boundary Python knows, and at any other space.
    """
    return " ".join(without_hidden_characters(str(text)).split())
