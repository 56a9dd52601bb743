"""What the site's SVG charts share: their size and the plot area inside the margins."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlotArea:
    """A chart's size and, inside its margins (room for the axes' labels), where data go.

    SVG's y axis points down: `top` is the highest value's line, `bottom` the lowest's.
    """

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float

    def x(self, value: float, last: float) -> float:
        """Place `value`, counted from 0 to `last`, across the plot."""
        return round(self.left + (self.right - self.left) * value / max(last, 1), 1)

    def y(self, value: float, low: float, high: float) -> float:
        """Place `value`, between `low` and `high`, up the plot."""
        return round(self.bottom - (self.bottom - self.top) * (value - low) / (high - low), 1)
