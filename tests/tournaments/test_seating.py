"""Seating a round: table sizes for every count, the first-round shuffle, Swiss without repeats."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from games.tournaments.seating import (
    MAX_TABLE,
    MIN_TABLE,
    SeatingError,
    pairs_at,
    repeat_meetings,
    seat_round,
    table_sizes,
)

COUNTS = range(3, 61)
PREFERRED = range(MIN_TABLE, MAX_TABLE + 1)


def distance(sizes: list[int], preferred: int) -> int:
    """Sum over entrants of how far their table's size is from the preferred size."""
    return sum(size * abs(size - preferred) for size in sizes)


def even_splits(entrants: int) -> list[list[int]]:
    """List every split into tables of 3..7 whose sizes differ by at most one, largest first."""
    splits = []
    for small in PREFERRED:
        for larger in range(entrants // (small + 1) + 1):
            rest = entrants - larger * (small + 1)
            if rest % small == 0 and (small < MAX_TABLE or larger == 0):
                split = [small + 1] * larger + [small] * (rest // small)
                if split and split not in splits:
                    splits.append(split)
    return splits


def swiss_cut(order: list[int], sizes: list[int]) -> list[list[int]]:
    """Cut entrants in standings order into consecutive tables."""
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def as_sets(tables: list[list[int]]) -> list[frozenset[int]]:
    """Forget seat order."""
    return [frozenset(t) for t in tables]


# Table sizes


@pytest.mark.parametrize(
    ("entrants", "preferred", "sizes"),
    [
        (10, 4, [4, 3, 3]),
        (5, 4, [5]),
        (8, 4, [4, 4]),
        (9, 4, [5, 4]),
        (8, 7, [4, 4]),
        (12, 5, [6, 6]),
    ],
)
def test_table_sizes_follow_the_preferred_size(entrants: int, preferred: int, sizes) -> None:
    assert table_sizes(entrants, preferred) == sizes


@pytest.mark.parametrize("preferred", PREFERRED)
def test_table_sizes_are_valid_even_and_closest_to_the_preferred_size(preferred: int) -> None:
    for entrants in COUNTS:
        sizes = table_sizes(entrants, preferred)
        assert sum(sizes) == entrants
        assert all(MIN_TABLE <= size <= MAX_TABLE for size in sizes)
        assert max(sizes) - min(sizes) <= 1
        assert sizes == sorted(sizes, reverse=True)
        candidates = even_splits(entrants)
        assert sizes in candidates
        closest = min(distance(split, preferred) for split in candidates)
        assert distance(sizes, preferred) == closest
        tied = [split for split in candidates if distance(split, preferred) == closest]
        assert len(sizes) == min(len(split) for split in tied)


@pytest.mark.parametrize("preferred", PREFERRED)
def test_a_multiple_of_the_preferred_size_gets_tables_of_exactly_that_size(preferred) -> None:
    for tables in range(1, 60 // preferred + 1):
        assert table_sizes(tables * preferred, preferred) == [preferred] * tables


@pytest.mark.parametrize("entrants", [0, 1, 2])
def test_it_refuses_fewer_than_three_entrants(entrants: int) -> None:
    with pytest.raises(SeatingError, match="at least 3 active entrants"):
        table_sizes(entrants, 4)
    with pytest.raises(SeatingError, match="at least 3 active entrants"):
        seat_round(range(entrants), 4)


@pytest.mark.parametrize("preferred", [0, 2, 8])
def test_it_refuses_a_preferred_size_outside_three_to_seven(preferred: int) -> None:
    with pytest.raises(SeatingError, match="from 3 to 7"):
        table_sizes(12, preferred)
    with pytest.raises(SeatingError, match="from 3 to 7"):
        seat_round(range(12), preferred)


def test_it_refuses_an_entrant_listed_twice() -> None:
    with pytest.raises(SeatingError, match="more than once: 7"):
        seat_round([1, 7, 3, 7, 5], 4)


# Round one


@pytest.mark.parametrize("preferred", PREFERRED)
def test_every_entrant_is_seated_exactly_once_at_valid_tables(preferred: int) -> None:
    for entrants in COUNTS:
        ids = [100 + 3 * i for i in range(entrants)]
        tables = seat_round(ids, preferred, seed=entrants)
        assert [len(t) for t in tables] == table_sizes(entrants, preferred)
        assert sorted(e for t in tables for e in t) == ids


def test_round_one_is_a_deterministic_shuffle_by_seed() -> None:
    ids = list(range(1, 25))
    first = seat_round(ids, 4, seed=5)
    assert seat_round(ids, 4, seed=5) == first
    assert seat_round(list(reversed(ids)), 4, seed=5) == first
    assert seat_round(ids, 4, seed=6) != first
    assert as_sets(first) != as_sets(swiss_cut(ids, [4] * 6))


def test_seat_order_within_a_table_is_shuffled_too() -> None:
    order = list(range(20))
    seat_zero = {seat_round(order, 5, ranking=order, seed=seed)[0][0] for seed in range(20)}
    assert len(seat_zero) > 1


def test_the_pair_helpers_count_meetings_at_tables() -> None:
    tables = [[1, 2, 3], [4, 5, 6]]
    assert pairs_at(tables) == Counter(
        {frozenset(p): 1 for t in tables for p in combinations(t, 2)}
    )
    met = {frozenset({1, 2}): 2, frozenset({4, 6}): 1, frozenset({1, 4}): 5}
    assert repeat_meetings(tables, met) == 3


# Later rounds


def test_without_history_round_two_is_the_swiss_cut_of_the_standings() -> None:
    ranking = random.Random(3).sample(range(50, 80), 30)
    tables = seat_round(range(50, 80), 4, ranking=ranking, met={}, seed=1)
    assert as_sets(tables) == as_sets(swiss_cut(ranking, table_sizes(30, 4)))


def test_top_players_share_a_table_when_they_have_not_met() -> None:
    ranking = list(range(16))
    round_one = [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]]
    tables = seat_round(ranking, 4, met=pairs_at(round_one), ranking=ranking)
    assert as_sets(tables) == as_sets(swiss_cut(ranking, [4, 4, 4, 4]))


def test_a_forced_move_trades_places_with_the_nearest_player_in_the_standings() -> None:
    ranking = list(range(12))
    tables = seat_round(ranking, 4, met={frozenset({0, 1}): 1}, ranking=ranking)
    assert as_sets(tables) == as_sets([[0, 2, 3, 4], [1, 5, 6, 7], [8, 9, 10, 11]])


def test_entrants_missing_from_the_ranking_are_seated_last() -> None:
    tables = seat_round([1, 2, 3, 4, 5, 6, 7, 8], 4, ranking=[8, 7, 6], met={})
    assert as_sets(tables) == as_sets([[8, 7, 6, 1], [2, 3, 4, 5]])


def test_meetings_and_standings_of_players_no_longer_entered_are_ignored() -> None:
    met = {frozenset({1, 99}): 3, frozenset({2, 98}): 1}
    tables = seat_round([1, 2, 3, 4, 5, 6], 3, ranking=[99, 1, 98, 2, 3, 4, 5, 6], met=met)
    assert as_sets(tables) == as_sets([[1, 2, 3], [4, 5, 6]])


def test_later_rounds_are_deterministic() -> None:
    first = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]
    ranking = random.Random(1).sample(range(16), 16)
    met = pairs_at(first)
    again = seat_round(range(16), 4, met=met, ranking=ranking, seed=2)
    backwards = dict(reversed(list(met.items())))
    assert seat_round(range(15, -1, -1), 4, met=backwards, ranking=ranking, seed=2) == again
    assert seat_round(range(16), 4, met=met, ranking=ranking, seed=3) != again


@pytest.mark.parametrize("preferred", PREFERRED)
def test_round_two_has_no_repeats_whenever_that_is_possible(preferred: int) -> None:
    # Dealing round one's tables out one after another, round-robin over the tables, seats no
    # two of them together when no table is larger than the number of tables; otherwise the
    # largest table must hold two players from one round-one table (pigeonhole).
    for entrants in COUNTS:
        round_one = seat_round(range(entrants), preferred, seed=entrants)
        ranking = random.Random(entrants).sample(range(entrants), entrants)
        tables = seat_round(range(entrants), preferred, met=pairs_at(round_one), ranking=ranking)
        possible = max(map(len, round_one)) <= len(round_one)
        assert (repeat_meetings(tables, pairs_at(round_one)) == 0) == possible, entrants


def galois_tables(order: int, size: int, round_: int) -> list[list[int]]:
    """Return round `round_` of a schedule of `order` tables of `size` where no pair meets twice.

    Player (x, y) sits at table x + round * y over the field of `order` elements: two players
    with different y meet in exactly one round, two with the same y never.
    """
    if order == 4:  # GF(4): addition is xor, multiplication by table
        times = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]

        def table_of(x: int, y: int) -> int:
            return x ^ times[round_][y]
    else:  # a prime

        def table_of(x: int, y: int) -> int:
            return (x + round_ * y) % order

    tables: list[list[int]] = [[] for _ in range(order)]
    for x in range(order):
        for y in range(size):
            tables[table_of(x, y)].append(x * size + y)
    return tables


