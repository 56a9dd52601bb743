"""Seat a tournament round: table sizes, a first-round shuffle, and Swiss rounds without repeats.

Pure Python (standard library only), so the rules can be tested exhaustively and reused anywhere.

Table sizes: among the ways to split the entrants into tables of 3 to 7 whose sizes differ by at
most one, take the one where the entrants sit closest to the preferred size, measured as the sum
over entrants of |their table's size - preferred|; on a tie, fewer tables. Tables are listed
largest first. See `table_sizes`.

Round one (no ranking) shuffles the entrants by the seed and cuts them into tables. Later rounds
are Swiss: the entrants in standings order (entrants missing from the ranking last, by id) are cut
into tables, the top table first. If that seats anyone with someone they have met before, the
search below moves players between tables (table sizes never change). Its aims are strictly
ordered:
1. fewest repeat meetings: the sum over pairs at a table of how often they met before;
2. closest to the Swiss cut: the sum over entrants of (2 * place in the standings - first place
   - last place of their table's group in the cut) squared. The cut itself is the minimum (by
   the rearrangement inequality), and moving a player to a nearer table, or trading places with
   a player nearer in the standings, costs less.
The search: seat table by table from the top, each table taking the best-placed players who have
not met those already there (kept only if it has no more repeats than the cut); then swap pairs of
players between tables while a swap improves (best swap first); while repeats remain, a tabu
search swaps a player who meets someone again with any player at another table (the best swap by
the aims above, even a worse one; a player may not go back to a table it just left for 3 to 6
steps), weighing at most TABU_EVALUATIONS candidate swaps per entrant, or TABU_STALL per entrant
without finding fewer repeats; the best seating it saw is improved by swaps once more. Seats
within each table are then shuffled by the seed, so seat 0 is not the best player. The same
inputs and seed give the same tables.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

MIN_TABLE, MAX_TABLE = 3, 7

# Candidate swaps the tabu search may weigh per entrant, in all and without finding fewer repeats:
# they bound the time (about 0.15 s of CPU for 60 entrants) when repeats cannot all be avoided.
TABU_EVALUATIONS = 10_000
TABU_STALL = 5_000
TABU_TENURE = (3, 6)  # steps a player may not return to the table it left, drawn from this range


class SeatingError(ValueError):
    """Why entrants cannot be seated (message is shown to staff)."""


def _even_split(entrants: int, tables: int) -> list[int]:
    """Split entrants into this many tables whose sizes differ by at most one, largest first."""
    base, extra = divmod(entrants, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _distance(sizes: Sequence[int], preferred: int) -> int:
    """Sum over entrants of how far their table's size is from the preferred size."""
    return sum(size * abs(size - preferred) for size in sizes)


def _check_preferred(preferred: int, smallest: int, largest: int) -> None:
    """Refuse a preferred table size outside the playable range."""
    if not smallest <= preferred <= largest:
        raise SeatingError(
            f"The preferred table size must be from {smallest} to {largest}, not {preferred}."
        )


