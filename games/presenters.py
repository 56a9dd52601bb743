"""Turn a match and the person looking at it into what the templates show, and nothing more.

Everything about cards comes from the engine's view for the viewer's own seat, or from the
public view for anyone else (R6.3): no other seat's hand or pass ever reaches a template.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games import engine
from games.models import Match, MatchStatus, MoonOption, ScoreLine, Seat

# Black and red suits alternate in the hand, so two neighbouring suits never share a colour.
SUIT_ORDER = "CDSH"
PASS_WORDS = {"left": "to the left", "right": "to the right", "across": "across the table"}
MOON_WORDS = {"subtract": "subtracted 26", "add": "added 26 to everyone else"}
# Line colours and dash patterns for the chart: told apart without colour too.
PALETTE = ("#c8102e", "#1a5fb4", "#1e7b45", "#9a6400", "#7b2cbf", "#d9480f", "#0b7285")
DASHES = ("", "7 4", "2 4", "10 4 2 4", "4 4", "1 4", "12 5")


@dataclass(frozen=True)
class Place:
    """One seat as drawn around the table, seen from the viewer's chair."""

    position: int
    name: str
    is_you: bool
    is_bot: bool
    is_empty: bool
    total: int
    cards_left: int
    to_act: bool
    passed: bool
    played: engine.Card | None
    rank: int | None
    # Where the seat sits on the table's ellipse, as a direction from its centre; the
    # stylesheet scales it to the screen (seats further out than the cards they play).
    cos: float
    sin: float

    @property
    def who(self) -> str:
        """Return how sentences name this seat: "You" for the viewer."""
        return "You" if self.is_you else self.name


@dataclass(frozen=True)
class Play:
    """A card on the table and who played it."""

    place: Place
    card: engine.Card


@dataclass(frozen=True)
class HandCard:
    """A card in the viewer's hand and whether it can be chosen now."""

    card: engine.Card
    legal: bool
    reason_id: str | None
    checked: bool = False


@dataclass(frozen=True)
class Reason:
    """Why some cards cannot be played now, in words and by rule (R3.8)."""

    id: str
    text: str
    rule: str | None


@dataclass(frozen=True)
class SheetCell:
    """One seat's line of the score sheet for one hand."""

    score: int
    total: int
    shot_moon: bool
    moon_option: str

    @property
    def moon_words(self) -> str:
        return MOON_WORDS.get(self.moon_option, "")


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


@dataclass(frozen=True)
class Chart:
    """The running totals drawn on the server: lines, axes and the target."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    lines: tuple[ChartLine, ...]
    target_y: float
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, int], ...]
    desc: str


def load_seats(match: Match) -> list[Seat]:
    """Return the match's seats in order, with what their names need."""
    return list(match.seats.select_related("user__profile").order_by("position"))


def viewer_seat(seats: Iterable[Seat], user) -> Seat | None:
    """Return the seat the user plays at, or None for a spectator (resigned players watch)."""
    return next((s for s in seats if s.user_id == user.pk and not s.resigned), None)


def engine_view(match: Match, seat: Seat | None) -> engine.PublicView | None:
    """Return the seat's own view of the match, or the public view for a spectator."""
    if not match.snapshot:
        return None
    # A match just changed by a service carries its engine state; others are parsed.
    state = getattr(match, "engine_state", None) or engine.Match.from_snapshot(match.snapshot)
    return state.view(seat.position) if seat is not None else state.public_view()


def _places(seats: Sequence[Seat], me: Seat | None, view: engine.PublicView | None) -> list[Place]:
    n = len(seats)
    anchor = me.position if me else 0
    played = {p.seat: p.card for p in view.trick} if view else {}
    places = []
    for seat in seats:
        slot = (seat.position - anchor) % n
        # The viewer sits at the bottom; play goes to the left, so clockwise on screen.
        angle = math.pi / 2 + 2 * math.pi * slot / n
        cos, sin = math.cos(angle), math.sin(angle)
        places.append(
            Place(
                position=seat.position,
                name=seat.name,
                is_you=me is not None and seat.pk == me.pk,
                is_bot=seat.is_bot,
                is_empty=seat.is_empty,
                total=view.totals[seat.position] if view else 0,
                cards_left=view.hand_counts[seat.position] if view else 0,
                to_act=bool(view) and seat.position in view.to_act,
                passed=bool(view) and view.has_passed[seat.position],
                played=played.get(seat.position),
                rank=seat.rank,
                cos=round(cos, 4) + 0.0,  # + 0.0 turns -0.0 into 0.0
                sin=round(sin, 4) + 0.0,
            )
        )
    return sorted(places, key=lambda p: (p.position - anchor) % n)


def _reason_for_waiting(view: engine.SeatView, by_pos: dict[int, Place]) -> str:
    if view.phase != engine.PLAYING:
        return "You cannot play a card now."
    return f"Wait for your turn: {by_pos[view.to_act[0]].name} is to play."


