"""The score sheet (R4.1): a row per scored hand, and the running totals drawn as inline SVG."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from django.utils.translation import gettext

from games import engine
from games.access import deals_revealed
from games.models import Match

from .charts import PlotArea
from .table import Place

# Line colours and dash patterns for the chart: told apart without colour too.
PALETTE = ("#c8102e", "#1a5fb4", "#1e7b45", "#9a6400", "#7b2cbf", "#d9480f", "#0b7285")
DASHES = ("", "7 4", "2 4", "10 4 2 4", "4 4", "1 4", "12 5")


@dataclass(frozen=True)
class SheetCell:
    """One seat's line of the score sheet for one hand."""

    score: int
    total: int
    shot_moon: bool
    moon_option: str
    # R5: the moon's worth (26, or 52 with two decks); Omnibus: whether the seat took the bonus.
    moon_points: int = 26
    took_bonus: bool = False

    @property
    def moon_words(self) -> str:
        if self.moon_option == "subtract":
            return gettext("subtracted %(points)s") % {"points": self.moon_points}
        if self.moon_option == "add":
            return gettext("added %(points)s to everyone else") % {"points": self.moon_points}
        return ""


@dataclass(frozen=True, kw_only=True)
class Line(SheetCell):
    """One seat's score for one hand: what the log's `ScoreLine` row holds, from the engine."""

    hand_number: int
    seat: int


def sheet_lines(view: engine.PublicView | None) -> list[Line]:
    """Return the score sheet's lines by hand, then seat, from the engine's view.

    Every view carries the whole public score sheet, which the services copy into `ScoreLine`
    rows as each hand ends; reading it here saves the page a query.
    """
    if view is None:
        return []
    return [
        Line(
            hand_number=number,
            seat=seat,
            score=row.scores[seat],
            total=row.totals[seat],
            shot_moon=row.moon == seat,
            moon_option=(row.moon_option or "") if row.moon == seat else "",
            moon_points=view.rules.moon_points,
            took_bonus=row.bonus == seat,
        )
        for number, row in enumerate(view.sheet, start=1)
        for seat in range(len(row.scores))
    ]


@dataclass(frozen=True)
class SheetRow:
    """One hand on the score sheet."""

    hand: int
    cells: tuple[SheetCell, ...]


@dataclass(frozen=True)
class ChartLine:
    """One seat's running totals as an SVG polyline."""

    name: str
    points: str
    colour: str
    dash: str
    total: int
    is_bot: bool = False


@dataclass(frozen=True)
class Chart(PlotArea):
    """The running totals drawn on the server: lines, axes and the target (if the match has one)."""

    lines: tuple[ChartLine, ...]
    target_y: float | None
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, int], ...]
    desc: str


def score_sheet(match: Match, places: Sequence[Place], lines: Sequence[Line]) -> dict[str, object]:
    """Return the score sheet rows (R4.1) and the running-totals chart."""
    by_hand: dict[int, dict[int, SheetCell]] = {}
    for line in lines:
        by_hand.setdefault(line.hand_number, {})[line.seat] = line
    columns = sorted(places, key=lambda p: p.position)
    rows = [
        SheetRow(number, tuple(cells[p.position] for p in columns))
        for number, cells in sorted(by_hand.items())
        if len(cells) == len(columns)
    ]
    return {
        "columns": columns,
        "rows": rows,
        # Whether each row links to its hand's record and replay: its players may see every
        # scored hand; anyone else once the deals are revealed (`access.may_see_hand_record`).
        "reviewable": any(p.is_you for p in places) or deals_revealed(match),
        "chart": build_chart(
            [p.name for p in columns],
            rows,
            None if match.fixed_hands else match.target,
            ends=match.length_words,
            bots=[p.is_bot for p in columns],
        ),
    }


def _round_up(value: int, step: int = 10) -> int:
    """Return the smallest positive multiple of `step` at or above `value`."""
    return max(step, math.ceil(value / step) * step)


def build_chart(
    names: Sequence[str],
    rows: Sequence[SheetRow],
    target: int | None,
    ends: str = "",
    bots: Sequence[bool] = (),
) -> Chart:
    """Draw each seat's running total after every hand, with the target as a line.

    A match of a fixed number of hands has no target (None): its scale ends at the highest
    total, rounded up to ten, instead of at a target nobody plays to.
    """
    area = PlotArea(width=640, height=260, left=44.0, right=624.0, top=30.0, bottom=226.0)
    series = [[0] + [row.cells[i].total for row in rows] for i in range(len(names))]
    values = [v for s in series for v in s] or [0]
    scale = target if target is not None else _round_up(max(values))
    low, high = min(0, *values), max(scale, *values)
    span_x = max(len(rows), 1)

    def x(i: int) -> float:
        return area.x(i, span_x)

    def y(v: int) -> float:
        return area.y(v, low, high)

    lines = tuple(
        ChartLine(
            name=name,
            points=" ".join(f"{x(i)},{y(v)}" for i, v in enumerate(series[k])),
            colour=PALETTE[k % len(PALETTE)],
            dash=DASHES[k % len(DASHES)],
            total=series[k][-1],
            is_bot=k < len(bots) and bots[k],
        )
        for k, name in enumerate(names)
    )
    tick_values = sorted({low, 0, scale // 2, scale} | ({high} if high > scale else set()))
    step = max(1, math.ceil(len(rows) / 12))
    x_ticks = tuple((x(i), i) for i in range(0, len(rows) + 1, step))
    ends = ends or (
        gettext("ends at %(target)s") % {"target": target}
        if target is not None
        else gettext("has a fixed number of hands")
    )
    if rows:
        standing = ", ".join(f"{line.name} {line.total}" for line in lines)
        desc = gettext("Totals after hand %(hand)s: %(standing)s. The match %(ends)s.") % {
            "hand": rows[-1].hand,
            "standing": standing,
            "ends": ends,
        }
    else:
        desc = gettext("No hand has been scored yet. The match %(ends)s.") % {"ends": ends}
    return Chart(
        **asdict(area),
        lines=lines,
        target_y=None if target is None else y(target),
        y_ticks=tuple((y(v), v) for v in tick_values),
        x_ticks=x_ticks,
        desc=desc,
    )
