"""R1: players, deck, ranks."""

from __future__ import annotations

import pytest

from games.engine import BadDeal, BadRules, Deal, Match, RuleSet
from games.engine.cards import FULL_DECK, SECOND_COPIES, cards_from_mask

from .helpers import each_table, fill_hands, play_fixed, ready_to_play, texts

REMOVED = {3: ["2D"], 4: [], 5: ["2C", "2D"], 6: ["3C", "4C", "2D", "3D"], 7: ["3C", "2D", "3D"]}
EACH = {3: 17, 4: 13, 5: 10, 6: 8, 7: 7}


@each_table
def test_R1_1_three_to_seven_players(players: int) -> None:
    rules = RuleSet(players=players)
    match = Match.new(rules)
    assert len(match.totals) == players
    assert RuleSet.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize("players", [0, 2, 8, 10, "4", 4.0, True])
def test_R1_1_other_table_sizes_are_refused(players: object) -> None:
    with pytest.raises(BadRules) as err:
        RuleSet(players=players)  # type: ignore[arg-type]
    assert err.value.rule == "R1.1"
    assert "3 to 7" in str(err.value)


@each_table
def test_R1_2_ace_is_high_and_there_is_no_trump(players: int) -> None:
    rules = RuleSet(players=players)
    opening = "3C" if players == 5 else "2C"
    # Seat 0 opens; seat 1 holds a high club; the last seat has no clubs and throws the A♠.
    hands = fill_hands(
        rules,
        {0: [opening], 1: ["AC"], players - 1: ["AS"]},
        avoid={players - 1: "C"},
    )
    match = ready_to_play(rules, hands)
    assert match.to_act() == (0,)
    plays = [opening, "AC"]
    for seat in range(2, players):
        legal = match_legal_after(match, plays, seat)
        plays.append("AS" if seat == players - 1 else legal[0])
    play_fixed(match, plays)
    assert match.tricks[0][2] == 1  # the A♣ wins; the A♠ is no trump


def match_legal_after(match: Match, plays: list[str], seat: int) -> list[str]:
    """Return the legal plays of `seat` after `plays`, on a copy."""
    probe = match.copy()
    play_fixed(probe, plays)
    return texts(probe.legal_plays(seat))


@each_table
def test_R1_3_deck_for_the_table_size(players: int) -> None:
    rules = RuleSet(players=players)
    removed = FULL_DECK & ~rules.deck_mask
    assert sorted(texts(cards_from_mask(removed))) == sorted(REMOVED[players])
    assert rules.hand_size == EACH[players]
    for seed in range(5):
        deal = Deal.from_seed(rules, seed)
        assert [len(h) for h in deal.hands] == [EACH[players]] * players
        union = 0
        for mask in deal.masks:
            union |= mask
        assert union == rules.deck_mask


@each_table
def test_R1_3_explicit_deal_must_use_the_tables_deck(players: int) -> None:
    rules = RuleSet(players=players)
    good = [texts(h) for h in Deal.from_seed(rules, 7).hands]
    assert Deal.from_hands(rules, good).masks == Deal.from_seed(rules, 7).masks
    missing = [list(h) for h in good]
    missing[0][0] = missing[1][0]
    with pytest.raises(BadDeal, match="dealt twice"):
        Deal.from_hands(rules, missing)
    short = [list(h) for h in good]
    short[2] = short[2][1:]
    with pytest.raises(BadDeal, match="each seat needs"):
        Deal.from_hands(rules, short)
    with pytest.raises(BadDeal, match=f"needs {players} hands"):
        Deal.from_hands(rules, good[:-1])
    if REMOVED[players]:
        foreign = [list(h) for h in good]
        foreign[0][0] = REMOVED[players][0]
        with pytest.raises(BadDeal, match="not in the"):
            Deal.from_hands(rules, foreign)
    second = [list(h) for h in good]
    second[0][0] = SECOND_COPIES[0]  # a second copy (R5.2) is in no one-deck table
    with pytest.raises(BadDeal, match="2C2 is not in the"):
        Deal.from_hands(rules, second)


@each_table
def test_R1_4_every_hand_distributes_26_points(players: int) -> None:
    import random

    from games.engine.bots import random_playout

    rules = RuleSet(players=players, moon="add", target=500)
    rng = random.Random(players)
    match = Match.new(rules)
    for _ in range(8):
        match.start_hand(Deal.from_rng(rules, rng))
        random_playout(match, rng)
        assert sum(match.sheet[-1].points) == 26
        if match.is_finished:
            break


@each_table
def test_R1_5_play_goes_to_the_left(players: int) -> None:
    rules = RuleSet(players=players)
    match = ready_to_play(rules, fill_hands(rules, {2: ["3C" if players == 5 else "2C"]}))
    seats = []
    for _ in range(players):
        seat = match.to_act()[0]
        seats.append(seat)
        match.play(seat, match.legal_plays(seat)[0])
    assert seats == [(2 + i) % players for i in range(players)]
