"""Admin pages: profiles, and matches with their seats, hands, log and score sheet.

Moves change a match only through the services, so the admin shows the engine's fields
(snapshot, version, log) read-only; staff can inspect everything and check a match's log.
"""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from games.models import Action, Hand, Match, Profile, ScoreLine, Seat
from games.services import log_matches_snapshot


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user"]
    search_fields = ["display_name", "user__username", "user__email"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = [
        "position",
        "user",
        "controller",
        "bot_name",
        "resigned",
        "to_act",
        "final_total",
        "rank",
    ]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class ScoreLineInline(admin.TabularInline):
    model = ScoreLine
    extra = 0
    can_delete = False
    fields = ["hand_number", "seat", "points_taken", "score", "total", "shot_moon", "moon_option"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "status", "players", "target", "created_by", "hand_no", "created_at"]
    list_filter = ["status", "is_private"]
    search_fields = ["id", "created_by__username", "seats__user__username"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "created_by", "created_at", "updated_at", "started_at", "finished_at", "status",
        "rules", "invite_code", "version", "snapshot", "hand_no", "seed",
    ]  # fmt: skip
    fields = [
        *readonly_fields[:7],
        "is_private",
        "auto_play_forced",
        "auto_finish",
        *readonly_fields[7:],
    ]
    inlines = [SeatInline, ScoreLineInline]
    actions = ["check_log"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A match is created by a player in the lobby (or by a tournament), never by hand.
        return False

    @admin.action(description="Check that the action log replays to the stored state")
    def check_log(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        broken = [match.pk for match in queryset if not log_matches_snapshot(match)]
        if broken:
            self.message_user(
                request,
                f"The log does not reproduce the stored state of match(es) {broken}.",
                messages.ERROR,
            )
        else:
            self.message_user(request, f"All {queryset.count()} match(es) replay exactly.")


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["match", "position", "user", "controller", "bot_name", "to_act", "rank"]
    list_filter = ["controller", "to_act", "resigned"]
    search_fields = ["user__username", "bot_name", "match__id"]
    readonly_fields = ["match", "position", "to_act", "waiting_since", "final_total", "rank"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        # Seats change through the lobby and the moves, which keep the log consistent.
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class ActionInline(admin.TabularInline):
    model = Action
    extra = 0
    can_delete = False
    fields = ["seq", "seat", "kind", "value", "actor", "version", "created_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "pass_direction", "started_at", "finished_at"]
    search_fields = ["match__id"]
    readonly_fields = [
        "match", "number", "pass_direction", "deal", "seed", "started_at", "finished_at",
        "next_seq",
    ]  # fmt: skip
    inlines = [ActionInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        # The log is the truth: a row is removed only with its whole match.
        return False


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ["match", "hand", "seq", "seat", "kind", "value", "actor", "created_at"]
    list_filter = ["kind", "actor"]
    search_fields = ["match__id"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        # The log is the truth: a row is removed only with its whole match.
        return False


@admin.register(ScoreLine)
class ScoreLineAdmin(admin.ModelAdmin):
    list_display = ["match", "hand_number", "seat", "points_taken", "score", "total", "shot_moon"]
    list_filter = ["shot_moon"]
    search_fields = ["match__id"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        # The log is the truth: a row is removed only with its whole match.
        return False
