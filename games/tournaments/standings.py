"""Tournament standings: placement points per table, duplicate matchpoints, cumulative order.

Pure Python (standard library only). Arithmetic is exact (fractions) so that equal records tie
exactly; the public numbers are floats.

Placement points: at a table of n, place k (1 = lowest total; a player who left the match is
placed after everyone who stayed, as the match stored it) is worth (n - k) / (n - 1), so the
winner scores 1 and the last place 0 at every table size from 3 to 7, and the places between are
evenly spaced. Players with equal totals share the average of the places they span: two co-winners
at a table of 4 each get (1 + 2/3) / 2 = 5/6.

Matchpoints (duplicate deals): tables with the same deal group played the same deals seat for
seat. Each entrant is compared with every entrant who sat in the same seat position at another
table of the group: 1 for a lower total, 1/2 for an equal one, 0 for a higher one. The number of
comparisons is the matchpoints available.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction


def gettext_noop(message: str) -> str:
    """Mark a message for the site's translation catalogues (makemessages looks for this name)
    and return it unchanged: this module imports nothing from Django, the page that shows the
    message translates it."""
    return message


TIE_BREAKS: tuple[str, ...] = (
    gettext_noop(
        "Placement points, higher first: at each table the winner scores 1 and the last place "
        "0, the places between evenly spaced, and tied players share the places they span."
    ),
    gettext_noop(
        "Matchpoint percentage, higher first: with duplicate deals, the share of comparisons "
        "won against players who held the same cards at other tables (no comparison counts "
        "as 50%)."
    ),
    gettext_noop("Rounds played, more first."),
    gettext_noop("Total points, lower first."),
)

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class TableResult:
    """The final totals of one table of one round."""

    round: int  # 1-based round number
    table: int  # 1-based table number within the round
    seats: tuple[int, ...]  # entrant id per seat position
    totals: tuple[int, ...]  # final match total per seat position (lower is better in Hearts)
    deal_group: str | None = None  # tables with the same non-None group played the same deals
    # Each seat's place at its table as the match stored it (1 = first; players who left the
    # match come after everyone who stayed). Without it, places come from the totals alone.
    places: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        """Store seats, totals and places as tuples and refuse a malformed table."""
        object.__setattr__(self, "seats", tuple(self.seats))
        object.__setattr__(self, "totals", tuple(self.totals))
        object.__setattr__(self, "places", tuple(self.places) or tuple(places(self.totals)))
        where = f"Round {self.round} table {self.table}"
        if len(self.seats) != len(self.totals):
            raise ValueError(f"{where} has {len(self.seats)} seats but {len(self.totals)} totals.")
        if len(self.places) != len(self.seats):
            raise ValueError(f"{where} has {len(self.seats)} seats but {len(self.places)} places.")
        if len(self.seats) < 2:
            raise ValueError(f"{where} needs at least 2 seats.")
        if len(set(self.seats)) != len(self.seats):
            raise ValueError(f"{where} seats an entrant twice.")


def places(totals: Sequence[int]) -> list[int]:
    """Return each seat's place at its table, 1 for the lowest total; ties share the best place."""
    return [1 + sum(1 for other in totals if other < total) for total in totals]


def _spans(places: Sequence[int]) -> list[tuple[int, int]]:
    """Return each seat's (first, last) place spanned, 1-based: a place shared by k seats
    spans k places."""
    return [(place, place + places.count(place) - 1) for place in places]


def _placement(places: Sequence[int]) -> list[Fraction]:
    """Return each seat's exact placement points, from its place at the table."""
    n = len(places)
    if n < 2:
        raise ValueError("Placement points need at least 2 seats.")
    points = []
    for first, last in _spans(places):
        spanned = [Fraction(n - k, n - 1) for k in range(first, last + 1)]
        points.append(sum(spanned, Fraction(0)) / len(spanned))
    return points


def placement_points(totals: Sequence[int], table_places: Sequence[int] = ()) -> list[float]:
    """Return each seat's placement points at its table; ties share the places they span.

    The places are the table's stored ones if given, else those of the totals alone.
    """
    return [float(p) for p in _placement(table_places or places(totals))]


