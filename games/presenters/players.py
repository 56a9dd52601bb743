"""Player pages and the leaderboard: what the site remembers of a person or a bot level.

Everything here reads the rows `games/services/records.py` keeps as matches end; a page for a
player with ten thousand matches reads the same few rows as one with ten: their competitor
row, at most five rows of statistics (one per table size), at most `CHART_POINTS` results for
the chart, and their `RECENT` latest matches the viewer may see.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils.translation import ngettext

from games.access import Viewer
from games.models import (
    BotLevel,
    Competitor,
    Entry,
    MatchResult,
    Seat,
    TableSizeStats,
    display_name_of,
    is_former_player,
)
from games.services import rating_math

from .charts import PlotArea

RECENT = 10
CHART_POINTS = 200


# ----- where a name leads -----


def user_url(user: User) -> str:
    """Return the address of a person's page (by the name they show); a former player has none."""
    if is_former_player(user):
        return ""
    return reverse("player", args=[display_name_of(user)])


def bot_url(level: str) -> str:
    """Return the address of the page of one bot level."""
    return reverse("bot_player", args=[level])


def player_url(holder: object) -> str:
    """Return the page a name leads to: a seat's person or bot level, an entrant's, a user's.

    An empty seat leads nowhere (""). The one place every template's name links are made.
    """
    if isinstance(holder, Seat):
        if holder.user_id is not None and holder.user is not None:
            return user_url(holder.user)
        return bot_url(holder.bot_level) if holder.is_bot else ""
    if isinstance(holder, Entry):
        return user_url(holder.user)
    if isinstance(holder, User):
        return user_url(holder)
    return ""


# ----- the statistics -----


@dataclass(frozen=True)
class SizeLine:
    """A competitor's record at one table size."""

    players: int
    matches: int
    wins: int
    places: tuple[int, ...]  # how often 1st, 2nd …

    @property
    def numbered_places(self) -> list[tuple[int, int]]:
        return list(enumerate(self.places, start=1))


@dataclass(frozen=True)
class Totals:
    """A competitor's figures over every table size."""

    matches: int
    wins: int
    hands: int
    points: int
    moons_shot: int
    moons_suffered: int
    queens: int
    sizes: tuple[SizeLine, ...]

    @property
    def points_per_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None


def totals_of(rows: Sequence[TableSizeStats]) -> Totals:
    """Add a competitor's rows of statistics (one per table size) together."""
    return Totals(
        matches=sum(r.matches for r in rows),
        wins=sum(r.wins for r in rows),
        hands=sum(r.hands for r in rows),
        points=sum(r.points for r in rows),
        moons_shot=sum(r.moons_shot for r in rows),
        moons_suffered=sum(r.moons_suffered for r in rows),
        queens=sum(r.queens for r in rows),
        sizes=tuple(
            SizeLine(r.players, r.matches, r.wins, tuple(r.places))
            for r in sorted(rows, key=lambda r: r.players)
            if r.matches
        ),
    )


# ----- the rating chart -----


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    match_no: int
    rating: int


@dataclass(frozen=True)
class RatingChart(PlotArea):
    """The rating after each rated match (every k-th of many), placed on the chart's grid."""

    points: tuple[ChartPoint, ...]
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, int], ...]
    desc: str


def chart_numbers(rated_matches: int, most: int = CHART_POINTS) -> list[int]:
    """Return which rated matches (counted from 1) the chart reads: every k-th, and the last."""
    if rated_matches <= 0:
        return []
    step = max(1, math.ceil(rated_matches / most))
    return sorted({1, rated_matches, *range(step, rated_matches + 1, step)})


