"""Players and their profiles."""

from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.lib import names
from games.lib.languages import language_choices
from games.lib.zones import DEFAULT_ZONE, validate_zone


class Profile(models.Model):
    """What a player shows of themselves at the table."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    # Set only through `games.accounts.names`, which also keeps names apart from each other's.
    display_name = models.CharField(
        max_length=names.MAX_LENGTH,
        validators=[names.validate_display_name],
        verbose_name=_("display name"),
        help_text=_("The name other players see at the table."),
    )

    # Each player's own choice for their seats; a match's `auto_play_forced` can still turn it
    # off for everyone at that table (staff, in the admin).
    auto_play_forced = models.BooleanField(
        _("play my forced card for me"),
        default=True,
        help_text=_("When only one card in your hand may be played, play it for you at once."),
    )

    # The language of the player's pages and e-mails (games/lib/languages.py); empty: as the
    # browser asks.
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        default="",
        choices=language_choices,
        help_text=_("The language of the site and of your e-mails."),
    )

    # The zone the player reads times in (games/lib/zones.py): an IANA name; stored times are UTC.
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=DEFAULT_ZONE,
        validators=[validate_zone],
        help_text=_("Every time the site shows you, on pages and in e-mails, is in this zone."),
    )

    # How cards are drawn for this player (a class on the page's body, see site.css).
    four_colour_deck = models.BooleanField(
        _("four-colour deck"),
        default=False,
        help_text=_("Clubs green and diamonds blue, so that no two suits share a colour."),
    )
    large_cards = models.BooleanField(
        _("large cards"),
        default=False,
        help_text=_("Bigger cards in your hand and on the table."),
    )

    # Vacation (games/services/vacations.py): the whole days left to take, when they were last
    # counted up, and the time away taken now, if any.
    vacation_days = models.PositiveSmallIntegerField(default=7)
    vacation_counted_at = models.DateTimeField(null=True, blank=True)
    away_since = models.DateTimeField(null=True, blank=True)
    away_until = models.DateTimeField(null=True, blank=True)

    # Set when the player deleted their account (games/accounts/deletion.py): the row stays,
    # emptied, so that the matches, results and ratings of others stay whole.
    deleted_at = models.DateTimeField(
        _("account deleted"),
        null=True,
        blank=True,
        help_text=_("When the player deleted their account; their name shows as a former player."),
    )

    class Meta:
        indexes = [
            # The sweep's "whose vacation has ended": only players away.
            models.Index(
                fields=["away_until"],
                name="profile_away_until",
                condition=models.Q(away_until__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return self.display_name


# What a deleted account shows wherever its name appeared: one name for all of them.
FORMER_PLAYER = _("a former player")


def is_former_player(user: User) -> bool:
    """Say whether the user deleted their account."""
    try:
        return user.profile.deleted_at is not None
    except Profile.DoesNotExist:
        return False


def display_name_of(user: User) -> str:
    """Return the name a user shows at the table, falling back to the username.

    The one place a name is decided: a deleted account shows "a former player".
    """
    try:
        profile = user.profile
    except Profile.DoesNotExist:
        return user.get_username()
    if profile.deleted_at is not None:
        return str(FORMER_PLAYER)
    return profile.display_name or user.get_username()


def wants_forced_play(user: User) -> bool:
    """Say whether the player wants their only legal card played for them (on unless said)."""
    try:
        return user.profile.auto_play_forced
    except Profile.DoesNotExist:
        return True


def away_until(user: User) -> datetime | None:
    """Return when the player's vacation ends, or None if they are not away."""
    try:
        return user.profile.away_until
    except Profile.DoesNotExist:
        return None
