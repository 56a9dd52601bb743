"""Admin pages: profiles, e-mail settings, matches with their seats, hands, log and scores.

Moves change a match only through the services, so the admin shows the engine's fields
(snapshot, version, log) read-only; staff can inspect them and check a match's log. Until a
match's deals are revealed (`games.access.deals_revealed`: it is over, and so is every table
sharing its deals, and their round is closed), nothing that holds or makes its cards is shown
(the deals, the secret and the seeds they come from, the snapshot, the log of passes and
cards): a staff member may also be a player, here or at a table dealt the same cards. The
commitment is public from the start.
"""

from collections.abc import Iterable
from typing import Any, TypeVar

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import InlineModelAdmin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.access import deals_revealed, revealed_matches
from games.accounts.names import clean_display_name
from games.admin.base import ReadOnlyAdmin
from games.models import (
    Action,
    Hand,
    Match,
    NotificationSettings,
    Profile,
    ScoreLine,
    Seat,
)
from games.services import log_matches_snapshot

# The fields that hold (or make) a match's cards, kept out of sight until its deals are
# revealed. (`seed` is a match's bots' seed, or the deals' own for a match dealt before
# secrets; a hand's `seed` gives its deal.)
SECRET_FIELDS = ("snapshot", "seed", "deals", "deal", "secret")
HIDDEN_NOTE = _("Hidden while the match is in play: shown once it is over.")
HIDDEN_FOR_GROUP_NOTE = _("Hidden until the round of the tables dealt the same cards is closed.")


def in_play(match: Match | None) -> bool:
    """Say whether a match's deals are not revealed yet: it, or a table sharing them, plays
    on, or their round is not closed yet (`games.access.deals_revealed`)."""
    return match is not None and not deals_revealed(match)


def hidden_note(match: Match) -> str:
    return str(HIDDEN_NOTE if not match.is_over else HIDDEN_FOR_GROUP_NOTE)


def without_secrets(names: Iterable[Any], match: Match | None) -> list[Any]:
    """Return the field names, less the secret ones until the match's deals are revealed."""
    shown = list(names)
    if not in_play(match):
        return shown
    return [name for name in shown if name not in SECRET_FIELDS] + ["cards_hidden"]


Child = TypeVar("Child", bound=Model)
Parent = TypeVar("Parent", bound=Model)


class ReadOnlyInline(admin.TabularInline[Child, Parent]):
    """Rows shown beside their match; only the services write them."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return list(self.fields or ())

    def has_add_permission(self, request: HttpRequest, obj: Parent | None = None) -> bool:
        return False


class ProfileAdminForm(forms.ModelForm[Profile]):
    """A profile as staff edit it: the same rules for the name as the player's own page."""

    class Meta:
        model = Profile
        fields = ["user", "display_name"]  # `deleted_at` is shown read-only

    def clean_display_name(self) -> str:
        user = self.cleaned_data.get("user") or self.instance.user
        return clean_display_name(self.cleaned_data["display_name"], user.pk if user else None)


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin[Profile]):
    form = ProfileAdminForm
    list_display = ["display_name", "user", "deleted_at"]
    # Deleted accounts (games/accounts/deletion.py): shown, never edited back to life here.
    list_filter = [("deleted_at", admin.EmptyFieldListFilter)]
    readonly_fields = ["deleted_at"]
    search_fields = ["display_name", "user__username", "user__email"]


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(ReadOnlyAdmin[NotificationSettings]):
    """What each player chose to hear by e-mail, and the times that pace it.

    Read-only: a player changes these on their profile page or with the link in an e-mail.
    """

    list_display = [
        "user", "turn_emails", "daily_digest", "last_seen", "last_turn_email_at", "last_digest_at",
    ]  # fmt: skip
    list_filter = ["turn_emails", "daily_digest"]
    search_fields = ["user__username", "user__email"]


class SeatInline(ReadOnlyInline[Seat, Match]):
    model = Seat
    fields = [
        "position", "user", "controller", "bot_name", "resigned", "to_act", "final_total", "rank",
    ]  # fmt: skip


class ScoreLineInline(ReadOnlyInline[ScoreLine, Match]):
    model = ScoreLine
    fields = ["hand_number", "seat", "points_taken", "score", "total", "shot_moon", "moon_option"]


