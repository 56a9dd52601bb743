"""Admin for what the site remembers of finished matches: competitors, statistics, results.

Every figure here is computed (`games/services/records.py`) as matches end, and rebuilt from
the matches by `manage.py rebuild_stats`: staff read them, filter and search them, and never
add, change or delete a row by hand. None of them holds a card or a shuffle's secret.
"""

from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.admin.base import ReadOnlyAdmin
from games.models import Competitor, MatchResult, TableSizeStats, display_name_of

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

M = TypeVar("M", bound=Model)


def competitor_name(competitor: Competitor) -> str:
    """Name a competitor as its page does: the player's name, or "Easy bots"."""
    if competitor.user is None:
        return gettext("%(label)s bots") % {"label": competitor.get_bot_level_display()}
    return display_name_of(competitor.user)


class BotOrPersonFilter(admin.SimpleListFilter):
    title = _("competitor")
    parameter_name = "kind"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[str, "StrPromise"]]:
        return [("person", _("People")), ("bot", _("Bot levels"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[M]) -> QuerySet[M]:
        field = "user" if queryset.model is Competitor else "competitor__user"
        if self.value() == "person":
            return queryset.filter(**{f"{field}__isnull": False})
        if self.value() == "bot":
            return queryset.filter(**{f"{field}__isnull": True})
        return queryset


@admin.register(Competitor)
class CompetitorAdmin(ReadOnlyAdmin[Competitor]):
    list_display = ["name", "rating", "rated_matches", "mu", "sigma"]
    list_filter = [BotOrPersonFilter, "bot_level"]
    search_fields = ["user__username", "user__profile__display_name", "bot_level"]
    list_select_related = ["user__profile"]
    ordering = ["-rating", "id"]

    @admin.display(description=_("name"))
    def name(self, obj: Competitor) -> str:
        return competitor_name(obj)


@admin.register(TableSizeStats)
class TableSizeStatsAdmin(ReadOnlyAdmin[TableSizeStats]):
    list_display = [
        "name", "players", "matches", "rated_matches", "wins", "places", "hands", "points",
        "points_per_hand", "moons_shot", "moons_suffered", "queens",
    ]  # fmt: skip
    list_filter = ["players", BotOrPersonFilter]
    search_fields = [
        "competitor__user__username", "competitor__user__profile__display_name",
        "competitor__bot_level",
    ]  # fmt: skip
    list_select_related = ["competitor__user__profile"]

    @admin.display(description=_("competitor"))
    def name(self, obj: TableSizeStats) -> str:
        return competitor_name(obj.competitor)

    @admin.display(description=_("points per hand"))
    def points_per_hand(self, obj: TableSizeStats) -> str:
        return f"{obj.points / obj.hands:.2f}" if obj.hands else "—"


@admin.register(MatchResult)
class MatchResultAdmin(ReadOnlyAdmin[MatchResult]):
    list_display = [
        "match_number", "name", "players", "place", "total", "rating", "rated_no", "ended_at",
    ]  # fmt: skip
    list_filter = ["players", "place", BotOrPersonFilter]
    search_fields = [
        "match__id", "competitor__user__username", "competitor__user__profile__display_name",
        "competitor__bot_level",
    ]  # fmt: skip
    list_select_related = ["competitor__user__profile"]
    date_hierarchy = "ended_at"
    ordering = ["-ended_at", "-id"]

    @admin.display(description=_("match"), ordering="match_id")
    def match_number(self, obj: MatchResult) -> int:
        return obj.match_id

    @admin.display(description=_("competitor"))
    def name(self, obj: MatchResult) -> str:
        return competitor_name(obj.competitor)
