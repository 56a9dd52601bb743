"""R5.1 Omnibus Hearts and the rule set of the variants (R5.3), at every table size."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    BadRules,
    BaselineBot,
    Card,
    Deal,
    Match,
    RuleSet,
    bot_for_level,
    check_players,
    players_allowed,
    replay,
)
from games.engine.bots import moon_choice, play_hand, random_playout
from games.engine.scoring import hand_scores

from .helpers import each_table, fill_hands, moon_deal, ready_to_play

BONUS = pytest.mark.parametrize("bonus", ["JD", "TD"])


def omnibus(players: int, bonus: str = "JD", **options: object) -> RuleSet:
    return RuleSet(players=players, variant="omnibus", bonus_card=bonus, **options)  # type: ignore[arg-type]


def taker_of(match: Match, card: str) -> int:
    """Return the seat that took a card this hand, from the tricks."""
    index = Card.parse(card).index
    return next(w for _, cards, w in match.tricks if index in cards)


# ----- R5.3: the rule set -----


@pytest.mark.parametrize(
    ("options", "rule", "words"),
    [
        ({"variant": "hearts2"}, "R5", "variant must be one of"),
        ({"variant": None}, "R5", "variant must be one of"),
        ({"variant": "omnibus", "bonus_card": "QS"}, "R5.1", "J♦ (JD) or the 10♦ (TD)"),
        ({"variant": "omnibus", "bonus_card": "jd"}, "R5.1", "J♦ (JD) or the 10♦ (TD)"),
        ({"bonus_card": "TD"}, "R5.1", "Only Omnibus"),
        ({"variant": "cancellation", "bonus_card": "TD"}, "R5.1", "Only Omnibus"),
        ({"variant": "omnibus", "players": 8}, "R5.1", "3 to 7 players"),
        ({"variant": "omnibus", "players": 2}, "R5.1", "3 to 7 players"),
        ({"variant": "cancellation", "players": 4}, "R5.2", "5 to 10 players"),
        ({"variant": "cancellation", "players": 11}, "R5.2", "5 to 10 players"),
        ({"players": 8}, "R1.1", "3 to 7 players"),
    ],
)
def test_R5_3_bad_variant_options_are_refused_with_their_rule(
    options: dict, rule: str, words: str
) -> None:
    with pytest.raises(BadRules) as err:
        RuleSet(**options)
    assert err.value.rule == rule
    assert words in err.value.message


def test_R5_3_players_allowed_depend_on_the_variant() -> None:
    assert players_allowed() == players_allowed("standard") == range(3, 8)
    assert players_allowed("omnibus") == range(3, 8)
    assert players_allowed("cancellation") == range(5, 11)
    with pytest.raises(BadRules):
        players_allowed("bridge")
    for variant in ("standard", "omnibus", "cancellation"):
        for n in players_allowed(variant):
            assert RuleSet(players=n, variant=variant).players == n


@pytest.mark.parametrize("variant", ["standard", "omnibus", "cancellation"])
@pytest.mark.parametrize("players", [0, 2, 3, 4, 5, 7, 8, 10, 11, "4", 4.0, True, None])
def test_R5_3_check_players_says_what_the_rule_set_says(variant: str, players: object) -> None:
    try:
        RuleSet(players=players, variant=variant)  # type: ignore[arg-type]
    except BadRules as refused:
        with pytest.raises(BadRules) as err:
            check_players(players, variant)
        assert (err.value.message, err.value.rule) == (refused.message, refused.rule)
    else:
        check_players(players, variant)
    with pytest.raises(BadRules) as err:
        check_players(4, "bridge")
    assert err.value.rule == "R5"


def test_R5_3_defaults_stay_out_of_the_stored_rule_set() -> None:
    # A match stored before the variants existed keeps exactly the same JSON form.
    assert RuleSet().to_dict() == {"players": 4, "target": 100, "moon": "ask"}
    assert RuleSet(variant="standard", bonus_card="JD") == RuleSet()
    stored = {"players": 5, "target": 100, "moon": "ask", "variant": "omnibus"}
    assert omnibus(5).to_dict() == stored
    assert omnibus(5, "TD").to_dict()["bonus_card"] == "TD"
    assert RuleSet(players=9, variant="cancellation").to_dict()["variant"] == "cancellation"
    for rules in (omnibus(3, "TD", hands=4), RuleSet(players=10, variant="cancellation")):
        assert RuleSet.from_dict(rules.to_dict()) == rules
    with pytest.raises(BadRules, match="Unknown rule option"):
        RuleSet.from_dict({"players": 4, "bonus": "JD"})


# ----- R5.1 -----


@each_table
@BONUS
def test_R5_1_bonus_card_scores_minus_ten_for_its_taker(players: int, bonus: str) -> None:
    rules = omnibus(players, bonus, target=500, moon="add")
    rng = random.Random(players)
    match = Match.new(rules)
    for _ in range(6):
        match.start_hand(Deal.from_rng(rules, rng))
        random_playout(match, rng)
        row = match.sheet[-1]
        taker = taker_of(match, bonus)
        assert row.bonus == taker == match.public_view().bonus_taker
        assert sum(row.points) == 26  # R5.1: the bonus card is scored on its own
        if row.moon is None:
            assert row.scores[taker] == row.points[taker] - 10
            assert [s for i, s in enumerate(row.scores) if i != taker] == [
                p for i, p in enumerate(row.points) if i != taker
            ]
            assert sum(row.scores) == 16


@each_table
@BONUS
def test_R5_4_the_bonus_card_is_always_in_play(players: int, bonus: str) -> None:
    rules = omnibus(players, bonus)
    assert rules.deck_mask & Card.parse(bonus).mask
    assert Match.new(rules).public_view().bonus_card == Card.parse(bonus)


@each_table
@BONUS
def test_R5_4_bonus_card_may_be_discarded_on_the_first_trick(players: int, bonus: str) -> None:
    opening = "3C" if players == 5 else "2C"
    rules = omnibus(players, bonus)
    hands = fill_hands(rules, {0: [opening], 2: [bonus, "QS", "AH"]}, {2: "C"})
    match = ready_to_play(rules, hands)
    match.play(0, opening)
    match.play(1, next(c for c in match.legal_plays(1)))
    legal = [str(c) for c in match.legal_plays(2)]
    assert bonus in legal  # R3.3 forbids points only: the bonus card is not one
    assert "QS" not in legal
    assert match.public_view().bonus_taker is None
    match.play(2, bonus)
    assert not match.hearts_broken  # nor does it break hearts
    while len(match.tricks) < 1:
        seat = match.to_act()[0]
        match.play(seat, match.legal_plays(seat)[0])
    assert match.public_view().bonus_taker == match.tricks[0][2]
    assert not match.hearts_broken


def moon_match(players: int, bonus: str, moon: str, totals: list[int] | None = None) -> Match:
    """Return an Omnibus match whose first hand is a forced moon shot by seat 1."""
    rules = omnibus(players, bonus, moon=moon)
    match = Match.new(rules)
    if totals is not None:
        match.totals = list(totals)
    match.start_hand(moon_deal(rules, 1, shooter=1))
    for seat in range(players):
        match.apply(BaselineBot().choose(match.view(seat)))
    rng = random.Random(players)
    while match.phase == "playing":
        seat = match.to_act()[0]
        match.play(seat, rng.choice(match.legal_plays(seat)))
    return match


@each_table
@BONUS
@pytest.mark.parametrize("option", ["subtract", "add"])
def test_R5_4_shooter_who_took_the_bonus_card(players: int, bonus: str, option: str) -> None:
    match = moon_match(players, bonus, "ask")
    assert match.phase == "moon" and match.to_act() == (1,)
    assert match.view(1).bonus_taker == 1  # the shooter took every trick, the bonus card too
    match.choose_moon(1, option)
    row = match.sheet[-1]
    assert (row.moon, row.moon_option, row.bonus) == (1, option, 1)
    if option == "subtract":
        assert list(row.scores) == [-36 if s == 1 else 0 for s in range(players)]
    else:
        assert list(row.scores) == [-10 if s == 1 else 26 for s in range(players)]


def test_R5_4_bonus_added_after_the_moon_choice_for_another_seat() -> None:
    # The conformance vectors play this at the table; here the arithmetic R5.4 spells out.
    points = [0, 26, 0, 0]
    assert hand_scores(points, 1, "subtract", 26, 2) == [0, -26, -10, 0]
    assert hand_scores(points, 1, "add", 26, 2) == [26, 0, 16, 26]
    assert hand_scores(points, 1, "subtract", 26, 1) == [0, -36, 0, 0]
    assert hand_scores(points, 1, "add", 26, 1) == [26, -10, 26, 26]
    assert hand_scores([3, 10, 13, 0], None, None, 26, 3) == [3, 10, 13, -10]


@each_table
def test_R5_4_omnibus_match_ends_and_ties_share_the_win(players: int) -> None:
    # Seat 0 starts 26 down and takes nothing; the shooter (seat 1) adds 26 to the others
    # and loses 10 for the bonus card: seat 0 ends on 0, the shooter on -10, alone lowest.
    totals = [-26] + [0] * (players - 1)
    match = moon_match(players, "JD", "add", totals)
    assert match.totals[1] == -10 and match.totals[0] == 0
    rules = omnibus(players, target=26, moon="add")
    tied = Match.new(rules)
    tied.totals = [-36 if s == 0 else 0 for s in range(players)]
    tied.start_hand(moon_deal(rules, 1, shooter=1))
    for seat in range(players):
        tied.apply(BaselineBot().choose(tied.view(seat)))
    random_playout(tied, random.Random(1))
    assert tied.is_finished  # the others reached 26
    assert tied.totals[0] == tied.totals[1] == -10
    assert tied.winners == (0, 1)


@each_table
@BONUS
def test_R5_1_baseline_bots_play_whole_omnibus_matches(players: int, bonus: str) -> None:
    rules = omnibus(players, bonus, target=60)
    bots = [BaselineBot() for _ in range(players)]
    match = Match.new(rules)
    deals, decisions = [], []
    while not match.is_finished:
        deals.append(Deal.from_seed(rules, 100 * players + match.hand_no))
        match.start_hand(deals[-1])
        play_hand(match, bots, decisions.append)
        assert match.hand_no < 60
    assert max(match.totals) >= 60
    assert replay(rules, deals, decisions) == match
    assert Match.from_snapshot(match.snapshot()) == match
    takers = [row.bonus for row in match.sheet]
    assert all(t is not None for t in takers)


def test_R5_1_baseline_bot_wins_the_bonus_card_when_last_on_a_pointless_trick() -> None:
    rules = omnibus(4)
    hands = fill_hands(rules, {0: ["2C", "5D"], 1: ["JD"], 2: ["4D"], 3: ["QD", "3D"]})
    match = ready_to_play(rules, hands, hand_no=4)  # the hold hand: no pass
    match.play(0, "2C")
    while match.tricks == []:
        seat = match.to_act()[0]
        match.play(seat, match.legal_plays(seat)[0])
    match.leader = match.turn = 0  # a diamond trick led by seat 0
    for seat, card in ((0, "5D"), (1, "JD"), (2, "4D")):
        match.play(seat, card)
    decision = BaselineBot().choose(match.view(3))
    assert str(decision) == "QD"  # the lowest diamond that takes the J♦


def test_R5_5_bot_shooter_counts_the_bonus_card_in_its_moon_choice() -> None:
    # Adding 26 ends the match. Without the bonus the shooter would end on 96 against 95 and
    # lose, so it would subtract; with the J♦'s -10 it ends on 86 and wins outright (R4.6).
    match = moon_match(4, "JD", "ask", totals=[69, 96, 90, 90])
    view = match.view(1)
    assert view.bonus_taker == 1
    assert moon_choice(view) == "add"
    match.apply(BaselineBot().choose(view))
    assert match.totals == [95, 86, 116, 116] and match.winners == (1,)


def test_R5_1_search_bot_plays_omnibus() -> None:
    rules = omnibus(4, "TD", hands=1)
    match = Match.new(rules)
    match.start_hand(Deal.from_seed(rules, 5))
    play_hand(match, [bot_for_level("normal", s) for s in range(4)])
    assert match.is_finished and match.sheet[-1].bonus is not None
