"""Choosing a display name: the rules of `games.lib.names`, and no other player's name."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games.lib import names
from games.models import FORMER_PLAYER, Profile

TAKEN = _("Another player already uses this name.")


def former_player_names() -> set[str]:
    """Return the name deleted accounts show, in every language of the site, folded."""
    shown = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            shown.add(str(FORMER_PLAYER).casefold())
    return shown


def is_taken(name: str, user_pk: int | None = None) -> bool:
    """Say whether another player shows this name, capitals aside.

    A player with no display name shows their username, so usernames count too; and every
    deleted account shows "a former player", which nobody may pass for.
    """
    if name.casefold() in former_player_names():
        return True
    profiles = Profile.objects.filter(display_name__iexact=name)
    users = get_user_model().objects.filter(username__iexact=name)
    if user_pk is not None:
        profiles = profiles.exclude(user_id=user_pk)
        users = users.exclude(pk=user_pk)
    return profiles.exists() or users.exists()


def clean_display_name(value: str, user_pk: int | None = None) -> str:
    """Return the name as it will be stored, or raise `ValidationError` saying what is wrong.

    The one check every form that sets a name runs (sign-up, profile, admin).
    """
    if names.has_hidden_characters(value):
        # Refused, not cleaned: the player should see exactly the name others will see.
        raise ValidationError(names.MESSAGES["hidden"], code="hidden")
    name = names.normalise(value)
    names.validate_display_name(name)
    if is_taken(name, user_pk):
        raise ValidationError(TAKEN, code="taken")
    return name


def available_name(wanted: str, user_pk: int | None = None) -> str:
    """Return a valid name close to `wanted` that nobody else shows, adding a number if needed.

    For names nobody typed into a form: a new account's username, the demo accounts.
    """
    base = names.normalise(names.without_hidden_characters(wanted))[: names.MAX_LENGTH]
    base = base.strip() or "Player"
    candidate, number = base, 1
    while True:
        try:
            names.validate_display_name(candidate)
        except ValidationError:
            pass
        else:
            if not is_taken(candidate, user_pk):
                return candidate
        number += 1
        suffix = f" {number}"
        candidate = base[: names.MAX_LENGTH - len(suffix)].rstrip() + suffix
