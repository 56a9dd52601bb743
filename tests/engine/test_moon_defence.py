"""The strong bot stops a moon shot it can stop cheaply, not counting on the others to.

The positions come from hands of the arena (`bench/arena.py --a strong --b random --single
--seed 2 --moons`) in which a random seat shot the moon past the strong bot; each is rebuilt
from the hands after the pass, on a hand without passing, and played up to the decision.
"""

from __future__ import annotations

import pytest

from games.engine import RuleSet, bot_for_level
from games.engine.cards import mask_of
from games.engine.state import Match

from .helpers import play_fixed, ready_to_play


def position(hands: list[str], tricks: list[str]) -> Match:
    """Return a four-player match on hand 4 (no pass), with these hands and cards played."""
    rules = RuleSet()
    match = ready_to_play(rules, [mask_of(h.split()) for h in hands], hand_no=4)
    play_fixed(match, " ".join(tricks).split())
    return match


def overtake_the_jack() -> Match:
    """Seat 1 has taken every trick with a point, 17 points, and leads the Q♥ on trick 11.

    Seat 0 holds K♥ 5♥ A♦ and plays last, after the 8♥ and 3♥: the K♥ takes 4 points and
    ends the shot. Ducking with the 5♥ left seat 1 to take the K♥ with the A♥ and shoot the
    moon (deal 189751636, table 0 of the arena run before the fix).
    """
    return position(
        [
            "3C 5C 7C 2D 4D 6D AD 4H 5H KH 2S 7S TS",
            "QC KC AC 8D JD QD 7H JH QH AH 6S KS AS",
            "4C 6C 9C JC 3D 7D 9D KD 8H TH 3S 4S QS",
            "2C 8C TC 5D TD 2H 3H 6H 9H 5S 8S 9S JS",
        ],
        [
            "2C 5C QC JC",  # seat 0 leads the 2♣ on hand 4; seat 1 wins
            "6S 4S JS 7S",  # seat 3 wins
            "8S TS KS 3S",  # seat 1 wins, and goes on winning
            "AC 4C TC 7C",
            "KC 9C 8C 3C",
            "JD 3D TD 2D",
            "8D KD 5D 4D",  # seat 2 wins
            "7D 5S 6D QD",  # seat 1 wins
            "AS QS 9S 2S",  # the Q♠ to seat 1
            "JH TH 2H 4H",  # 17 points to seat 1
            "QH 8H 3H",
        ],
    )


def test_the_position_is_as_described() -> None:
    match = overtake_the_jack()
    assert match.points_taken == (0, 17, 0, 0)
    assert match.turn == 0
    assert sorted(str(c) for c in match.legal_plays(0)) == ["5H", "KH"]


@pytest.mark.parametrize("seed", range(3))
def test_takes_a_heart_trick_to_stop_the_shot(seed: int) -> None:
    match = overtake_the_jack()
    decision = bot_for_level("strong", seed).choose(match.view(0))
    assert str(decision) == "KH"
