"""Tournaments run by staff: entrants, rounds, and tables whose matches are ordinary matches.

A table's match carries its players in the match's own seats; `TableSeat` keeps which entry
sits where, and the total it finished with once the round is closed. The services in
`games/services/tournaments.py` are the only code that changes a tournament's state.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.models.matches import (
    BonusCard,
    Match,
    MoonOption,
    Variant,
)
from games.models.profiles import display_name_of
from games.models.time_control import TimeControl


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    REGISTRATION = "registration", _("Registration")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Tournament(TimeControl):
    """A tournament: who plays, how tables are formed, and how long each round's matches last."""

    name = models.CharField(max_length=100)
    slug = models.SlugField(
        max_length=100, unique=True, help_text=_("The tournament's web address.")
    )
    description = models.TextField(blank=True)
    status = models.CharField(
        max_length=12,
        choices=TournamentStatus.choices,
        default=TournamentStatus.DRAFT,
        db_index=True,
        editable=False,
    )
    registration_open = models.BooleanField(
        default=False,
        editable=False,
        help_text=_("Players may register and withdraw on the site while this is on."),
    )
    variant = models.CharField(
        "game",
        max_length=12,
        choices=Variant.choices,
        default=Variant.STANDARD,
        help_text=_("Standard and Omnibus Hearts seat 3 to 7 at a table; Cancellation 5 to 10."),
    )
    bonus_card = models.CharField(
        max_length=2,
        choices=BonusCard.choices,
        default=BonusCard.JD,
        help_text=_("Omnibus Hearts only: the card worth −10 to whoever takes it."),
    )
    table_size = models.PositiveSmallIntegerField(
        default=4,
        validators=[MinValueValidator(3), MaxValueValidator(10)],
        help_text=_(
            "Preferred players per table (3 to 7; 5 to 10 in Cancellation Hearts); tables are "
            "split as evenly as possible."
        ),
    )
    round_count = models.PositiveSmallIntegerField(
        "number of rounds", default=3, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    target = models.PositiveSmallIntegerField(
        default=100,
        validators=[MinValueValidator(25), MaxValueValidator(500)],
        help_text=_("Each match ends when a total reaches this score (unless hands is set)."),
    )
    hands = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(50)],
        help_text=_("Or play exactly this many hands per match (1 to 50); 0 plays to the target."),
    )
    moon = models.CharField(max_length=8, choices=MoonOption.choices, default=MoonOption.ASK)
    duplicate_deals = models.BooleanField(
        default=True,
        help_text=_("Every table of the same size in a round plays the same deals, seat for seat."),
    )
    # The time control of every table's match (games/services/clocks.py), as in the lobby,
    # comes from `TimeControl`; only vacations differ: off unless staff allow them.
    allow_vacation = models.BooleanField(
        default=False,
        help_text=_(
            "Players may pause their clocks in this tournament's matches while on vacation."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True, editable=False)
    finished_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.slug])

    @property
    def length_words(self) -> str:
        """Say how long each match lasts."""
        if self.hands:
            return ngettext("%(count)d hand per match", "%(count)d hands per match", self.hands) % {
                "count": self.hands
            }
        return gettext("matches to %(target)s points") % {"target": self.target}


class Entry(models.Model):
    """A player entered in a tournament; a withdrawn entry is seated no more."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    withdrawn = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["tournament", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_user")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return display_name_of(self.user)


class RoundStatus(models.TextChoices):
    SEATED = "seated", _("Seated")
    RUNNING = "running", _("Running")
    CLOSED = "closed", _("Closed")


class Round(models.Model):
    """One round: its tables are seated, then their matches started, then the round is closed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=RoundStatus.choices, default=RoundStatus.SEATED)
    # How the round's entrants were seated. (Rounds started before shuffle secrets also dealt
    # their tables' matches from it; now each table's match has a secret of its own or its
    # deal group's: `games/services/shuffles.py`.)
    seed = models.BigIntegerField()
    seated_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Set by staff: when it passes, bots make every decision still owed at the round's tables,
    # and the round closes (games/services/tournaments/round_deadlines.py).
    deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When it passes, bots finish every match still in play and the round closes."),
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]
        indexes = [
            # The sweep's "which running rounds are past their deadline": few rows at any time.
            models.Index(
                fields=["deadline"],
                name="round_running_deadline",
                condition=models.Q(status="running", deadline__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.tournament}"


class Table(models.Model):
    """A table of a round; its match exists once the round has started."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(
        Match,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_table",
    )
    # Tables with the same group played the same deals seat for seat; empty without duplicates.
    deal_group = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")
        ]

    def __str__(self) -> str:
        return f"Table {self.number}, round {self.round.number} of {self.round.tournament}"


class TableSeat(models.Model):
    """Which entry sits at which position of a table, and its final total once closed."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="table_seats")
    total = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_entry_per_position"),
            models.UniqueConstraint(fields=["table", "entry"], name="one_position_per_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} at seat {self.position} of {self.table}"
