"""Table chat: the messages of a match's two rooms, and whom each person has muted
(games/services/chat.py writes them and says who may read and write what)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# The longest free text a message may hold, in characters (the form's maxlength says it too).
CHAT_TEXT_MAX = 300


class Room(models.TextChoices):
    """A match's two chats: its players', and its spectators' (hidden from players in play)."""

    PLAYERS = "players", _("Players")
    SPECTATORS = "spectators", _("Spectators")


class ChatMessage(models.Model):
    """One message: a preset phrase (its key, shown in each reader's language) or free text."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    room = models.CharField(max_length=10, choices=Room.choices)
    # The key of a phrase of games/lib/chat_presets.py, stored rather than its words, so
    # each reader sees it in their own language; empty for free text.
    preset = models.CharField(max_length=20, blank=True, default="")
    text = models.CharField(max_length=CHAT_TEXT_MAX, blank=True, default="")
    created_at = models.DateTimeField()
    # Staff hid it (moderation): kept for the record, shown to nobody.
    hidden_by_staff = models.BooleanField(default=False)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            # A phrase or words, never both and never neither.
            models.CheckConstraint(
                condition=(models.Q(preset="") & ~models.Q(text=""))
                | (~models.Q(preset="") & models.Q(text="")),
                name="chat_preset_or_text",
            ),
        ]
        indexes = [
            # "The last messages of this room": one range of the index, newest first.
            models.Index(fields=["match", "room", "created_at"], name="chat_room_time"),
        ]

    def __str__(self) -> str:
        return f"Message {self.pk} by {self.author_id} in match {self.match_id} ({self.room})"


class Mute(models.Model):
    """One person no longer reading another's messages, in every match; seen by the muter only."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes"
    )
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="mute_once"),
            models.CheckConstraint(
                condition=~models.Q(user=models.F("muted")), name="mute_not_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class ReportOutcome(models.TextChoices):
    """What staff decided about a reported message; the reporter is told."""

    OPEN = "", _("Not yet read")
    HIDDEN = "hidden", _("Hidden from everyone")
    KEPT = "kept", _("Left as it is")


class ChatReport(models.Model):
    """A reader telling staff about a message; staff read it with the messages around it,
    then close it: the message hidden, or left as it is."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    created_at = models.DateTimeField()
    outcome = models.CharField(
        max_length=6, choices=ReportOutcome.choices, default=ReportOutcome.OPEN, blank=True
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")
        ]

    def __str__(self) -> str:
        return f"Report of message {self.message_id} by {self.reporter_id}"


class ChatBan(models.Model):
    """Chat taken away from an account by staff until a time: it reads, but writes nothing."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_bans"
    )
    until = models.DateTimeField(help_text=_("The account may chat again from this time."))
    reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-until"]
        indexes = [models.Index(fields=["user", "until"], name="chat_ban_user_until")]

    def __str__(self) -> str:
        return f"No chat for {self.user_id} until {self.until}"
