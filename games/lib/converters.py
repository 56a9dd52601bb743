"""Path converters that match only values the database can hold.

Django's `int` converter matches any run of digits, and `str` any text; a match id past the
64-bit columns' range then reached the database (OverflowError on SQLite: a server error),
as did invite codes with characters no code has (PostgreSQL refuses NUL in text). These
match only what such a value can be, so anything else is a plain 404 from the URL resolver.
"""

from django.urls import register_converter

# The largest value of a 64-bit signed column: BigAutoField's ids on SQLite and PostgreSQL.
MAX_ID = 2**63 - 1


class IdConverter:
    """A database id: at most 19 digits, and no more than `MAX_ID`."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError("beyond a 64-bit id")  # the resolver answers 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class UrlSafeConverter:
    """URL-safe base64 text of at most 64 characters.

    Invite codes (`secrets.token_urlsafe`), and a password reset link's user id and token.
    """

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class TokenConverter:
    """A signed token (`django.core.signing`): URL-safe base64 parts joined by colons."""

    regex = "[A-Za-z0-9_:.-]{1,512}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class PlayerNameConverter:
    """A player's name as their page's address holds it: a display name (1 to 30 characters,
    slashes allowed) or, for a player without one, a username (up to 150). No name holds a
    control character, and PostgreSQL refuses NUL in text: such a path is a 404 here."""

    regex = "[^\\x00-\\x1f\\x7f]{1,150}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def register() -> None:
    """Register the converters under the names the URL patterns use (once: at start-up)."""
    register_converter(IdConverter, "id")
    register_converter(UrlSafeConverter, "urlsafe")
    register_converter(TokenConverter, "token")
    register_converter(PlayerNameConverter, "player_name")
