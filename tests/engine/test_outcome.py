"""A finished match's Outcome: totals, winners, places by totals only, moons per seat."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import BaselineBot, Deal, Match, Outcome, RuleSet, ScoreRow, WrongPhase
from games.engine.bots import play_hand

from .helpers import each_table, moon_deal


def test_places_share_ties_and_count_the_seats_above() -> None:
    outcome = Outcome.of((50, 20, 50, 20, 101), ())
    assert outcome.winners == (1, 3)
    assert outcome.places == (3, 1, 3, 1, 5)
    assert outcome.moons == (0,) * 5


def test_moons_are_counted_per_seat_from_the_sheet() -> None:
    rows = [
        ScoreRow((26, 0, 0), (-26, 0, 0), (-26, 0, 0), moon=0, moon_option="subtract"),
        ScoreRow((0, 26, 0), (26, 0, 26), (0, 0, 26), moon=1, moon_option="add"),
        ScoreRow((26, 0, 0), (0, 26, 26), (0, 26, 52), moon=0, moon_option="add"),
        ScoreRow((10, 6, 10), (10, 6, 10), (10, 32, 62)),
    ]
    assert Outcome.of((10, 32, 62), rows).moons == (2, 1, 0)


def test_an_outcome_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Outcome.of((1, 2, 3), ()).winners = (2,)  # type: ignore[misc]


def test_a_match_in_play_has_no_outcome() -> None:
    match = Match.new(RuleSet(players=4))
    with pytest.raises(WrongPhase):
        match.outcome()
    match.start_hand(Deal.from_seed(match.rules, 3))
    with pytest.raises(WrongPhase):
        match.outcome()


@each_table
def test_a_finished_match_gives_its_outcome(players: int) -> None:
    rules = RuleSet(players=players, target=100, moon="add")
    match = Match.new(rules)
    bots = [BaselineBot() for _ in range(players)]
    while not match.is_finished:
        number = match.hand_no + 1
        shooter = 1 if number == 2 else None
        deal = moon_deal(rules, number, shooter) if shooter is not None else None
        match.start_hand(deal or Deal.from_seed(rules, 100 * players + number))
        play_hand(match, bots)
    outcome = match.outcome()
    assert outcome.totals == tuple(match.totals)
    assert outcome.winners == match.winners
    assert {outcome.places[s] for s in match.winners} == {1}
    assert outcome.moons[1] >= 1
    assert sum(outcome.moons) == sum(row.moon is not None for row in match.sheet)
    for seat, total in enumerate(match.totals):
        assert outcome.places[seat] == 1 + sum(t < total for t in match.totals)