def _hand(
    view: engine.SeatView, by_pos: dict[int, Place], selected: Iterable[str]
) -> tuple[list[HandCard], list[Reason]]:
    reasons: dict[str, Reason] = {}
    chosen = set(selected)

    def reason_id(text: str, rule: str | None) -> str:
        if text not in reasons:
            reasons[text] = Reason(f"why-{len(reasons) + 1}", text, rule)
        return reasons[text].id

    cards = []
    for option in sorted(view.options, key=lambda o: (SUIT_ORDER.index(o.card.suit), o.card)):
        if option.legal:
            cards.append(HandCard(option.card, True, None, str(option.card) in chosen))
        elif view.my_turn:
            rid = reason_id(option.reason or "You cannot play this card now.", option.rule)
            cards.append(HandCard(option.card, False, rid, str(option.card) in chosen))
        else:
            rid = reason_id(_reason_for_waiting(view, by_pos), None)
            cards.append(HandCard(option.card, False, rid, str(option.card) in chosen))
    return cards, list(reasons.values())


def score_sheet(
    match: Match, places: Sequence[Place], lines: Sequence[ScoreLine]
) -> dict[str, object]:
    """Return the score sheet rows (R4.1) and the running-totals chart."""
    by_hand: dict[int, dict[int, SheetCell]] = {}
    for line in lines:
        by_hand.setdefault(line.hand_number, {})[line.seat] = SheetCell(
            line.score, line.total, line.shot_moon, line.moon_option
        )
    columns = sorted(places, key=lambda p: p.position)
    rows = [
        SheetRow(number, tuple(cells[p.position] for p in columns))
        for number, cells in sorted(by_hand.items())
        if len(cells) == len(columns)
    ]
    return {
        "columns": columns,
        "rows": rows,
        "chart": build_chart([p.name for p in columns], rows, match.target),
    }


