"""Matches, their seats and hands, the action log and the score sheet.

The action log plus each hand's deal is the truth; `Match.snapshot` is the engine state they
produce, kept for fast reads, and `Match.version` counts committed changes so that a player's
move can be checked against the table they saw.
"""

import secrets

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.engine import Decision, RuleSet
from games.models.profiles import display_name_of
from games.models.time_control import (  # noqa: F401  (the limits are imported from here too)
    MAX_BANK_SECONDS,
    MAX_DECISION_SECONDS,
    MIN_DECISION_SECONDS,
    TimeControl,
)


def new_invite_code() -> str:
    """Return an unguessable code for a private match's invite link."""
    return secrets.token_urlsafe(12)


class MatchStatus(models.TextChoices):
    OPEN = "open", _("Open")
    ACTIVE = "active", _("In play")
    FINISHED = "finished", _("Finished")
    ABANDONED = "abandoned", _("Abandoned")


class Variant(models.TextChoices):
    """The games a match may be (R5): the engine's `RuleSet.variant`."""

    STANDARD = "standard", _("Standard Hearts")
    OMNIBUS = "omnibus", _("Omnibus Hearts")
    CANCELLATION = "cancellation", _("Cancellation Hearts")


class BonusCard(models.TextChoices):
    """Omnibus Hearts' bonus card (R5.1): the engine's `RuleSet.bonus_card`."""

    JD = "JD", _("J♦, the jack of diamonds")
    TD = "TD", _("10♦, the ten of diamonds")


class MoonOption(models.TextChoices):
    ASK = "ask", _("Ask the shooter")
    # 26 points, or 52 in Cancellation Hearts (R5.2): the labels name the standard game's.
    SUBTRACT = "subtract", _("Always subtract 26 (52 with two decks) from the shooter")
    ADD = "add", _("Always add 26 (52 with two decks) to everyone else")


