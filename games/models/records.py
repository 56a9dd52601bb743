"""What the site remembers of finished matches: ratings, statistics and each player's results.

Written once per finished match, in the transaction that ends it (`games/services/records.py`),
and never recomputed for a page: a player page reads a handful of these rows whatever the
number of matches behind them. `manage.py rebuild_stats` rewrites them all from the matches.

A competitor is a person, or one bot level: every bot of a level shares one rating, so that
people can see how strong each level is.
"""

from django.conf import settings
from django.db import models

from games.models.matches import BotLevel, Match

# openskill's Plackett-Luce defaults (mu 25, sigma 25/3): where every competitor starts.
START_MU = 25.0
START_SIGMA = 25.0 / 3.0


class Competitor(models.Model):
    """A person, or a bot level, with a rating and a count of the rated matches behind it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="competitor",
    )
    bot_level = models.CharField(max_length=6, choices=BotLevel.choices, blank=True)
    mu = models.FloatField(default=START_MU)
    sigma = models.FloatField(default=START_SIGMA)
    # The rating shown: conservative (see `games/services/rating_math.py: display_rating`).
    rating = models.IntegerField(default=0)
    rated_matches = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["bot_level"],
                condition=~models.Q(bot_level=""),
                name="one_competitor_per_bot_level",
            ),
            models.CheckConstraint(
                condition=(models.Q(user__isnull=True) & ~models.Q(bot_level=""))
                | (models.Q(user__isnull=False) & models.Q(bot_level="")),
                name="competitor_is_a_person_or_a_bot_level",
            ),
        ]
        indexes = [
            # The leaderboard: the highest ratings among those with enough rated matches.
            models.Index(fields=["-rating", "id"], name="competitor_rating"),
        ]

    def __str__(self) -> str:
        return f"{self.bot_level} bots" if self.bot_level else f"player {self.user_id}"


class TableSizeStats(models.Model):
    """A competitor's figures at one table size (3 to 7 players), added to as matches end."""

    competitor = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="stats")
    players = models.PositiveSmallIntegerField()
    matches = models.PositiveIntegerField(default=0)
    rated_matches = models.PositiveIntegerField(default=0)
    # Matches finished first, co-winners included.
    wins = models.PositiveIntegerField(default=0)
    # How many times the competitor finished 1st, 2nd …: one count per place, first first.
    places = models.JSONField(default=list)
    hands = models.PositiveIntegerField(default=0)
    # The sum of what each hand added to the total (the moon included): points per hand is
    # points / hands.
    points = models.IntegerField(default=0)
    moons_shot = models.PositiveIntegerField(default=0)
    moons_suffered = models.PositiveIntegerField(default=0)
    queens = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["competitor", "players"]
        constraints = [
            models.UniqueConstraint(
                fields=["competitor", "players"], name="one_stats_row_per_table_size"
            )
        ]
        indexes = [
            # The leaderboard filtered by table size.
            models.Index(fields=["players", "rated_matches"], name="stats_size_rated"),
        ]

    def __str__(self) -> str:
        return f"{self.competitor} at {self.players} players"


class MatchResult(models.Model):
    """How one competitor did in one finished match, and its rating after it if rated.

    A bot level that held several seats of a match has one row: its best place.
    """

    competitor = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="results")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="results")
    players = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    total = models.IntegerField()
    # The person left the match for good, a bot finishing it for them: placed after everyone
    # who stayed (games/services/results.py).
    left = models.BooleanField(default=False)
    ended_at = models.DateTimeField()
    # After a rated match: the rating, and how many rated matches the competitor had then
    # (the chart picks every k-th by it, so it reads a bounded number of rows).
    rating = models.IntegerField(null=True, blank=True)
    mu = models.FloatField(null=True, blank=True)
    sigma = models.FloatField(null=True, blank=True)
    rated_no = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["competitor", "match"], name="one_result_per_match")
        ]
        indexes = [
            models.Index(fields=["competitor", "-ended_at", "-id"], name="result_recent"),
            models.Index(
                fields=["competitor", "rated_no"],
                name="result_rated_no",
                condition=models.Q(rated_no__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competitor} placed {self.place} in match {self.match_id}"