def build_chart(names: Sequence[str], rows: Sequence[SheetRow], target: int) -> Chart:
    """Draw each seat's running total after every hand, with the target as a line."""
    width, height = 640, 260
    left, right, top, bottom = 44.0, 624.0, 30.0, 226.0
    series = [[0] + [row.cells[i].total for row in rows] for i in range(len(names))]
    values = [v for s in series for v in s] or [0]
    low, high = min(0, *values), max(target, *values)
    span_x = max(len(rows), 1)

    def x(i: int) -> float:
        return round(left + (right - left) * i / span_x, 1)

    def y(v: int) -> float:
        return round(bottom - (bottom - top) * (v - low) / (high - low), 1)

    lines = tuple(
        ChartLine(
            name=name,
            points=" ".join(f"{x(i)},{y(v)}" for i, v in enumerate(series[k])),
            colour=PALETTE[k % len(PALETTE)],
            dash=DASHES[k % len(DASHES)],
            total=series[k][-1],
        )
        for k, name in enumerate(names)
    )
    tick_values = sorted({low, 0, target // 2, target} | ({high} if high > target else set()))
    step = max(1, math.ceil(len(rows) / 12))
    x_ticks = tuple((x(i), i) for i in range(0, len(rows) + 1, step))
    if rows:
        standing = ", ".join(f"{line.name} {line.total}" for line in lines)
        desc = f"Totals after hand {rows[-1].hand}: {standing}. The match ends at {target}."
    else:
        desc = f"No hand has been scored yet. The match ends at {target}."
    return Chart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        lines=lines,
        target_y=y(target),
        y_ticks=tuple((y(v), v) for v in tick_values),
        x_ticks=x_ticks,
        desc=desc,
    )


def _last_hand(places: Sequence[Place], lines: Sequence[ScoreLine]) -> dict | None:
    if not lines:
        return None
    number = lines[-1].hand_number
    by_pos = {p.position: p for p in places}
    rows = [(by_pos[line.seat], line) for line in lines if line.hand_number == number]
    return {"number": number, "rows": rows}


def _announcement(
    view: engine.PublicView | None,
    by_pos: dict[int, Place],
    me: Place | None,
    last_hand: dict | None,
    result: dict | None,
) -> str:
    """Say in words what just happened and who is to act, for the live region."""
    if view is None:
        return ""
    parts: list[str] = []
    between_hands = not view.tricks and not view.trick
    if last_hand and (between_hands or view.phase == engine.FINISHED):
        points = ", ".join(f"{place.who} {line.score}" for place, line in last_hand["rows"])
        parts.append(f"Hand {last_hand['number']} is over: {points}.")
    if view.tricks and view.phase == engine.PLAYING:
        trick = view.tricks[-1]
        winner = by_pos[trick.winner].who
        noun = "point" if trick.points == 1 else "points"
        if not view.trick:
            parts.append(", ".join(_played(by_pos, p) for p in trick.plays) + ".")
            parts.append(f"{winner} won the trick, taking {trick.points} {noun}.")
        else:
            parts.append(f"{winner} won the last trick.")
    if view.trick:
        parts.append(", ".join(_played(by_pos, p) for p in view.trick) + ".")
    if view.phase == engine.PLAYING:
        actor = by_pos[view.to_act[0]]
        parts.append("Your turn to play." if actor.is_you else f"{actor.name} is to play.")
    elif view.phase == engine.PASSING:
        if me is not None and me.position in view.to_act:
            parts.append(f"Hand {view.hand_no}: choose three cards to pass.")
        else:
            parts.append(f"Hand {view.hand_no}: waiting for the others to pass.")
    elif view.phase == engine.MOON:
        shooter = by_pos[view.shooter]
        parts.append(
            "You shot the moon: choose what it does."
            if shooter.is_you
            else f"{shooter.name} shot the moon and is choosing what it does."
        )
    elif result:
        parts.append(result["headline"])
    return " ".join(parts)


def _played(by_pos: dict[int, Place], play: engine.PlayedCard) -> str:
    return f"{by_pos[play.seat].who} played {play.card.words}"


def result_of(match: Match, places: Sequence[Place]) -> dict | None:
    """Return the winner or co-winners and the standings of a finished match (R4.6)."""
    if match.status != MatchStatus.FINISHED:
        return None
    standings = sorted(places, key=lambda p: (p.rank or 99, p.position))
    winners = [p for p in standings if p.rank == 1]
    names = [p.who for p in winners]
    if len(names) == 1:
        headline = "You win the match!" if winners[0].is_you else f"{names[0]} wins the match."
    else:
        headline = f"{', '.join(names[:-1])} and {names[-1]} share the win."
    return {"headline": headline, "standings": standings, "winners": winners}


def _pass_info(view: engine.SeatView, by_pos: dict[int, Place]) -> dict | None:
    if view.pass_to is None:
        return None
    return {
        "to": by_pos[view.pass_to],
        "from": by_pos[view.pass_from] if view.pass_from is not None else None,
        "direction": PASS_WORDS.get(view.pass_direction, view.pass_direction),
        "passed": sorted(view.passed or (), key=lambda c: (SUIT_ORDER.index(c.suit), c)),
        "received": sorted(view.received or (), key=lambda c: (SUIT_ORDER.index(c.suit), c)),
        "waiting_for": [by_pos[p] for p in view.to_act] if view.phase == engine.PASSING else [],
    }


def match_context(
    match: Match,
    user,
    *,
    seats: list[Seat] | None = None,
    selected: Iterable[str] = (),
    error: str = "",
) -> dict[str, object]:
    """Return everything the match page and its partials show to this user."""
    seats = seats if seats is not None else load_seats(match)
    seat = viewer_seat(seats, user)
    view = engine_view(match, seat)
    places = _places(seats, seat, view)
    by_pos = {p.position: p for p in places}
    me = by_pos[seat.position] if seat else None
    lines = list(match.score_lines.order_by("hand_number", "seat")) if match.hand_no else []
    last_hand = _last_hand(places, lines)
    result = result_of(match, places)
    context: dict[str, object] = {
        "match": match,
        "version": match.version,
        "places": places,
        "me": me,
        "is_player": seat is not None,
        "is_creator": match.created_by_id == user.pk,
        "has_left": seat is None and any(s.user_id == user.pk for s in seats),
        "view": view,
        "phase": view.phase if view else None,
        "trick": [Play(by_pos[p.seat], p.card) for p in view.trick] if view else [],
        "last_trick": _last_trick(view, by_pos),
        "last_hand": last_hand,
        "result": result,
        "sheet": score_sheet(match, places, lines),
        "announcement": _announcement(view, by_pos, me, last_hand, result),
        "error": error,
        "hand_cards": [],
        "reasons": [],
        "pass_info": None,
        "empty_seats": [p for p in places if p.is_empty],
        "moon_label": MoonOption(match.moon_option).label,
        # The one seat that must decide while cards are played or the moon is chosen.
        "actor": by_pos[view.to_act[0]] if view and len(view.to_act) == 1 else None,
    }
    if isinstance(view, engine.SeatView):
        cards, reasons = _hand(view, by_pos, selected)
        context.update(hand_cards=cards, reasons=reasons, pass_info=_pass_info(view, by_pos))
        context["must_pass"] = view.phase == engine.PASSING and view.passed is None
        context["must_choose_moon"] = view.phase == engine.MOON and view.shooter == view.seat
    return context


def _last_trick(view: engine.PublicView | None, by_pos: dict[int, Place]) -> dict | None:
    if not view or not view.tricks:
        return None
    trick = view.tricks[-1]
    return {
        "number": len(view.tricks),
        "plays": [Play(by_pos[p.seat], p.card) for p in trick.plays],
        "winner": by_pos[trick.winner],
        "points": trick.points,
    }
