"""Standings: placement points at each table, duplicate matchpoints, the cumulative order."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from games.tournaments.standings import (
    TIE_BREAKS,
    Standing,
    TableResult,
    matchpoints,
    placement_points,
    places,
    standings,
)


def by_entrant(table: list) -> dict:
    """Index standings by entrant."""
    return {s.entrant: s for s in table}


# Placement points


@pytest.mark.parametrize("size", range(3, 8))
def test_placement_points_run_from_one_for_the_winner_to_zero_for_the_last(size: int) -> None:
    totals = random.Random(size).sample(range(0, 200, 7), size)
    points = placement_points(totals)
    for seat, total in enumerate(totals):
        place = sorted(totals).index(total) + 1
        assert points[seat] == pytest.approx((size - place) / (size - 1))
    assert max(points) == 1
    assert min(points) == 0


def test_tied_seats_share_the_places_they_span() -> None:
    assert placement_points([10, 10, 30, 40]) == pytest.approx([5 / 6, 5 / 6, 1 / 3, 0])
    assert placement_points([0, 5, 9, 9]) == pytest.approx([1, 2 / 3, 1 / 6, 1 / 6])
    assert placement_points([7, 7, 7]) == pytest.approx([0.5, 0.5, 0.5])
    assert placement_points([20, 3, 20, 3, 11]) == pytest.approx([1 / 8, 7 / 8, 1 / 8, 7 / 8, 0.5])


@pytest.mark.parametrize("size", range(3, 8))
def test_every_table_hands_out_the_same_share_per_player(size: int) -> None:
    rng = random.Random(size)
    for _ in range(50):
        totals = [rng.randrange(0, 6) * 13 for _ in range(size)]
        assert sum(placement_points(totals)) == pytest.approx(size / 2)


def test_places_count_from_one_and_ties_share_the_best_place() -> None:
    assert places([10, 10, 30, 40]) == [1, 1, 3, 4]
    assert places([40, 30, 30, 10, 50]) == [4, 2, 2, 1, 5]


def test_it_refuses_a_table_of_one() -> None:
    with pytest.raises(ValueError, match="at least 2 seats"):
        placement_points([12])


@pytest.mark.parametrize(
    ("seats", "totals", "message"),
    [((1, 2, 3), (10, 20), "3 seats but 2 totals"), ((1, 2, 1), (1, 2, 3), "seats an entrant")],
)
def test_it_refuses_a_malformed_table(seats, totals, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TableResult(1, 1, seats, totals)


# Matchpoints


def test_a_duplicate_pair_compares_each_seat_with_its_twin() -> None:
    results = [
        TableResult(1, 1, (1, 2, 3, 4), (10, 40, 30, 20), "1:4"),
        TableResult(1, 2, (5, 6, 7, 8), (25, 40, 10, 30), "1:4"),
    ]
    assert matchpoints(results) == {
        1: (1.0, 1),
        5: (0.0, 1),
        2: (0.5, 1),
        6: (0.5, 1),
        3: (0.0, 1),
        7: (1.0, 1),
        4: (1.0, 1),
        8: (0.0, 1),
    }


def test_a_group_of_three_tables_gives_two_comparisons_per_seat() -> None:
    results = [
        TableResult(2, 1, (1, 2, 3), (10, 20, 30), "g"),
        TableResult(2, 2, (4, 5, 6), (10, 30, 20), "g"),
        TableResult(2, 3, (7, 8, 9), (20, 10, 20), "g"),
    ]
    mp = matchpoints(results)
    assert mp[1] == (1.5, 2)  # ties table 2, beats table 3
    assert mp[7] == (0.0, 2)
    assert mp[8] == (2.0, 2)
    assert mp[2] == (1.0, 2)
    assert mp[6] == (1.5, 2)
    assert sum(earned for earned, _ in mp.values()) == sum(n for _, n in mp.values()) / 2


def test_tables_without_a_deal_group_or_alone_in_it_have_nothing_to_compare() -> None:
    results = [
        TableResult(1, 1, (1, 2, 3, 4), (10, 40, 30, 20)),
        TableResult(1, 2, (5, 6, 7), (10, 40, 30), "1:3"),
    ]
    assert all(value == (0.0, 0) for value in matchpoints(results).values())
    assert set(matchpoints(results)) == {1, 2, 3, 4, 5, 6, 7}


def test_groups_are_compared_only_within_themselves() -> None:
    results = [
        TableResult(1, 1, (1, 2, 3, 4), (10, 40, 30, 20), "1:4"),
        TableResult(1, 2, (5, 6, 7, 8), (20, 30, 40, 10), "1:4"),
        TableResult(1, 3, (9, 10, 11), (5, 5, 5), "1:3"),
        TableResult(1, 4, (12, 13, 14), (0, 9, 5), "1:3"),
        TableResult(2, 1, (1, 5, 9, 12), (1, 2, 3, 4), "2:4"),
        TableResult(2, 2, (2, 6, 10, 13), (1, 2, 3, 4), "2:4"),
    ]
    mp = matchpoints(results)
    assert mp[1] == (1.5, 2)  # beat entrant 5 in round one, tied entrant 2 in round two
    assert mp[9] == (0.5, 2)  # lost to 12 in round one, tied 10 in round two
    assert mp[11] == (0.5, 1)
    assert mp[12] == (1.5, 2)


def test_it_refuses_a_deal_group_of_different_table_sizes() -> None:
    results = [
        TableResult(1, 1, (1, 2, 3, 4), (10, 40, 30, 20), "x"),
        TableResult(1, 2, (5, 6, 7), (10, 40, 30), "x"),
    ]
    with pytest.raises(ValueError, match="Deal group x mixes"):
        matchpoints(results)


def test_it_refuses_a_deal_group_across_rounds() -> None:
    results = [
        TableResult(1, 1, (1, 2, 3), (10, 40, 30), "x"),
        TableResult(2, 1, (3, 1, 2), (10, 40, 30), "x"),
    ]
    with pytest.raises(ValueError, match="Deal group x spans more than one round"):
        standings(results)


# Cumulative standings


def test_the_tie_breaks_are_stated_in_order() -> None:
    assert [rule.split(",")[0] for rule in TIE_BREAKS] == [
        "Placement points",
        "Matchpoint percentage",
        "Rounds played",
        "Total points",
    ]


def test_standings_add_placement_points_across_mixed_table_sizes() -> None:
    results = [
        TableResult(1, 1, (1, 2, 3, 4), (50, 20, 80, 101)),
        TableResult(1, 2, (5, 6, 7), (30, 60, 45)),
        TableResult(2, 1, (2, 5, 7), (70, 10, 40)),
        TableResult(2, 2, (1, 3, 4, 6), (12, 34, 56, 78)),
    ]
    table = standings(results)
    # 2, 3 and 7 have 1 each: 1 + 0, 1/3 + 2/3 and 1/2 + 1/2; their points order them.
    assert [s.entrant for s in table] == [5, 1, 7, 2, 3, 4, 6]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6, 7]
    mine = by_entrant(table)
    assert mine[5].placement == pytest.approx(2.0)
    assert mine[1].placement == pytest.approx(2 / 3 + 1)
    assert mine[2].placement == mine[3].placement == mine[7].placement == pytest.approx(1.0)
    assert (mine[7].points, mine[2].points, mine[3].points) == (85, 90, 114)
    assert mine[4].placement == pytest.approx(1 / 3)
    assert mine[6].placement == 0
    assert (mine[1].points, mine[1].rounds) == (62, 2)
    assert mine[1].available == 0
    assert mine[1].matchpoint_percent is None


def test_equal_records_share_a_rank_and_the_next_rank_skips() -> None:
    results = [
        TableResult(1, 1, (1, 2, 3), (10, 20, 30)),
        TableResult(1, 2, (4, 5, 6), (15, 25, 35)),
        TableResult(2, 1, (1, 5, 6), (20, 10, 30)),
        TableResult(2, 2, (4, 2, 3), (25, 15, 35)),
    ]
    table = standings(results)
    # 1 and 4: a first and a second, 30 and 40 points; 2 and 5: a second and a first, 35 each.
    assert [(s.entrant, s.rank) for s in table] == [(1, 1), (2, 2), (5, 2), (4, 4), (3, 5), (6, 5)]
    assert by_entrant(table)[2].points == by_entrant(table)[5].points == 35


def test_placement_points_tie_exactly_across_table_sizes() -> None:
    # A second and a third of four (2/3 + 1/3) against two seconds of three (1/2 + 1/2).
    results = [
        TableResult(1, 1, (1, 2, 3, 4), (0, 10, 20, 30)),
        TableResult(1, 2, (5, 6, 7), (0, 10, 20)),
        TableResult(2, 1, (5, 9, 2, 8), (0, 5, 10, 30)),
        TableResult(2, 2, (1, 6, 3), (0, 10, 20)),
    ]
    mine = by_entrant(standings(results))
    assert mine[2].placement == pytest.approx(mine[6].placement)
    assert mine[2].points == mine[6].points == 20
    assert mine[2].rank == mine[6].rank


def test_matchpoint_percentage_breaks_a_tie_on_placement() -> None:
    results = [
        TableResult(1, 1, (1, 2, 3), (10, 20, 30), "g"),
        TableResult(1, 2, (4, 5, 6), (5, 60, 40), "g"),
    ]
    table = standings(results)
    assert [s.entrant for s in table] == [4, 1, 2, 6, 3, 5]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6]
    mine = by_entrant(table)
    assert mine[4].matchpoint_percent == 100
    assert mine[1].matchpoint_percent == 0


def test_no_comparison_counts_as_half_the_matchpoints() -> None:
    # Entrant 7 played a table alone in its deal group; 1 and 4 won with 0% and 100%.
    results = [
        TableResult(1, 1, (1, 2, 3), (10, 20, 30), "g"),
        TableResult(1, 2, (4, 5, 6), (5, 60, 40), "g"),
        TableResult(1, 3, (7, 8, 9), (1, 2, 3), "h"),
    ]
    order = [s.entrant for s in standings(results)]
    assert order.index(4) < order.index(7) < order.index(1)


def test_points_decide_between_equal_placement_over_as_many_rounds() -> None:
    results = [
        TableResult(1, 1, (1, 2, 3), (10, 10, 10)),
        TableResult(1, 2, (4, 5, 6), (30, 30, 30)),
        TableResult(2, 1, (1, 2, 4), (10, 10, 10)),
        TableResult(2, 2, (3, 5, 6), (50, 50, 50)),
    ]
    table = standings(results)
    # Every table tied, so everyone has 1/2 + 1/2 over two rounds.
    assert [s.entrant for s in table] == [1, 2, 4, 3, 5, 6]
    assert [s.rank for s in table] == [1, 1, 3, 4, 5, 5]


def test_more_rounds_played_ranks_first_before_points() -> None:
    results = [
        TableResult(1, 1, (1, 2, 3), (10, 20, 30)),
        TableResult(1, 2, (4, 5, 6), (40, 50, 60)),
        TableResult(2, 1, (5, 7, 8), (50, 40, 60)),
    ]
    table = standings(results)
    # 5 has 1/2 + 1/2 over two rounds, 1, 4 and 7 one win each.
    assert [s.entrant for s in table] == [5, 1, 4, 7, 2, 3, 6, 8]
    assert [s.rank for s in table] == [1, 2, 3, 3, 5, 6, 7, 7]


def test_an_entrant_withdrawn_after_round_one_keeps_their_first_round() -> None:
    results = [
        TableResult(1, 1, (1, 2, 3, 4), (10, 20, 30, 40), "1:4"),
        TableResult(1, 2, (5, 6, 7, 8), (15, 25, 35, 45), "1:4"),
        TableResult(2, 1, (2, 3, 5), (10, 20, 30), "2:3"),
        TableResult(2, 2, (6, 7, 8), (10, 20, 30), "2:3"),
    ]
    table = standings(results, entrants=[2, 3, 5, 6, 7, 8])
    mine = by_entrant(table)
    assert (mine[1].rounds, mine[1].placement, mine[1].points) == (1, 1.0, 10)
    assert (mine[1].matchpoints, mine[1].available) == (1.0, 1)
    assert (mine[4].rounds, mine[4].placement) == (1, 0.0)
    # 4 (withdrawn, 100%) and 8 (two rounds, 25%) have no placement points: matchpoints first.
    assert [s.entrant for s in table] == [2, 6, 1, 5, 3, 7, 4, 8]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6, 7, 8]


def test_entrants_without_results_come_last_with_zeros() -> None:
    results = [TableResult(1, 1, (1, 2, 3), (10, 20, 30), "g")]
    table = standings(results, entrants=[9, 1, 2, 3, 8])
    assert [s.entrant for s in table] == [1, 2, 3, 8, 9]
    assert [s.rank for s in table] == [1, 2, 3, 4, 4]
    assert by_entrant(table)[8] == Standing(8, 4, 0.0, 0.0, 0, 0, 0)
    assert standings([], entrants=[3, 1])[0].entrant == 1
    assert [s.rank for s in standings([], entrants=[3, 1])] == [1, 1]


def test_it_refuses_an_entrant_seated_twice_in_a_round_or_a_table_listed_twice() -> None:
    with pytest.raises(ValueError, match="Entrant 2 sits twice in round 1"):
        standings(
            [TableResult(1, 1, (1, 2, 3), (1, 2, 3)), TableResult(1, 2, (2, 4, 5), (1, 2, 3))]
        )
    with pytest.raises(ValueError, match="Round 1 table 1 is listed twice"):
        standings(
            [TableResult(1, 1, (1, 2, 3), (1, 2, 3)), TableResult(1, 1, (4, 5, 6), (1, 2, 3))]
        )


def test_a_table_of_seven_with_a_tie_for_first_gets_exact_shares() -> None:
    totals = [3, 1, 4, 1, 5, 9, 2]
    expected = {
        0: Fraction(3, 6),  # place 4 of 7
        1: (Fraction(6, 6) + Fraction(5, 6)) / 2,
        2: Fraction(2, 6),
        4: Fraction(1, 6),
        5: Fraction(0),
        6: Fraction(4, 6),
    }
    points = placement_points(totals)
    for seat, value in expected.items():
        assert points[seat] == pytest.approx(float(value))