class Match(TimeControl):
    """A match of Hearts: its rules, its seats, and the engine state after the last move."""

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the finished match was added to statistics and ratings (games/services/records.py):
    # as it ended, or, for a table whose deals other tables shared, as its round closed.
    # `rebuild_stats` adds them up again in this order.
    recorded_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(
        max_length=10, choices=MatchStatus.choices, default=MatchStatus.OPEN, db_index=True
    )
    # The engine's rule set (players, target, moon option), stored so old matches replay
    # under the rules they began with.
    rules = models.JSONField()
    is_private = models.BooleanField(
        default=False, help_text=_("Private matches are not listed; join with the invite link.")
    )
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    auto_play_forced = models.BooleanField(
        default=True,
        help_text=_(
            "Let forced cards be played automatically at this table: each player chooses for "
            "themselves on their profile. Staff may turn it off for everyone here."
        ),
    )
    auto_finish = models.BooleanField(
        default=True, help_text=_("Play out the rest of a hand once no scoring card is left.")
    )
    version = models.PositiveIntegerField(default=0)
    snapshot = models.JSONField(null=True, blank=True)
    hand_no = models.PositiveSmallIntegerField(default=0)
    # The hand in play and the number the next decision logged in it gets: kept on the
    # match's row, which every move locks and writes anyway, so that a move reads and writes
    # no other row of the hand until the hand ends.
    current_hand = models.ForeignKey(
        "Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    next_seq = models.PositiveIntegerField(default=0)
    # Since when a bot that searches (level normal or strong) owes the next decision: it is
    # made in the background (games/services/bot_turns.py); a sweep moves any table left
    # waiting too long. None while a person, or nobody, is to act.
    bots_due_since = models.DateTimeField(null=True, blank=True)
    # The time control (decision_seconds, bank_seconds, timeouts_to_leave, allow_vacation)
    # comes from `TimeControl`.
    # When an open match that never filled was given up (games/services/stalled.py).
    expired_at = models.DateTimeField(null=True, blank=True)
    # Shuffles anyone can verify (`games/engine/records/shuffle.py`): each hand's deal comes
    # from the secret and the hand number; the commitment (SHA-256 of the secret) is shown from the
    # start, the secret only once no deal it gives is still in play, here or at a table
    # sharing its deals (`games.access.revealed_matches`). Both are empty for a match dealt
    # before secrets: its deals came from `seed`, never committed, so they cannot be verified.
    secret = models.CharField(max_length=64, blank=True, default="", editable=False)
    commitment = models.CharField(max_length=64, blank=True, default="", editable=False)
    # The seed of the match's bots: with a secret, a one-way function of it that gives no
    # deal (`shuffle.bot_seed`). Without one (a match dealt before secrets), also where each
    # hand's deal came from, with the hand number (`services.shuffles.hand_seed`).
    seed = models.BigIntegerField(default=0)
    # Explicit deals (the engine's JSON form) for the first hands; later hands use the secret
    # (or, before secrets, the seed). An explicit deal is no shuffle: it is not verifiable.
    deals = models.JSONField(default=list, blank=True)
    # Whether the match moves its players' ratings when it ends (games/services/records.py);
    # a casual match may be unrated, a tournament's always is.
    rated = models.BooleanField(
        default=True, help_text=_("The match changes its players' ratings.")
    )
    # The finished match this one plays again, with the same seats and settings
    # (games/services/rematches.py); unique, so a match is played again once at most.
    # Whether the table chat takes free text as well as preset phrases (the creator's choice
    # in the lobby); a tournament table takes phrases only whatever it says
    # (games/services/chat.py).
    free_chat = models.BooleanField(
        default=True, help_text=_("The table chat takes free text, not only preset phrases.")
    )
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-created_at"]
        indexes = [
            # The sweep's "which tables have waited on a bot too long": few rows at any time.
            models.Index(
                fields=["bots_due_since"],
                name="match_bots_due",
                condition=models.Q(bots_due_since__isnull=False),
            ),
            # The sweep's "which open matches never filled": a range of one status. (A partial
            # index on status = 'open' would not serve a query whose status is a parameter.)
            models.Index(fields=["status", "created_at"], name="match_status_created"),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.players} players, {self.get_status_display().lower()})"

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    @property
    def rule_set(self) -> RuleSet:
        return RuleSet.from_dict(self.rules)

    @property
    def players(self) -> int:
        return int(self.rules["players"])

    @property
    def target(self) -> int:
        return int(self.rules["target"])

    @property
    def variant(self) -> str:
        return str(self.rules.get("variant", Variant.STANDARD))

    @property
    def variant_name(self) -> str:
        """Name the game: "Omnibus Hearts (bonus card J♦)", or "Hearts" for the standard game."""
        if self.variant == Variant.OMNIBUS:
            bonus = self.rules.get("bonus_card", BonusCard.JD)
            return f"Omnibus Hearts (bonus card {'10♦' if bonus == BonusCard.TD else 'J♦'})"
        if self.variant == Variant.CANCELLATION:
            return "Cancellation Hearts (two decks)"
        return "Hearts"

    @property
    def fixed_hands(self) -> int:
        """Return the fixed number of hands, or 0 for a match played to its target (R4.7)."""
        return int(self.rules.get("hands", 0))

    @property
    def length_words(self) -> str:
        """Say how the match ends: "ends at 100 points" or "ends after 2 hands"."""
        if self.fixed_hands:
            n = self.fixed_hands
            return ngettext("ends after %(count)d hand", "ends after %(count)d hands", n) % {
                "count": n
            }
        return gettext("ends at %(target)s points") % {"target": self.target}

    @property
    def moon_option(self) -> str:
        moon: str = self.rules.get("moon", "ask")  # the rules are stored as JSON
        return moon

    @property
    def is_over(self) -> bool:
        return self.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED)

    @property
    def has_secret(self) -> bool:
        """Say whether the match's deals come from a committed secret (they can be verified)."""
        return bool(self.secret)

    @property
    def decision_due(self) -> str:
        """Name what the players to act owe: "a pass", "a play" or "a moon choice"."""
        kind = self.decision_kind
        if kind == "pass":
            return gettext("a pass")
        if kind == "moon":
            return gettext("a moon choice")
        return gettext("a play")

    @property
    def decision_kind(self) -> str:
        """Say which decision the players to act owe: "pass", "play" or "moon"."""
        phase = str((self.snapshot or {}).get("phase", ""))
        return {"passing": "pass", "moon": "moon"}.get(phase, "play")


