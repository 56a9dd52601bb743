"""The time control a match is played under, and a tournament starts its tables' matches with.

One abstract model, so that `Match` and `Tournament` declare the clock's fields once; the
clocks themselves run in `games/services/clocks.py`. A tournament overrides what it chooses
differently (vacations are off unless staff allow them).
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

MIN_DECISION_SECONDS = 60
MAX_DECISION_SECONDS = 14 * 86400
MAX_BANK_SECONDS = 30 * 86400


class TimeControl(models.Model):
    """Seconds allowed for each decision (None: untimed), each seat's bank of extra time, which
    unused time tops up, and how many timeouts in a row hand a seat to a bot for good."""

    decision_seconds = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[
            MinValueValidator(MIN_DECISION_SECONDS),
            MaxValueValidator(MAX_DECISION_SECONDS),
        ],
        help_text=_("Seconds allowed for each decision (1 minute to 14 days); empty: untimed."),
    )
    bank_seconds = models.PositiveIntegerField(
        default=0,
        validators=[MaxValueValidator(MAX_BANK_SECONDS)],
        help_text=_("Each seat's bank of extra time, in seconds, and the most it may hold."),
    )
    timeouts_to_leave = models.PositiveSmallIntegerField(
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(10)],
        help_text=_(
            "Timeouts in a row after which a bot plays the seat for the rest of the match."
        ),
    )
    # Whether a player on vacation (games/services/vacations.py) stops their clock here.
    allow_vacation = models.BooleanField(
        default=True, help_text=_("A player on vacation has their clock stopped in this match.")
    )

    class Meta:
        abstract = True

    @property
    def is_timed(self) -> bool:
        return self.decision_seconds is not None