def table_sizes(
    entrants: int, preferred: int, smallest: int = MIN_TABLE, largest: int = MAX_TABLE
) -> list[int]:
    """Split entrants into tables of 3..7 (or `smallest`..`largest`, as a variant allows), as
    even as possible around `preferred`, largest first.

    Candidates are the even splits (sizes differ by at most one, all within the range) into any
    number of tables; the winner minimises the sum over entrants of |table size - preferred|, and
    on a tie has fewer tables. So 10 at 4 gives [4, 3, 3] (distance 6, against 10 for [5, 5]);
    9 at 4 gives [5, 4]; 5 at 4 gives [5]; 8 at 4 gives [4, 4].
    """
    _check_preferred(preferred, smallest, largest)
    if entrants < smallest:
        raise SeatingError(
            f"A round needs at least {smallest} active entrants; there are {entrants}."
        )
    best: list[int] | None = None
    for tables in range(1, entrants // smallest + 1):
        sizes = _even_split(entrants, tables)
        if sizes[0] > largest or sizes[-1] < smallest:
            continue
        if best is None or _distance(sizes, preferred) < _distance(best, preferred):
            best = sizes
    # An even split exists for every count from `smallest` when largest >= 2 * smallest - 1
    # (3..7 and 5..10 both): ceil(n / largest) tables gives one.
    assert best is not None
    return best


def pairs_at(tables: Iterable[Sequence[int]]) -> Counter[frozenset[int]]:
    """Count each pair of entrants seated at the same table."""
    return Counter(frozenset(pair) for table in tables for pair in combinations(table, 2))


def repeat_meetings(tables: Iterable[Sequence[int]], met: Mapping[frozenset[int], int]) -> int:
    """Count the pairs at these tables who have met before (weighted by how often)."""
    return sum(met.get(pair, 0) * count for pair, count in pairs_at(tables).items())


def _order(entrants: Sequence[int], ranking: Sequence[int] | None, rng: random.Random) -> list[int]:
    """Return the entrants in the order the tables are cut from: shuffled, or by the standings."""
    if ranking is None:
        order = sorted(entrants)
        rng.shuffle(order)
        return order
    present = set(entrants)
    seen: set[int] = set()
    ranked = []
    for entrant in ranking:
        if entrant in present and entrant not in seen:
            seen.add(entrant)
            ranked.append(entrant)
    # Entrants without a standing (late entries) go last, in a stable order.
    return ranked + sorted(present - seen)


def seat_round(
    entrants: Sequence[int],
    preferred: int,
    *,
    met: Mapping[frozenset[int], int] | None = None,
    ranking: Sequence[int] | None = None,
    seed: int = 0,
    sizes_allowed: range = range(MIN_TABLE, MAX_TABLE + 1),
) -> list[list[int]]:
    """Return the tables of a round: each a list of entrant ids in seat order (position 0 first).

    `sizes_allowed`: the table sizes the tournament's game allows (3..7, or 5..10 for two decks).
    """
    if len(set(entrants)) != len(entrants):
        twice = sorted(e for e, n in Counter(entrants).items() if n > 1)
        raise SeatingError(f"Entrants listed more than once: {', '.join(map(str, twice))}.")
    sizes = table_sizes(len(entrants), preferred, sizes_allowed[0], sizes_allowed[-1])
    rng = random.Random(seed)
    order = _order(entrants, ranking, rng)
    search = _Search(sizes, order, met or {}, rng)
    if search.repeats:
        search.run()
    tables = search.tables()
    for table in tables:
        rng.shuffle(table)
    return tables


class _Search:
    """Swap players between tables: fewest repeat meetings first, then closest to the Swiss cut.

    Players are numbered by their place in `order` (0 is the best), so a number is also a rank.
    """

    def __init__(
        self,
        sizes: Sequence[int],
        order: Sequence[int],
        met: Mapping[frozenset[int], int],
        rng: random.Random,
    ) -> None:
        self.order = list(order)
        self.rng = rng
        n = len(order)
        # Start from the Swiss cut; a table's centre is its first plus its last place.
        self.where: list[int] = []
        self.centre: list[int] = []
        for table, size in enumerate(sizes):
            self.centre.append(2 * len(self.where) + size - 1)
            self.where += [table] * size
        index = {e: i for i, e in enumerate(order)}
        self.weight: list[dict[int, int]] = [{} for _ in range(n)]
        for pair, times in met.items():
            if len(pair) == 2 and times > 0 and all(e in index for e in pair):
                a, b = (index[e] for e in pair)
                self.weight[a][b] = self.weight[b][a] = times
        self.scale = 4 * n**3 + 1  # more than any Swiss cost, so repeats always weigh more
        self._load(self.where)

    def _load(self, where: Sequence[int]) -> None:
        """Seat everyone as given and recount who has met whom at each table."""
        self.where = list(where)
        # clash[i][t]: how often player i has met the players now at table t.
        self.clash = [[0] * len(self.centre) for _ in self.where]
        for i, others in enumerate(self.weight):
            row = self.clash[i]
            for j, times in others.items():
                row[self.where[j]] += times
        self.repeats = sum(row[t] for row, t in zip(self.clash, self.where, strict=True)) // 2

    def tables(self) -> list[list[int]]:
        """Return the entrants at each table, best placed first."""
        tables: list[list[int]] = [[] for _ in self.centre]
        for i, table in enumerate(self.where):
            tables[table].append(self.order[i])
        return tables

    def gain(self, i: int, j: int) -> tuple[int, int]:
        """Return the change in (repeats, Swiss cost) if players i and j swapped tables."""
        ti, tj = self.where[i], self.where[j]
        ci, cj = self.clash[i], self.clash[j]
        repeats = ci[tj] - ci[ti] + cj[ti] - cj[tj] - 2 * self.weight[i].get(j, 0)
        # (2i - c)^2 summed over both players, before and after, reduces to this.
        return repeats, 4 * (i - j) * (self.centre[ti] - self.centre[tj])

    def swap(self, i: int, j: int) -> None:
        """Swap players i and j between their tables, keeping the clash counts current."""
        ti, tj = self.where[i], self.where[j]
        self.repeats += self.gain(i, j)[0]
        self.where[i], self.where[j] = tj, ti
        for other, times in self.weight[i].items():
            row = self.clash[other]
            row[ti] -= times
            row[tj] += times
        for other, times in self.weight[j].items():
            row = self.clash[other]
            row[tj] -= times
            row[ti] += times

    def descend(self) -> None:
        """Make the best improving swap until none improves (repeats first, then Swiss)."""
        n, scale = len(self.where), self.scale
        while True:
            best, move = 0, None
            for i in range(n):
                for j in range(i + 1, n):
                    if self.where[i] != self.where[j]:
                        repeats, swiss = self.gain(i, j)
                        if repeats * scale + swiss < best:
                            best, move = repeats * scale + swiss, (i, j)
            if move is None:
                return
            self.swap(*move)

    def tabu(self) -> None:
        """Escape local minima of repeats by a tabu search over swaps of clashing players.

        Each step makes the best allowed swap even when it is worse, ties broken by the seeded
        random generator; the best seating seen, by repeats and then Swiss cost, is kept.
        """
        n = len(self.where)
        best = (self.repeats, self.swiss())
        best_where = list(self.where)
        # tabu_until[i][t]: until which step player i may not return to table t.
        tabu_until = [[-1] * len(self.centre) for _ in range(n)]
        step = 0
        where, clash, weight = self.where, self.clash, self.weight
        scale, centre = self.scale, self.centre
        spent = since_best = 0
        while spent < TABU_EVALUATIONS * n and since_best < TABU_STALL * n and best[0]:
            step += 1
            clashing = [i for i in range(n) if clash[i][where[i]]]
            spent += len(clashing) * n
            since_best += len(clashing) * n
            choice, moves = None, []
            for i in clashing:
                ti, ci, met_i = where[i], clash[i], weight[i]
                stay = ci[ti]
                i_tabu = tabu_until[i]
                for j, tj in enumerate(where):
                    if tj == ti:
                        continue
                    cj = clash[j]
                    # The change in repeats, as in gain(), inlined: this loop is the hot spot.
                    repeats = ci[tj] - stay + cj[ti] - cj[tj] - 2 * met_i.get(j, 0)
                    # A tabu swap is allowed when it beats the best seating found so far.
                    if (
                        i_tabu[tj] >= step or tabu_until[j][ti] >= step
                    ) and self.repeats + repeats >= best[0]:
                        continue
                    key = repeats * scale + 4 * (i - j) * (centre[ti] - centre[tj])
                    if choice is None or key < choice:
                        choice, moves = key, [(i, j)]
                    elif key == choice:
                        moves.append((i, j))
            if not moves:
                continue  # everyone who could move is tabu; wait for a tenure to end
            i, j = moves[self.rng.randrange(len(moves))]
            self.swap(i, j)
            tabu_until[i][where[j]] = step + self.rng.randint(*TABU_TENURE)
            tabu_until[j][where[i]] = step + self.rng.randint(*TABU_TENURE)
            if self.repeats <= best[0] and (self.repeats, self.swiss()) < best:
                if self.repeats < best[0]:
                    since_best = 0
                best, best_where = (self.repeats, self.swiss()), list(self.where)
        self._load(best_where)

    def swiss(self) -> int:
        """Return the Swiss cost: how far players sit from their place in the standings."""
        centre = self.centre
        return sum((2 * i - centre[t]) ** 2 for i, t in enumerate(self.where))

    def greedy(self) -> None:
        """Seat table by table, each taking the best-placed players who have not met its others."""
        sizes = Counter(self.where)
        left = list(range(len(self.where)))
        where = [0] * len(self.where)
        for table in range(len(self.centre)):
            seated: list[int] = []
            for i in left:
                if len(seated) == sizes[table]:
                    break
                if not any(j in self.weight[i] for j in seated):
                    seated.append(i)
            for i in left:  # too few strangers: fill with the best placed
                if len(seated) == sizes[table]:
                    break
                if i not in seated:
                    seated.append(i)
            for i in seated:
                where[i] = table
            left = [i for i in left if i not in seated]
        candidate = (list(self.where), self.repeats)
        self._load(where)
        if self.repeats > candidate[1]:
            self._load(candidate[0])

    def run(self) -> None:
        """Seat greedily and descend; while repeats remain, tabu search and descend again."""
        self.greedy()
        self.descend()
        if self.repeats:
            self.tabu()
            self.descend()
