"""Challenges: a private open match whose seats were kept for people named by its creator.

The match itself is an ordinary open private match (games/services/lobby.py seats it); a
`Challenge` says what happens to a kept seat nobody takes, and each `ChallengeSeat` is one named
person's invitation and their answer (games/services/challenges.py changes them).
"""

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.matches import Match, MatchStatus


class Unanswered(models.TextChoices):
    """What a kept seat becomes when its person declines or never answers."""

    BOT = "bot", _("A bot takes the seat")
    OPEN = "open", _("The seat stays open")


class Answer(models.TextChoices):
    PENDING = "pending", _("Waiting for an answer")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    EXPIRED = "expired", _("Did not answer in time")
    CANCELLED = "cancelled", _("Withdrawn")


class Challenge(models.Model):
    """The seats of one match kept for named people, until they answer or it expires."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="challenge")
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    unanswered = models.CharField(max_length=4, choices=Unanswered.choices)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Challenge of match {self.match_id}"

    @classmethod
    def waiting_for(cls, user_id: int, now: datetime) -> "models.QuerySet[Challenge]":
        """The challenges a person may still answer: their seat is kept, the match has not
        started or been called off, and the time to answer has not run out (even if the sweep
        has not yet closed it). The Challenges page, *Your turn* and the navigation's count."""
        return cls.objects.filter(
            seats__invitee_id=user_id,
            seats__answer=Answer.PENDING,
            match__status=MatchStatus.OPEN,
            expires_at__gt=now,
        )


class ChallengeSeat(models.Model):
    """One named person's invitation to a kept seat, and their answer."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="seats")
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    # The seat kept for them: nobody else takes it while the answer is pending.
    position = models.PositiveSmallIntegerField()
    answer = models.CharField(max_length=9, choices=Answer.choices, default=Answer.PENDING)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["challenge", "position"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "invitee"], name="challenge_once"),
            models.UniqueConstraint(fields=["challenge", "position"], name="challenge_seat_once"),
        ]
        indexes = [
            # "Which challenges wait for my answer": the Your turn page and the Challenges page.
            models.Index(fields=["invitee", "answer"], name="challenge_invitee_answer"),
        ]

    def __str__(self) -> str:
        return f"{self.invitee_id} at seat {self.position} ({self.answer})"

    @classmethod
    def kept_at(cls, match_id: int) -> "models.QuerySet[ChallengeSeat]":
        """The invitations of a match still waiting for an answer: the seats kept for them."""
        return cls.objects.filter(challenge__match_id=match_id, answer=Answer.PENDING)

    @property
    def is_pending(self) -> bool:
        return self.answer == Answer.PENDING
