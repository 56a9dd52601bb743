"""Ratings with openskill's Plackett-Luce model, made for games of many players: pure Python.

A match is a ranking of its seats by their stored places (`games/services/results.py`), every
seat whose player left sharing the last place whatever its bot went on to score
(`results.rating_places`). Each seat is a team of one.

The rating shown is conservative: openskill's ordinal, mu − 3·sigma (the skill the player is
99.7% likely to be above), scaled as `40·(mu − 3·sigma) + 1000`. A newcomer (mu 25, sigma
25/3) shows 1000; a player whose true skill is the starting 25, once the model is sure of it
(sigma near 1), shows about 1880; each point of mu is 40 rating points.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DISPLAY_TARGET = 1000
DISPLAY_ALPHA = 40


@dataclass(frozen=True)
class Skill:
    """A competitor's belief: mean skill and its uncertainty."""

    mu: float
    sigma: float


NEW_SKILL = Skill(MODEL.mu, MODEL.sigma)
K = TypeVar("K", bound=Hashable)


def display_rating(skill: Skill) -> int:
    """Return the rating shown for a skill (see the module's note)."""
    rating = MODEL.create_rating([skill.mu, skill.sigma])
    return round(rating.ordinal(alpha=DISPLAY_ALPHA, target=DISPLAY_TARGET))


def rate(seats: Sequence[tuple[K, Skill, int]]) -> dict[K, Skill]:
    """Rate one match: each seat is (competitor, its skill before, its place).

    Return each competitor's skill after. A competitor that held several seats (bots of one
    level) moves by the mean of its seats' results: its seats played each other too, and no
    one seat is more its own than another.
    """
    teams = [[MODEL.create_rating([skill.mu, skill.sigma])] for _, skill, _ in seats]
    rated = MODEL.rate(teams, ranks=[float(place) for _, _, place in seats])
    after: dict[K, list[Skill]] = {}
    for (key, _, _), (team,) in zip(seats, rated, strict=True):
        after.setdefault(key, []).append(Skill(team.mu, team.sigma))
    return {key: _mean(skills) for key, skills in after.items()}


def _mean(skills: Sequence[Skill]) -> Skill:
    count = len(skills)
    return Skill(sum(s.mu for s in skills) / count, sum(s.sigma for s in skills) / count)
