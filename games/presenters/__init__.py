"""Turn a match and the person looking at it into what the templates show, and nothing more.

Everything about cards comes from the engine's view for the viewer's own seat, or from the
public view for anyone else (R6.3): no other seat's hand or pass ever reaches a template.

- `table`: the seats around the table, the cards on it, the last trick, the live announcement
  and the result;
- `hand`: the viewer's own hand, with why a card cannot be chosen, and the pass;
- `sheet`: the score sheet rows and the running-totals chart;
- `page`: `match_context`, all of the above for one page.
"""

from .hand import SUIT_ORDER, HandCard, Reason
from .page import match_context
from .sheet import (
    DASHES,
    PALETTE,
    Chart,
    ChartLine,
    SheetCell,
    SheetRow,
    build_chart,
    score_sheet,
)
from .table import Place, Play, engine_view, load_seats, result_of, viewer_seat

__all__ = [
    "DASHES",
    "PALETTE",
    "SUIT_ORDER",
    "Chart",
    "ChartLine",
    "HandCard",
    "Place",
    "Play",
    "Reason",
    "SheetCell",
    "SheetRow",
    "build_chart",
    "engine_view",
    "load_seats",
    "match_context",
    "result_of",
    "score_sheet",
    "viewer_seat",
]