def _matchpoints(results: Sequence[TableResult]) -> dict[int, tuple[Fraction, int]]:
    """Return each entrant's exact (matchpoints, available) across duplicate tables."""
    earned: dict[int, Fraction] = defaultdict(Fraction)
    available: dict[int, int] = defaultdict(int)
    groups: dict[str, list[TableResult]] = defaultdict(list)
    for result in results:
        for entrant in result.seats:
            earned[entrant] += 0
            available[entrant] += 0
        if result.deal_group is not None:
            groups[result.deal_group].append(result)
    for name, tables in groups.items():
        if len({len(t.seats) for t in tables}) > 1:
            raise ValueError(f"Deal group {name} mixes tables of different sizes.")
        if len({t.round for t in tables}) > 1:
            raise ValueError(f"Deal group {name} spans more than one round.")
        for table in tables:
            for others in tables:
                if others is table:
                    continue
                for seat, entrant in enumerate(table.seats):
                    mine, theirs = table.totals[seat], others.totals[seat]
                    earned[entrant] += 1 if mine < theirs else HALF if mine == theirs else 0
                    available[entrant] += 1
    return {e: (earned[e], available[e]) for e in earned}


def matchpoints(results: Sequence[TableResult]) -> dict[int, tuple[float, int]]:
    """Return each entrant's (matchpoints earned, matchpoints available) across duplicate tables."""
    return {e: (float(mp), n) for e, (mp, n) in _matchpoints(results).items()}


@dataclass(frozen=True)
class Standing:
    """One entrant's cumulative record and rank."""

    entrant: int
    rank: int  # shared by entrants equal on every tie-break
    placement: float  # sum of placement points
    matchpoints: float
    available: int  # matchpoints available (0 without duplicate deals)
    points: int  # sum of final totals (lower is better)
    rounds: int  # rounds played

    @property
    def matchpoint_percent(self) -> float | None:
        """Return the share of matchpoints won, in percent, or None without comparisons."""
        if not self.available:
            return None
        return 100 * self.matchpoints / self.available


def _check_unique(results: Iterable[TableResult]) -> None:
    """Refuse a table listed twice or an entrant seated twice in one round."""
    tables: set[tuple[int, int]] = set()
    seated: set[tuple[int, int]] = set()
    for result in results:
        if (result.round, result.table) in tables:
            raise ValueError(f"Round {result.round} table {result.table} is listed twice.")
        tables.add((result.round, result.table))
        for entrant in result.seats:
            if (result.round, entrant) in seated:
                raise ValueError(f"Entrant {entrant} sits twice in round {result.round}.")
            seated.add((result.round, entrant))


def standings(results: Sequence[TableResult], entrants: Sequence[int] = ()) -> list[Standing]:
    """Return cumulative standings, best first, with the tie-breaks in TIE_BREAKS.

    Entrants equal on every tie-break share a rank (1, 2, 2, 4) and are listed by id. Entrants
    in `entrants` without results come last with zeros.
    """
    _check_unique(results)
    placement: dict[int, Fraction] = defaultdict(Fraction)
    points: dict[int, int] = defaultdict(int)
    rounds: dict[int, int] = defaultdict(int)
    for result in results:
        for entrant, total, share in zip(
            result.seats, result.totals, _placement(result.places), strict=True
        ):
            placement[entrant] += share
            points[entrant] += total
            rounds[entrant] += 1
    duplicate = _matchpoints(results)
    everyone = set(rounds) | set(entrants)

    def key(entrant: int) -> tuple[object, ...]:
        earned, available = duplicate.get(entrant, (Fraction(0), 0))
        percent = earned / available if available else HALF
        # Sorting ascending, so negate what is better when higher.
        played = rounds[entrant] > 0
        return (not played, -placement[entrant], -percent, -rounds[entrant], points[entrant])

    ordered = sorted(everyone, key=lambda e: (key(e), e))
    table: list[Standing] = []
    for position, entrant in enumerate(ordered, start=1):
        earned, available = duplicate.get(entrant, (Fraction(0), 0))
        tied = position > 1 and key(ordered[position - 2]) == key(entrant)
        table.append(
            Standing(
                entrant=entrant,
                rank=table[-1].rank if tied else position,
                placement=float(placement[entrant]),
                matchpoints=float(earned),
                available=available,
                points=points[entrant],
                rounds=rounds[entrant],
            )
        )
    return table