SCHEDULES = [
    (order, size)
    for order in (3, 4, 5, 7, 11, 13, 17, 19)
    for size in PREFERRED
    if size <= order and order * size <= 60
]


@pytest.mark.parametrize(("order", "size"), SCHEDULES)
def test_the_constructed_schedules_never_seat_a_pair_together_twice(order, size) -> None:
    rounds = [galois_tables(order, size, number) for number in range(order)]
    assert all(sorted(map(len, tables)) == [size] * order for tables in rounds)
    assert max(sum((pairs_at(tables) for tables in rounds), Counter()).values()) == 1


@pytest.mark.parametrize(("order", "size"), SCHEDULES)
def test_rounds_two_and_three_have_no_repeats_when_a_schedule_allows(order, size) -> None:
    entrants = order * size
    met: Counter[frozenset[int]] = Counter()
    for number in range(3):
        if number:
            ranking = random.Random(number).sample(range(entrants), entrants)
            tables = seat_round(range(entrants), size, met=met, ranking=ranking, seed=number)
            assert repeat_meetings(tables, met) == 0, number + 1
        met.update(pairs_at(galois_tables(order, size, number)))


@pytest.mark.parametrize("order", [3, 4, 5, 7])
def test_the_one_seating_left_without_repeats_is_found(order: int) -> None:
    # order * order players: the rounds above and one more (by y) meet every pair exactly once,
    # so after all but the last only the last seats nobody together again.
    entrants = order * order
    schedule = [galois_tables(order, order, number) for number in range(order)]
    schedule.append([[x * order + y for x in range(order)] for y in range(order)])
    assert sum((pairs_at(tables) for tables in schedule), Counter()) == Counter(
        {frozenset(pair): 1 for pair in combinations(range(entrants), 2)}
    )
    met = sum((pairs_at(tables) for tables in schedule[:-1]), Counter())
    ranking = random.Random(order).sample(range(entrants), entrants)
    tables = seat_round(range(entrants), order, met=met, ranking=ranking)
    assert repeat_meetings(tables, met) == 0
    assert sorted(as_sets(tables), key=min) == sorted(as_sets(schedule[-1]), key=min)


