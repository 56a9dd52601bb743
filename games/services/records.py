"""Statistics and ratings, kept as each match ends, and rebuilt from the stored matches.

`record_finished_match` runs inside the transaction that ends the match (`LockedTable.save`),
so the figures commit with the result or not at all: no task can be lost between the two,
and pages only ever read them. It reads the match's score sheet (one query), locks the rows
of the competitors involved (a bot level's row is shared by every match its bots play), and
writes each row once.

`rebuild` replays that same function over every finished match in the order they ended, so
the figures it gives are the ones the matches gave as they ended, to the last bit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db import models, transaction
from django.db.models import Q

from games import access, engine
from games.lib import clock
from games.models import (
    Action,
    Competitor,
    Hand,
    Match,
    MatchResult,
    MatchStatus,
    ScoreLine,
    Seat,
    TableSizeStats,
)
from games.services import rating_math, results
from games.services.rating_math import Skill

QUEEN = engine.Card.parse("QS")

# A competitor, as the seats name it: ("user", user id) or ("bot", level).
Key = tuple[str, int | str]


def queen_taker(tricks: Iterable[engine.TrickView]) -> int | None:
    """Return the seat that took the Q♠ in a finished hand's tricks (None if it was not dealt).

    With two decks (R5.2) it is the first Q♠ taken, and a trick nobody won goes to its taker.
    """
    for trick in tricks:
        if any(play.card.face == QUEEN for play in trick.plays):
            return trick.taker
    return None


def key_of(seat: Seat) -> Key | None:
    """Return the competitor a seat counts for: its person (even after they left), or its
    bot's level; None for a seat nobody ever held."""
    if seat.user_id is not None:
        return ("user", seat.user_id)
    if seat.is_bot:
        return ("bot", seat.bot_level)
    return None


@dataclass
class SeatFigures:
    """What one seat did in one match: from its score lines, and its stored result."""

    hands: int = 0
    points: int = 0
    moons_shot: int = 0
    moons_suffered: int = 0
    queens: int = 0
    total: int = 0
    place: int = 0
    left: bool = False
    won: bool = False


@dataclass
class MatchFigures:
    """A finished match's figures per seat, in seat order."""

    players: int
    seats: list[SeatFigures] = field(default_factory=list)


def figures_of(
    match: Match,
    seats: Sequence[Seat],
    lines: Iterable[tuple[int, int, int, bool, bool | None]],
) -> MatchFigures:
    """Tally the seats' figures from the score lines (hand, seat, score, shot_moon, took_queen).

    Totals and places are the ones stored on the seats as the match ended
    (`games/services/results.py`): nothing here places anyone.
    """
    n = match.players
    figures = MatchFigures(players=n, seats=[SeatFigures() for _ in range(n)])
    shooters: dict[int, int] = {}
    hands: set[int] = set()
    for hand_number, position, score, shot_moon, took_queen in lines:
        seat = figures.seats[position]
        hands.add(hand_number)
        seat.points += score
        if shot_moon:
            seat.moons_shot += 1
            shooters[hand_number] = position
        if took_queen:
            seat.queens += 1
    for position, seat in enumerate(figures.seats):
        seat.hands = len(hands)
        seat.moons_suffered = sum(1 for shooter in shooters.values() if shooter != position)
    for stored in seats:
        assert stored.rank is not None, "the match has no stored result"
        seat = figures.seats[stored.position]
        seat.total, seat.place = stored.final_total or 0, stored.rank
        seat.left, seat.won = stored.has_left, stored.won
    return figures


def _by_key(keys: set[Key], prefix: str = "") -> Q:
    users = [value for kind, value in keys if kind == "user"]
    levels = [value for kind, value in keys if kind == "bot"]
    return Q(**{f"{prefix}user_id__in": users}) | Q(**{f"{prefix}bot_level__in": levels})


def _key(competitor: Competitor) -> Key:
    return ("user", competitor.user_id) if competitor.user_id else ("bot", competitor.bot_level)


def _find_rows(keys: set[Key], players: int) -> dict[Key, TableSizeStats]:
    """Read and lock the competitors' rows for this table size, each with its competitor.

    One query for both tables. Locked in competitor order, so two matches ending at once (a bot
    level's row is shared by every match its bots play) wait for each other, never deadlock.
    """
    rows = (
        TableSizeStats.objects.select_for_update(of=("self", "competitor"))
        .select_related("competitor")
        .filter(_by_key(keys, "competitor__"), players=players)
        .order_by("competitor_id")
    )
    return {_key(row.competitor): row for row in rows}


