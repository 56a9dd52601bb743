"""Every seat's place on the table comes from a rule of the stylesheet, not a style attribute."""

import math
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from games.presenters.table import places as seat_places

STYLESHEET = Path(__file__).parent.parent / "games" / "static" / "games" / "site.css"
RULE = re.compile(r'\[data-spot="(\d+)"\] \{ --cos: (-?[\d.]+); --sin: (-?[\d.]+); \}')


def seat(position: int) -> SimpleNamespace:
    return SimpleNamespace(
        position=position,
        name=f"Seat {position}",
        is_bot=True,
        bot_level="easy",
        get_bot_level_display=lambda: "easy",
        resigned=False,
        is_empty=False,
        rank=None,
        won=False,
        has_left=False,
        pk=None,
        deadline=None,
        timeouts_in_a_row=0,
    )


@pytest.mark.parametrize("players", range(3, 11))
def test_each_seat_of_every_table_size_has_its_direction_in_the_stylesheet(players):
    rules = {
        int(name): (float(cos), float(sin))
        for name, cos, sin in RULE.findall(STYLESHEET.read_text())
    }
    places = seat_places([seat(p) for p in range(players)], None, None)
    assert len({place.spot for place in places}) == players
    for place in places:
        assert place.spot in rules, place.spot
        cos, sin = rules[place.spot]
        assert math.isclose(cos, place.cos, abs_tol=1e-4)
        assert math.isclose(sin, place.sin, abs_tol=1e-4)