@pytest.mark.parametrize("preferred", PREFERRED)
def test_seating_never_has_more_repeats_than_the_plain_swiss_cut(preferred: int) -> None:
    for entrants in range(4, 61, 7):
        rng = random.Random(entrants * preferred)
        met: Counter[frozenset[int]] = Counter()
        for number in range(6):
            ranking = rng.sample(range(entrants), entrants)
            tables = seat_round(range(entrants), preferred, met=met, ranking=ranking, seed=number)
            swiss = swiss_cut(ranking, table_sizes(entrants, preferred))
            assert repeat_meetings(tables, met) <= repeat_meetings(swiss, met)
            met.update(pairs_at(tables))


def partitions(players: list[int], sizes: list[int]):
    """Yield every way to seat the players at tables of these sizes (tables of equal size alike)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for others in combinations(rest, size - 1):
            left = [p for p in rest if p not in others]
            for tail in partitions(left, left_sizes):
                yield [[first, *others], *tail]


def test_the_partitions_cover_every_seating_once() -> None:
    # 9 players at tables of 4, 3 and 2: 9! / (4! 3! 2!) ways, no two alike.
    seatings = [as_sets(s) for s in partitions(list(range(9)), [4, 3, 2])]
    assert len(seatings) == len({frozenset(s) for s in seatings}) == 1260


@pytest.mark.parametrize("entrants", range(6, 11))
def test_small_rounds_reach_the_fewest_repeats_possible(entrants: int) -> None:
    for preferred in PREFERRED:
        sizes = table_sizes(entrants, preferred)
        if len(sizes) < 2:
            continue
        everyone = list(range(entrants))
        seatings = list(partitions(everyone, sizes))
        for trial in range(4):
            rng = random.Random(trial)
            met = Counter(
                {frozenset(p): rng.choice([0, 1, 1, 2]) for p in combinations(everyone, 2)}
            )
            fewest = min(repeat_meetings(s, met) for s in seatings)
            tables = seat_round(everyone, preferred, met=met, ranking=everyone, seed=trial)
            assert repeat_meetings(tables, met) == fewest


def test_sixty_entrants_are_seated_once_each_and_alike_every_round_for_ten_rounds() -> None:
    # How long this takes is measured by bench/seating_bench.py, not asserted here.
    for preferred in (4, 7):
        met: Counter[frozenset[int]] = Counter()
        for number in range(10):
            ranking = random.Random(number).sample(range(60), 60) if number else None
            tables = seat_round(range(60), preferred, met=met, ranking=ranking, seed=number)
            assert sorted(sum(tables, [])) == list(range(60))
            assert tables == seat_round(range(60), preferred, met=met, ranking=ranking, seed=number)
            met.update(pairs_at(tables))