def _rows(keys: set[Key], players: int) -> dict[Key, TableSizeStats]:
    """Return the competitors' rows for this table size, locked, creating any missing."""
    found = _find_rows(keys, players)
    missing = keys - found.keys()
    if not missing:
        return found
    start = rating_math.display_rating(rating_math.NEW_SKILL)
    Competitor.objects.bulk_create(
        [
            Competitor(user_id=value, rating=start)
            if kind == "user"
            else Competitor(bot_level=value, rating=start)
            for kind, value in missing
        ],
        ignore_conflicts=True,  # another match may have created one meanwhile
    )
    TableSizeStats.objects.bulk_create(
        [
            TableSizeStats(competitor=competitor, players=players, places=[0] * players)
            for competitor in Competitor.objects.filter(_by_key(missing))
        ],
        ignore_conflicts=True,
    )
    return _find_rows(keys, players)


STATS_FIELDS = [
    "matches", "rated_matches", "wins", "places", "hands", "points", "moons_shot",
    "moons_suffered", "queens",
]  # fmt: skip


def _write(model: type[models.Model], rows: Iterable[models.Model], fields: list[str]) -> None:
    """Write each row's fields with a plain UPDATE: a match touches a handful of rows, and
    `bulk_update` builds a CASE expression per field, several milliseconds of Python."""
    for row in rows:
        model._default_manager.filter(pk=row.pk).update(**{f: getattr(row, f) for f in fields})


def record_when_final(match: Match, seats: Sequence[Seat]) -> None:
    """Record a match that has just finished, unless other tables still play its deals.

    A tournament table whose deals other tables of its round share (duplicate deals) is
    recorded when its round closes (`record_closed_round`): until then its result would tell
    the other tables' players what a deal they are playing gave (`games.access.group_open`).
    """
    if not access.group_open(match):
        record_finished_match(match, seats)


def record_closed_round(match_ids: Iterable[int]) -> None:
    """Record the finished matches of a round just closed that waited for it, as they ended."""
    waiting = Match.objects.filter(
        pk__in=list(match_ids), status=MatchStatus.FINISHED, recorded_at__isnull=True
    ).order_by("finished_at", "pk")
    for match in waiting:
        record_finished_match(match, list(Seat.objects.filter(match=match)))


@dataclass
class CompetitorFigures:
    """What one competitor did in one match: a person's one seat, or a bot level's seats.

    A bot level that held several seats played one match: it counts once in matches, wins
    and places (its best seat), while its seats' hands, points, moons and Q♠ all add up, so
    that points per hand stays a per-seat figure.
    """

    seats: list[SeatFigures]

    @property
    def best(self) -> SeatFigures:
        return min(self.seats, key=lambda fig: fig.place)

    @property
    def won(self) -> bool:
        return any(fig.won for fig in self.seats)


def _by_competitor(seats: Sequence[Seat], figures: MatchFigures) -> dict[Key, CompetitorFigures]:
    grouped: dict[Key, CompetitorFigures] = {}
    for seat in sorted(seats, key=lambda s: s.position):
        key = key_of(seat)
        if key is not None:
            grouped.setdefault(key, CompetitorFigures([])).seats.append(
                figures.seats[seat.position]
            )
    return grouped


def _add_statistics(
    row: TableSizeStats, mine: CompetitorFigures, players: int, rated: bool
) -> None:
    row.matches += 1
    row.rated_matches += 1 if rated else 0
    row.wins += 1 if mine.won else 0
    places = list(row.places) + [0] * (players - len(row.places))
    places[mine.best.place - 1] += 1
    row.places = places
    for fig in mine.seats:
        row.hands += fig.hands
        row.points += fig.points
        row.moons_shot += fig.moons_shot
        row.moons_suffered += fig.moons_suffered
        row.queens += fig.queens


def _rate(seats: Sequence[Seat], competitors: dict[Key, Competitor]) -> None:
    """Move the competitors' ratings by the match's stored places (leavers rated last)."""
    by_position = sorted((s for s in seats if key_of(s) is not None), key=lambda s: s.position)
    keys = [key_of(seat) for seat in by_position]
    after = rating_math.rate(
        [
            (key, Skill(competitors[key].mu, competitors[key].sigma), place)
            for key, place in zip(keys, results.rating_places(by_position), strict=True)
            if key is not None
        ]
    )
    for key, skill in after.items():
        competitor = competitors[key]
        competitor.mu, competitor.sigma = skill.mu, skill.sigma
        competitor.rating = rating_math.display_rating(skill)
        competitor.rated_matches += 1
    _write(Competitor, competitors.values(), ["mu", "sigma", "rating", "rated_matches"])


