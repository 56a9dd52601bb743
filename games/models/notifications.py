"""What a player wants to hear by e-mail, and when the site last saw them."""

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.utils.translation import gettext_lazy as _


class NotificationSettings(models.Model):
    """A player's e-mail opt-ins (both off until they choose), with the times that pace them."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    turn_emails = models.BooleanField(
        default=False,
        verbose_name=_("E-mail me when it is my turn and I have been away"),
        help_text=_("One e-mail, then none until you are back on the site."),
    )
    daily_digest = models.BooleanField(
        default=False,
        verbose_name=_("Send me a daily digest of the matches waiting for me"),
        help_text=_("At most one a day, and only when a match waits for you."),
    )
    deadline_reminders = models.BooleanField(
        default=False,
        verbose_name=_("E-mail me when a deadline of mine is near"),
        help_text=_(
            "Once per decision, when a fifth of the time for it is left, in matches that give "
            "each decision 5 hours or more; several at once come in one e-mail."
        ),
    )
    challenge_emails = models.BooleanField(
        default=False,
        verbose_name=_("E-mail me when someone challenges me"),
        help_text=_("One e-mail for each challenge, naming who sent it."),
    )
    # Written at most about once a minute by the last-seen middleware.
    last_seen = models.DateTimeField(null=True, blank=True)
    last_turn_email_at = models.DateTimeField(null=True, blank=True)
    last_digest_at = models.DateTimeField(null=True, blank=True)
    last_reminder_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "notification settings"
        verbose_name_plural = "notification settings"

    def __str__(self) -> str:
        return f"Notifications for {self.user}"

    @property
    def any_email(self) -> bool:
        return (
            self.turn_emails
            or self.daily_digest
            or self.deadline_reminders
            or self.challenge_emails
        )


# Every e-mail a player can choose, turned off: unsubscribing, or an address removed.
EMAILS_OFF = {
    "turn_emails": False,
    "daily_digest": False,
    "deadline_reminders": False,
    "challenge_emails": False,
}


def notification_settings_for(user: User) -> NotificationSettings:
    """Return the user's settings, creating them (all off) if the user has none yet."""
    found, _ = NotificationSettings.objects.get_or_create(user=user)
    return found