class ActionInline(ReadOnlyInline[Action, Hand]):
    model = Action
    fields = ["seq", "seat", "kind", "value", "actor", "version", "created_at"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ["id", "status", "players", "target", "created_by", "hand_no", "created_at"]
    list_filter = ["status", "is_private"]
    search_fields = ["id", "created_by__username", "seats__user__username"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "created_by", "created_at", "updated_at", "started_at", "finished_at", "status",
        "rules", "invite_code", "version", "snapshot", "hand_no", "seed", "deals",
        # Shuffles anyone can verify: the commitment is public, the secret hidden until reveal.
        "commitment", "secret",
        # The time control is chosen when a match is created (the lobby, a tournament).
        "decision_seconds", "bank_seconds", "timeouts_to_leave", "allow_vacation",
    ]  # fmt: skip
    # Only what does not change the game itself can be edited here.
    fields = [
        *readonly_fields[:7],
        "is_private",
        "auto_play_forced",
        "auto_finish",
        *readonly_fields[7:],
    ]
    inlines = [SeatInline, ScoreLineInline]
    actions = ["check_log"]

    def get_fields(self, request: HttpRequest, obj: Match | None = None) -> list[Any]:
        return without_secrets(super().get_fields(request, obj), obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Match | None = None) -> list[Any]:
        return without_secrets(super().get_readonly_fields(request, obj), obj)

    @admin.display(description=_("Cards"))
    def cards_hidden(self, obj: Match) -> str:
        return hidden_note(obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A match is created by a player in the lobby (or by a tournament), never by hand.
        return False

    @admin.action(description=_("Check that the action log replays to the stored state"))
    def check_log(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        broken = [match.pk for match in queryset if not log_matches_snapshot(match)]
        if broken:
            words = ngettext(
                "The log does not reproduce the stored state of match %(ids)s.",
                "The log does not reproduce the stored state of matches %(ids)s.",
                len(broken),
            )
            ids = ", ".join(str(pk) for pk in broken)
            self.message_user(request, words % {"ids": ids}, messages.ERROR)
        else:
            count = queryset.count()
            words = ngettext(
                "The match replays exactly.", "All %(count)d matches replay exactly.", count
            )
            self.message_user(request, words % {"count": count})


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin[Seat]):
    list_display = ["match", "position", "user", "controller", "bot_name", "to_act", "rank"]
    list_filter = ["controller", "to_act", "resigned"]
    search_fields = ["user__username", "bot_name", "match__id"]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin[Hand]):
    list_display = ["match", "number", "pass_direction", "started_at", "finished_at"]
    search_fields = ["match__id"]
    inlines = [ActionInline]

    def get_fields(self, request: HttpRequest, obj: Hand | None = None) -> list[Any]:
        return without_secrets(super().get_fields(request, obj), obj.match if obj else None)

    def get_readonly_fields(self, request: HttpRequest, obj: Hand | None = None) -> list[Any]:
        fields = super().get_readonly_fields(request, obj)
        return without_secrets(fields, obj.match if obj else None)

    def get_inlines(
        self, request: HttpRequest, obj: Hand | None = None
    ) -> list[type[InlineModelAdmin[Any, Any]]]:
        # The log holds every pass and card: not while the match is in play.
        return [] if obj is None or in_play(obj.match) else list(self.inlines)

    @admin.display(description=_("Cards"))
    def cards_hidden(self, obj: Hand) -> str:
        return hidden_note(obj.match)


@admin.register(Action)
class ActionAdmin(ReadOnlyAdmin[Action]):
    """The log of matches whose deals are revealed; until then their passes and cards (which
    show the deals, here and at the tables sharing them) stay hidden."""

    list_display = ["match", "hand", "seq", "seat", "kind", "value", "actor", "created_at"]
    list_filter = ["kind", "actor"]
    search_fields = ["match__id"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Action]:
        return super().get_queryset(request).filter(match__in=revealed_matches())


@admin.register(ScoreLine)
class ScoreLineAdmin(ReadOnlyAdmin[ScoreLine]):
    list_display = ["match", "hand_number", "seat", "points_taken", "score", "total", "shot_moon"]
    list_filter = ["shot_moon"]
    search_fields = ["match__id"]