def record_finished_match(match: Match, seats: Sequence[Seat]) -> None:
    """Add a finished match to its competitors' statistics, ratings and results.

    Call it once per match, in a transaction, after its last score lines are written: as it
    ends, or as its round closes (`record_when_final`). A private match is listed among its
    players' results (for those who may see it) but counts in no statistics and no rating:
    they are public.
    """
    fields = ("hand_number", "seat", "score", "shot_moon", "took_queen")
    lines = list(ScoreLine.objects.filter(match_id=match.pk).values_list(*fields))
    if any(line[4] is None for line in lines):
        # Hands closed before the Q♠ was recorded (a match that spanned the upgrade): read it
        # from the log, as the rebuild would, so both give the same figures.
        fill_missing_queens(match)
        lines = list(ScoreLine.objects.filter(match_id=match.pk).values_list(*fields))
    figures = figures_of(match, seats, lines)
    mine = _by_competitor(seats, figures)
    rated = results.is_rated(match, seats)
    stats = _rows(set(mine), figures.players)
    competitors = {key: row.competitor for key, row in stats.items()}

    if not match.is_private:
        for key, row in stats.items():
            _add_statistics(row, mine[key], figures.players, rated)
        _write(TableSizeStats, stats.values(), STATS_FIELDS)
    if rated:
        _rate(seats, competitors)

    assert match.finished_at is not None, "the match has not finished"
    MatchResult.objects.bulk_create(
        MatchResult(
            competitor=competitor,
            match_id=match.pk,
            players=figures.players,
            place=mine[key].best.place,
            total=mine[key].best.total,
            left=all(fig.left for fig in mine[key].seats),
            ended_at=match.finished_at,
            rating=competitor.rating if rated else None,
            mu=competitor.mu if rated else None,
            sigma=competitor.sigma if rated else None,
            rated_no=competitor.rated_matches if rated else None,
        )
        for key, competitor in competitors.items()
    )
    if match.recorded_at is None:  # the rebuild keeps when each match was first counted
        match.recorded_at = clock.now()
        Match.objects.filter(pk=match.pk).update(recorded_at=match.recorded_at)


def queen_takers_from_log(match: Match) -> dict[int, int | None]:
    """Replay a match's log through the engine, hand by hand: who took the Q♠ in each hand."""
    rules = match.rule_set
    state = engine.Match.new(rules)
    by_hand: dict[int, list[Action]] = {}
    for action in Action.objects.filter(match=match).order_by("hand__number", "seq"):
        by_hand.setdefault(action.hand_id, []).append(action)
    takers: dict[int, int | None] = {}
    for hand in Hand.objects.filter(match=match).order_by("number"):
        state.start_hand(engine.Deal.from_dict(rules, hand.deal))
        for action in by_hand.get(hand.pk, []):
            state.apply(action.as_decision())
        if state.phase in (engine.HAND_OVER, engine.FINISHED):
            takers[hand.number] = queen_taker(state.public_view().tricks)
    return takers


def fill_missing_queens(match: Match) -> None:
    """Record who took the Q♠ on score lines written before it was recorded, from the log."""
    lines = list(ScoreLine.objects.filter(match=match))
    if all(line.took_queen is not None for line in lines):
        return
    takers = queen_takers_from_log(match)
    for line in lines:
        line.took_queen = takers.get(line.hand_number) == line.seat
    ScoreLine.objects.bulk_update(lines, ["took_queen"])


def rebuild() -> int:
    """Forget every figure and add up again every finished match, in the order they ended.

    One transaction: pages see the old figures or the new, never a half-rebuilt mixture.
    Return the number of matches counted.
    """
    count = 0
    with transaction.atomic():
        MatchResult.objects.all().delete()
        TableSizeStats.objects.all().delete()
        Competitor.objects.all().delete()
        # In the order they were recorded: as they ended, or as their round closed.
        finished = Match.objects.filter(
            status=MatchStatus.FINISHED, recorded_at__isnull=False
        ).order_by("recorded_at", "finished_at", "pk")
        for match in finished.iterator(chunk_size=500):
            fill_missing_queens(match)
            seats = list(Seat.objects.filter(match=match))
            record_finished_match(match, seats)
            count += 1
    return count