class BotLevel(models.TextChoices):
    EASY = "easy", _("Easy")
    NORMAL = "normal", _("Normal")
    STRONG = "strong", _("Strong")


# The levels whose bots search: the site makes their plays in the background (bot_turns).
SEARCHING_LEVELS = frozenset({BotLevel.NORMAL, BotLevel.STRONG})
# The level of the bot that plays on for a person who left a match.
LEFT_SEAT_LEVEL = BotLevel.STRONG


class Seat(models.Model):
    """A place at the table, held by a person or a bot."""

    class Controller(models.TextChoices):
        PERSON = "person", _("Person")
        BOT = "bot", _("Bot")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    controller = models.CharField(
        max_length=6, choices=Controller.choices, default=Controller.PERSON
    )
    bot_name = models.CharField(max_length=40, blank=True)
    # How strongly the bot plays (`engine.bot_for_level`): "easy" answers at once, "normal" and
    # "strong" search, so the site makes their decisions in the background (services/bot_turns).
    bot_level = models.CharField(max_length=6, choices=BotLevel.choices, default=BotLevel.EASY)
    resigned = models.BooleanField(default=False)
    # Kept up to date by the services so "your turn" is one indexed query.
    to_act = models.BooleanField(default=False)
    waiting_since = models.DateTimeField(null=True, blank=True)
    # In a timed match: when the decision this seat owes times out (its allowance and its
    # bank), what is left of its bank, and its timeouts since it last decided itself.
    deadline = models.DateTimeField(null=True, blank=True)
    bank_left = models.PositiveIntegerField(default=0)
    timeouts_in_a_row = models.PositiveSmallIntegerField(default=0)
    # The seat passed to a bot because its player let the clock run out too often (or, in an
    # untimed match, made no move for so long that the others handed it over).
    left_on_time = models.BooleanField(default=False)
    # A bot made the seat's remaining decisions because its tournament round's deadline passed.
    finished_by_bot = models.BooleanField(default=False)
    # While its player is on vacation: the seconds its clock had left when it stopped (the
    # deadline is then empty, so no sweep meets it).
    paused_left = models.PositiveIntegerField(null=True, blank=True)
    # When the reminder for the decision owed falls due (None: none is owed), and whether one
    # went for this decision: each decision gets at most one (games/notifications/reminders.py).
    remind_at = models.DateTimeField(null=True, blank=True)
    reminded = models.BooleanField(default=False)
    final_total = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "to_act"], name="seat_user_to_act"),
            # The sweep's "which deadlines have passed": only seats that owe a decision.
            models.Index(
                fields=["deadline"],
                name="seat_deadline",
                condition=models.Q(deadline__isnull=False),
            ),
            # The sweep's "which reminders are due": only seats owed one.
            models.Index(
                fields=["remind_at"],
                name="seat_remind_at",
                condition=models.Q(remind_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} at seat {self.position} of match {self.match_id}"

    @property
    def is_bot(self) -> bool:
        return self.controller == self.Controller.BOT

    @property
    def is_empty(self) -> bool:
        return not self.is_bot and self.user_id is None

    @property
    def has_left(self) -> bool:
        """Say whether the seat's person left the match for good: a bot took the seat for
        them (out of time too often, handed over, resigned, withdrawn from a tournament).

        A finished match places them after everyone who stayed (`games/services/results.py`).
        """
        return self.user_id is not None and self.resigned

    @property
    def playing_level(self) -> str | None:
        """Return the level of the bot playing the seat (its own, the strongest for a seat its
        person left), or None for a person's seat."""
        if self.is_bot:
            return self.bot_level
        return LEFT_SEAT_LEVEL if self.resigned else None

    @property
    def bot_searches(self) -> bool:
        """Say whether a searching bot plays the seat (its plays are made in the background)."""
        return self.playing_level in SEARCHING_LEVELS

    @property
    def won(self) -> bool:
        """Say whether the seat won its finished match: first place, and never left it."""
        return self.rank == 1 and not self.has_left

    def is_held_by(self, user: User | AnonymousUser) -> bool:
        """Say whether this is the signed-in user's seat, resigned or not.

        Nobody signed in holds a seat: their `pk` is None, as a bot's seat's `user_id` is.
        """
        return user.pk is not None and self.user_id == user.pk

    @property
    def name(self) -> str:
        """Return the name shown at the table."""
        if self.is_bot and not self.user_id:
            return self.bot_name or f"Bot {self.position + 1}"
        if self.user is None:
            return gettext("Empty seat")
        name = display_name_of(self.user)
        if self.left_on_time:
            return gettext("%(name)s (out of time, a bot plays)") % {"name": name}
        if self.resigned:
            return gettext("%(name)s (resigned, a bot plays)") % {"name": name}
        return name


class Hand(models.Model):
    """One deal of a match: its number, pass direction and the cards as dealt."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    pass_direction = models.CharField(max_length=6)
    deal = models.JSONField()
    seed = models.BigIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_hand_per_number")
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of match {self.match_id}"


class Action(models.Model):
    """One decision in the log: a pass, a card or a moon choice, in order within its hand."""

    class Kind(models.TextChoices):
        PASS = "pass", _("Pass")
        PLAY = "play", _("Play")
        MOON = "moon", _("Moon choice")

    class Actor(models.TextChoices):
        PERSON = "person", _("The player")
        BOT = "bot", _("A bot")
        FORCED = "forced", _("Forced card, played automatically")
        TIMEOUT = "timeout", _("A bot, when the player's time ran out")
        PLAYOUT = "playout", _("Played out automatically")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=4, choices=Kind.choices)
    # The decision's payload in the engine's text form: "QS", "QS AH KH" or "subtract".
    value = models.CharField(max_length=20)
    actor = models.CharField(max_length=7, choices=Actor.choices)
    # The match version this action was committed in; one request may log several actions.
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "seq"]
        constraints = [models.UniqueConstraint(fields=["hand", "seq"], name="one_action_per_seq")]
        indexes = [models.Index(fields=["match", "version"], name="action_match_version")]

    def __str__(self) -> str:
        return f"{self.kind} {self.value} by seat {self.seat} (hand {self.hand_id}, #{self.seq})"

    def as_decision(self) -> Decision:
        """Return this action as the engine's decision (`str(decision)` is `value`)."""
        return Decision.from_log(self.kind, self.seat, self.value)


class ScoreLine(models.Model):
    """One seat's line of the score sheet for one hand."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="score_lines")
    hand_number = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    points_taken = models.SmallIntegerField(help_text=_("Hearts and the Q♠ taken in tricks."))
    score = models.SmallIntegerField(help_text=_("What the hand adds to the total, moon included."))
    total = models.IntegerField()
    shot_moon = models.BooleanField(default=False)
    moon_option = models.CharField(max_length=8, blank=True)
    # Whether this seat took the Q♠ in this hand: for the players' statistics. None on lines
    # written before it was recorded (`manage.py rebuild_stats` fills them from the log).
    took_queen = models.BooleanField(null=True, default=None)

    class Meta:
        ordering = ["match", "hand_number", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "hand_number", "seat"], name="one_score_per_seat_and_hand"
            )
        ]

    def __str__(self) -> str:
        return f"Match {self.match_id}, hand {self.hand_number}, seat {self.seat}: {self.score}"
