"""Keep a profile and notification settings beside every user, however the user was created
(sign-up, admin, shell)."""

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.accounts.names import available_name
from games.models import NotificationSettings, Profile


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender: type[User], instance: User, created: bool, **kwargs: object) -> None:
    """Give a new user a profile whose display name starts as their username, e-mails off."""
    if created:
        # A username may break a display name's rules (too long, a bot's) or be another's name.
        name = available_name(instance.get_username(), instance.pk)
        Profile.objects.get_or_create(user=instance, defaults={"display_name": name})
        # The last-seen middleware only updates this row: it must exist from the start.
        NotificationSettings.objects.get_or_create(user=instance)
