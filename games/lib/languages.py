"""The site's languages, and the one to write to a player in.

Shared by the models (`Profile.language`'s choices), the e-mails and the pages; the requests'
side (the middleware, remembering a player's choice) is `games/languages.py`.
"""

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import translation


def language_choices() -> list[tuple[str, str]]:
    """Return the site's languages, each named in itself (as the switcher shows them)."""
    return [
        (code, translation.get_language_info(code)["name_local"]) for code, _ in settings.LANGUAGES
    ]


def supported(code: str | None) -> str | None:
    """Return the site's language for this code, or None if the site has none for it."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def language_of(user: User) -> str:
    """Return the language to write to this user in: their choice, else the site's default."""
    try:
        chosen = user.profile.language
    except AttributeError:  # no profile (Django's RelatedObjectDoesNotExist is one), or no user
        chosen = ""
    return supported(chosen) or settings.LANGUAGE_CODE
