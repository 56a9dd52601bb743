"""Ratings (openskill's Plackett-Luce): places from totals, ties and leavers, and which way
each rating moves, on constructed results."""

import pytest

from games.engine import Outcome
from games.models import Seat
from games.services import results
from games.services.rating_math import NEW_SKILL, Skill, display_rating, rate
from games.services.results import rating_places


def places(totals: list[int], left: list[bool]) -> list[int]:
    return results.places(Outcome.of(totals, []), left)


def test_the_lowest_total_is_first_and_equal_totals_share_a_place():
    assert places([30, 10, 20, 20], [False] * 4) == [4, 1, 2, 2]


def test_a_player_who_left_is_last_whatever_their_bot_scored():
    assert places([5, 40, 60, 80], [True, False, False, False]) == [4, 1, 2, 3]


def test_those_who_stayed_are_placed_among_themselves_and_leavers_after_by_total():
    assert places([1, 2, 50, 70], [True, True, False, False]) == [3, 4, 1, 2]
    assert places([40, 40, 10, 90], [True, True, False, False]) == [3, 3, 1, 2]


def test_when_everyone_left_they_are_placed_by_total():
    assert places([30, 10, 20], [True] * 3) == [3, 1, 2]


def test_every_leaver_is_rated_as_last():
    seats = [
        Seat(position=0, user_id=1, resigned=True, rank=3),
        Seat(position=1, user_id=2, resigned=True, rank=4),
        Seat(position=2, user_id=3, rank=1),
        Seat(position=3, user_id=None, controller=Seat.Controller.BOT, rank=2),
    ]
    assert rating_places(seats) == [4, 4, 1, 2]


def test_a_newcomer_shows_1000():
    assert display_rating(NEW_SKILL) == 1000
    assert display_rating(Skill(25.0, 1.0)) == 1880


def fresh(places: list[int]) -> list[Skill]:
    after = rate([(seat, NEW_SKILL, place) for seat, place in enumerate(places)])
    return [after[seat] for seat in range(len(places))]


def test_the_winner_goes_up_and_the_last_goes_down():
    first, second, third, last = fresh([1, 2, 3, 4])
    assert first.mu > second.mu > third.mu > last.mu
    assert first.mu > NEW_SKILL.mu > last.mu
    # Every result makes the model surer of everyone.
    assert all(s.sigma < NEW_SKILL.sigma for s in (first, second, third, last))


def test_equal_places_move_equally():
    a, b, c, d = fresh([1, 2, 2, 4])
    assert b == c
    assert a.mu > b.mu > d.mu


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one():
    strong, weak = Skill(35.0, 3.0), Skill(15.0, 3.0)
    beat_strong = rate([("me", NEW_SKILL, 1), ("them", strong, 2)])["me"]
    beat_weak = rate([("me", NEW_SKILL, 1), ("them", weak, 2)])["me"]
    assert beat_strong.mu - NEW_SKILL.mu > beat_weak.mu - NEW_SKILL.mu > 0


def test_a_competitor_on_several_seats_moves_by_the_mean_of_its_seats():
    seats = [("bot", NEW_SKILL, 1), ("person", NEW_SKILL, 2), ("bot", NEW_SKILL, 3)]
    after = rate(seats)
    alone = fresh([1, 2, 3])
    assert after["bot"].mu == pytest.approx((alone[0].mu + alone[2].mu) / 2)
    assert after["person"] == alone[1]
