"""The rules page: the game in plain words, with every figure taken from the engine.

The figures a player might check against the table (the cards taken out, the cards each, the
card that leads, the passing cycle, the points, the widow) are read from the engine's rule sets
here, so that the page cannot say one thing while the table does another.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import engine
from games.engine.rules import BONUS_POINTS, MAX_HANDS, MAX_TARGET, MIN_HANDS, MIN_TARGET
from games.engine.scoring import hand_scores
from games.models import Match
from games.models.time_control import MAX_DECISION_SECONDS, MIN_DECISION_SECONDS

# The passing table shows this many hands: every table size's cycle (4 hands at four players,
# 2 at the others) starts again after them.
HANDS_IN_A_CYCLE = 4
DAY = 86400


@dataclass(frozen=True)
class TableSize:
    """One row of a deal table: what a table of this size plays with."""

    players: int
    removed: tuple[engine.Card, ...]
    cards_each: int
    widow: int
    opening: engine.Card | None  # the card that leads the first trick; None: any card
    passing: tuple[str, ...]  # hands 1 to 4: "left", "right", "across" or "none"


def _table_size(variant: str, players: int) -> TableSize:
    rules = engine.RuleSet(players=players, variant=variant)
    deck = rules.deck_mask
    two_decks = rules.two_decks
    return TableSize(
        players=players,
        removed=() if two_decks else tuple(c for c in engine.CARDS if not deck >> c.index & 1),
        cards_each=rules.hand_size,
        widow=rules.widow_size,
        opening=None if two_decks else engine.CARDS[rules.opening_card_index],
        passing=tuple(rules.pass_direction(hand) for hand in range(1, HANDS_IN_A_CYCLE + 1)),
    )


def _sizes(variant: str) -> list[TableSize]:
    return [_table_size(variant, n) for n in engine.players_allowed(variant)]


def _points_per_hand(variant: str) -> int:
    rules = engine.RuleSet(players=engine.players_allowed(variant)[0], variant=variant)
    return sum(engine.ALL_CARDS[i].points for i in rules.deck_indices)


def _omnibus_moon(moon: int) -> dict[str, int]:
    """Return what a hand scores when the moon and the bonus card meet, from the engine."""
    points = [moon, 0, 0, 0]
    subtract = hand_scores(points, 0, "subtract", moon, bonus_taker=0)
    add = hand_scores(points, 0, "add", moon, bonus_taker=0)
    other_subtract = hand_scores(points, 0, "subtract", moon, bonus_taker=1)
    other_add = hand_scores(points, 0, "add", moon, bonus_taker=1)
    return {
        "shooter_subtract": subtract[0],
        "shooter_add": add[0],
        "other_subtract": other_subtract[1],
        "other_add": other_add[1],
    }


@require_GET
def rules_page(request: HttpRequest) -> HttpResponse:
    """Explain the game, for every table size and variant, in words a newcomer understands."""
    standard = _sizes(engine.STANDARD)
    cancellation = _sizes(engine.CANCELLATION)
    default = engine.RuleSet()
    five = engine.RuleSet(players=5, variant=engine.CANCELLATION)
    queen = engine.Card.parse("QS")
    context = {
        "standard_sizes": standard,
        "cancellation_sizes": cancellation,
        "hand_numbers": range(1, HANDS_IN_A_CYCLE + 1),
        "fewest": standard[0].players,
        "most": standard[-1].players,
        "fewest_cancellation": cancellation[0].players,
        "most_cancellation": cancellation[-1].players,
        "default_players": default.players,
        "lowest_club": engine.Card.parse("2C"),
        "next_club": engine.Card.parse("3C"),
        "queen": queen,
        "queen_points": queen.points,
        "hand_points": _points_per_hand(engine.STANDARD),
        "moon_points": default.moon_points,
        "cancellation_hand_points": _points_per_hand(engine.CANCELLATION),
        "cancellation_moon_points": five.moon_points,
        "default_target": default.target,
        "min_target": MIN_TARGET,
        "max_target": MAX_TARGET,
        "min_hands": MIN_HANDS,
        "max_hands": MAX_HANDS,
        "bonus_cards": [engine.Card.parse(code) for code in engine.BONUS_CARDS],
        "bonus_points": BONUS_POINTS,
        "bonus_moon": _omnibus_moon(default.moon_points),
        "min_decision_minutes": MIN_DECISION_SECONDS // 60,
        "max_decision_days": MAX_DECISION_SECONDS // DAY,
        "timeouts_to_leave": Match._meta.get_field("timeouts_to_leave").get_default(),
    }
    return render(request, "pages/rules.html", context)