def rating_chart(history: Sequence[tuple[int, int]]) -> RatingChart | None:
    """Place (rated match number, rating after it) pairs on the chart; None without any."""
    if not history:
        return None
    area = PlotArea(width=640, height=240, left=52.0, right=624.0, top=20.0, bottom=206.0)
    start = rating_math.display_rating(rating_math.NEW_SKILL)
    series = [(0, start), *history]
    ratings = [rating for _, rating in series]
    low = math.floor(min(ratings) / 100) * 100
    high = max(low + 100, math.ceil(max(ratings) / 100) * 100)
    last = series[-1][0]

    def x(number: int) -> float:
        return area.x(number, last)

    def y(rating: int) -> float:
        return area.y(rating, low, high)

    step = max(100, math.ceil((high - low) / 4 / 100) * 100)
    x_step = max(1, math.ceil(last / 8))
    desc = ngettext(
        "Rating after each of %(count)d rated match: from %(start)s at the start to %(now)s "
        "now; highest %(high)s, lowest %(low)s.",
        "Rating after each of %(count)d rated matches: from %(start)s at the start to %(now)s "
        "now; highest %(high)s, lowest %(low)s.",
        last,
    ) % {
        "count": last,
        "start": start,
        "now": ratings[-1],
        "high": max(ratings),
        "low": min(ratings),
    }
    return RatingChart(
        **asdict(area),
        points=tuple(ChartPoint(x(n), y(r), n, r) for n, r in series),
        y_ticks=tuple((y(v), v) for v in range(low, high + 1, step)),
        x_ticks=tuple((x(n), n) for n in range(0, last + 1, x_step)),
        desc=desc,
    )


# ----- recent matches, as far as the viewer may see them -----


def viewable_results(results: QuerySet[MatchResult], viewer: Viewer) -> QuerySet[MatchResult]:
    """Keep the results of matches the viewer may look at (`games.access.may_view`).

    A private match is listed only to its own players and staff; a visitor not signed in may
    look at no match, so none is listed to them.
    """
    if viewer is None or not viewer.is_authenticated:
        return results.none()
    if viewer.is_staff:
        return results
    seated = Seat.objects.filter(match_id=OuterRef("match_id"), user_id=viewer.pk)
    return results.filter(Q(match__is_private=False) | Exists(seated))


@dataclass(frozen=True)
class RecentMatch:
    result: MatchResult
    seats: tuple[Seat, ...]


def recent_matches(competitor: Competitor, viewer: Viewer) -> list[RecentMatch]:
    """Return the competitor's latest finished matches that the viewer may see, newest first."""
    seats = Prefetch(
        "match__seats", queryset=Seat.objects.select_related("user__profile").order_by("position")
    )
    results = viewable_results(
        MatchResult.objects.filter(competitor=competitor)
        .select_related("match")
        .prefetch_related(seats)
        .order_by("-ended_at", "-id"),
        viewer,
    )
    return [RecentMatch(r, tuple(r.match.seats.all())) for r in results[:RECENT]]


def player_context(competitor: Competitor | None, viewer: Viewer) -> dict[str, object]:
    """Return what a player page shows: rating, statistics, chart and recent matches."""
    if competitor is None:  # a player who has finished no match yet
        return {"totals": totals_of([]), "chart": None, "recent": [], "competitor": None}
    stats = list(TableSizeStats.objects.filter(competitor=competitor))
    numbers = chart_numbers(competitor.rated_matches)
    history = list(
        MatchResult.objects.filter(competitor=competitor, rated_no__in=numbers)
        .order_by("rated_no")
        .values_list("rated_no", "rating")
    )
    return {
        "competitor": competitor,
        "totals": totals_of(stats),
        "chart": rating_chart([(n, r) for n, r in history if n is not None and r is not None]),
        "recent": recent_matches(competitor, viewer),
    }


def bot_levels() -> list[tuple[str, str, Competitor | None]]:
    """Return each bot level (value, label) with its competitor row, if it has played."""
    rows = {c.bot_level: c for c in Competitor.objects.filter(user__isnull=True)}
    return [(value, str(label), rows.get(value)) for value, label in BotLevel.choices]
