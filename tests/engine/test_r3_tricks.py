"""R3: tricks, at every table size."""

from __future__ import annotations

import random

import pytest

from games.engine import Card, Deal, IllegalMove, Match, RuleSet

from .helpers import each_table, fill_hands, ready_to_play, texts

SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def opening(players: int) -> str:
    return "3C" if players == 5 else "2C"


def quiet(match: Match) -> str:
    """Play, for the seat to act, its lowest legal card that carries no points if it can."""
    seat = match.to_act()[0]
    legal = match.legal_plays(seat)
    card = next((c for c in legal if not c.points), legal[0])
    match.play(seat, card)
    return str(card)


def first_trick(match: Match, seat1_card: str = "AC") -> None:
    """Play the first trick: the opening club, seat 1's card, then quiet cards."""
    match.play(0, opening(match.n))
    match.play(1, seat1_card)
    while match.tricks == []:
        quiet(match)


def table(players: int, fixed: dict[int, list[str]], void_clubs_from: int = 2) -> Match:
    """Return a match ready to play with fixed cards; seats from `void_clubs_from` hold no clubs."""
    rules = RuleSet(players=players)
    fixed = {0: [opening(players)], **fixed}
    avoid = {s: "C" for s in range(void_clubs_from, players)}
    return ready_to_play(rules, fill_hands(rules, fixed, avoid))


@each_table
def test_R3_1_lowest_club_leads_the_first_trick(players: int) -> None:
    match = table(players, {1: ["AC"]})
    assert match.to_act() == (0,)
    assert texts(match.legal_plays(0)) == [opening(players)]
    other = next(c for c in match.hand(0) if str(c) != opening(players))
    with pytest.raises(IllegalMove) as err:
        match.play(0, other)
    assert err.value.rule == "R3.1"
    assert Card.parse(opening(players)).symbol in str(err.value)


@each_table
def test_R3_2_must_follow_suit(players: int) -> None:
    match = table(players, {1: ["AC", "KD"]})
    match.play(0, opening(players))
    legal = match.legal_plays(1)
    assert legal and all(c.suit == "C" for c in legal)
    assert texts(legal) == [str(c) for c in match.hand(1) if c.suit == "C"]
    with pytest.raises(IllegalMove, match="You must follow clubs") as err:
        match.play(1, "KD")
    assert err.value.rule == "R3.2"


@each_table
def test_R3_2_a_void_player_may_play_any_card_after_the_first_trick(players: int) -> None:
    match = table(players, {1: ["AC", "KC"], 2: ["2H"]})
    first_trick(match)
    assert match.to_act() == (1,)
    match.play(1, "KC")
    assert set(match.legal_plays(2)) == set(match.hand(2))
    match.play(2, "2H")
    assert match.broken


@each_table
def test_R3_3_no_points_on_the_first_trick(players: int) -> None:
    match = table(players, {1: ["AC"], 2: ["2H", "QS", "5D"]})
    match.play(0, opening(players))
    match.play(1, "AC")
    legal = match.legal_plays(2)
    assert Card.parse("5D") in legal
    assert not [c for c in legal if c.points]
    for card in ("2H", "QS"):
        with pytest.raises(IllegalMove, match="No points on the first trick") as err:
            match.play(2, card)
        assert err.value.rule == "R3.3"


@each_table
def test_R3_3_only_points_in_hand_may_play_any_card(players: int) -> None:
    rules = RuleSet(players=players)
    if rules.hand_size > 14:
        # Three players hold 17 cards: more than the 13 hearts and the Q♠, so never all points.
        assert players == 3
        return
    points = ["QS"] + [r + "H" for r in "23456789TJQKA"]
    match = table(players, {1: ["AC"], 2: points[: rules.hand_size]})
    match.play(0, opening(players))
    match.play(1, "AC")
    assert set(match.legal_plays(2)) == set(match.hand(2))
    match.play(2, "QS")
    assert match.broken


@each_table
def test_R3_4_highest_card_of_the_suit_led_wins_and_leads(players: int) -> None:
    match = table(players, {1: ["KC"], 2: ["AC"], 3 % players: ["AS"]}, void_clubs_from=3)
    match.play(0, opening(players))
    match.play(1, "KC")
    match.play(2, "AC")
    while not match.tricks:
        seat = match.to_act()[0]
        match.play(seat, "AS" if Card.parse("AS") in match.legal_plays(seat) else quiet_pick(match))
    assert match.tricks[0][2] == 2
    assert match.to_act() == (2,)
    assert match.public_view().tricks[0].winner == 2


def quiet_pick(match: Match) -> Card:
    legal = match.legal_plays(match.to_act()[0])
    return next((c for c in legal if not c.points), legal[0])


@each_table
def test_R3_5_hearts_may_not_be_led_until_broken(players: int) -> None:
    match = table(players, {1: ["AC", "KC", "2H"], 2: ["3H"]})
    first_trick(match)
    assert not match.broken
    assert Card.parse("2H") not in match.legal_plays(1)
    with pytest.raises(IllegalMove, match="Hearts are not broken yet") as err:
        match.play(1, "2H")
    assert err.value.rule == "R3.5"
    match.play(1, "KC")
    match.play(2, "3H")  # void in clubs: a heart breaks hearts
    while len(match.tricks) < 2:
        quiet(match)
    assert match.to_act() == (1,)
    assert Card.parse("2H") in match.legal_plays(1)


@each_table
def test_R3_5_the_queen_of_spades_breaks_hearts(players: int) -> None:
    match = table(players, {1: ["AC", "KC", "2H"], 2: ["QS"]})
    first_trick(match)
    match.play(1, "KC")
    match.play(2, "QS")
    assert match.broken
    while len(match.tricks) < 2:
        quiet(match)
    assert Card.parse("2H") in match.legal_plays(1)


@each_table
def test_R3_6_queen_of_spades_may_be_led_any_time(players: int) -> None:
    match = table(players, {1: ["AC", "QS", "2H"]})
    first_trick(match)
    assert not match.broken
    assert Card.parse("QS") in match.legal_plays(1)
    match.play(1, "QS")
    assert match.trick == [Card.parse("QS").index]


@each_table
def test_R3_7_leader_with_only_hearts_may_lead_one(players: int) -> None:
    rules = RuleSet(players=players)
    top_clubs = max(1, rules.hand_size - 13)
    clubs = ["AC", "KC", "QC", "JC"][:top_clubs]
    hearts = [r + "H" for r in "23456789TJQKA"][: rules.hand_size - top_clubs]
    match = table(players, {1: clubs + hearts}, void_clubs_from=players)
    first_trick(match)
    for card in clubs[1:]:
        match.play(1, card)
        while match.trick:
            quiet(match)
    assert match.to_act() == (1,)
    assert not match.broken
    assert all(c.suit == "H" for c in match.hand(1))
    assert set(match.legal_plays(1)) == set(match.hand(1))
    match.play(1, hearts[0])


@each_table
def test_R3_7_leader_with_hearts_and_the_queen_must_lead_the_queen(players: int) -> None:
    rules = RuleSet(players=players)
    top_clubs = max(1, rules.hand_size - 14)
    clubs = ["AC", "KC", "QC"][:top_clubs]
    hearts = [r + "H" for r in "23456789TJQKA"][: rules.hand_size - top_clubs - 1]
    match = table(players, {1: clubs + hearts + ["QS"]}, void_clubs_from=players)
    first_trick(match)
    for card in clubs[1:]:
        match.play(1, card)
        while match.trick:
            quiet(match)
    assert not match.broken
    assert texts(match.legal_plays(1)) == ["QS"]


@each_table
def test_R3_8_every_illegal_play_says_which_rule_and_changes_nothing(players: int) -> None:
    match = table(players, {1: ["AC", "KD", "2H"], 2: ["3H", "QS", "4D"]})
    before = match.snapshot()
    other = next(c for c in match.hand(0) if str(c) != opening(players))
    expected = {
        (0, str(other)): ("R3.1", f"The {Card.parse(opening(players)).symbol} must lead"),
        (1, "KD"): (None, "It is seat 0's turn"),
    }
    for (seat, card), (rule, words) in expected.items():
        assert words in match.why_illegal(seat, card)
        with pytest.raises(ValueError) as err:
            match.play(seat, card)
        assert err.value.rule == rule or rule is None
        assert match.snapshot() == before
    match.play(0, opening(players))
    mid = match.snapshot()
    assert match.why_illegal(1, "KD") == "You must follow clubs"
    assert match.why_illegal(1, "AC") is None
    match.play(1, "AC")
    assert match.why_illegal(2, "3H").startswith("No points on the first trick")
    assert "do not hold" in match.why_illegal(2, "AS" if "AS" not in texts(match.hand(2)) else "2C")
    assert match.snapshot() != mid
    view = match.view(2)
    reasons = {str(o.card): (o.legal, o.rule) for o in view.options}
    assert reasons["3H"] == (False, "R3.3")
    assert reasons["4D"] == (True, None)


def reference_legal(match: Match, seat: int) -> set[str]:
    """Read R3.1-R3.7 plainly, with lists, as a second opinion on the engine's bitmasks."""
    hand = [str(c) for c in match.hand(seat)]
    trick = [str(Card.from_index(i)) for i in match.trick]
    first = not match.tricks
    played = [str(Card.from_index(i)) for _, cards, _ in match.tricks for i in cards] + trick
    broken = any(c[1] == "H" or c == "QS" for c in played)
    if first and not trick:
        return {opening(match.n)}
    if trick:
        follow = [c for c in hand if c[1] == trick[0][1]]
        if follow:
            return set(follow)
        if first:
            safe = [c for c in hand if c[1] != "H" and c != "QS"]
            return set(safe or hand)
        return set(hand)
    if broken:
        return set(hand)
    return set([c for c in hand if c[1] != "H"] or hand)


def reference_winner(leader: int, cards: list[str], players: int) -> int:
    led = cards[0][1]
    ranks = "23456789TJQKA"
    best = max(
        (i for i, c in enumerate(cards) if c[1] == led), key=lambda i: ranks.index(cards[i][0])
    )
    return (leader + best) % players


@each_table
def test_R3_legal_plays_and_winners_agree_with_a_plain_reading(players: int) -> None:
    rules = RuleSet(players=players, target=500)
    rng = random.Random(100 + players)
    for hand_no in range(1, 9):
        match = Match.new(rules)
        match.hand_no = hand_no - 1
        match.start_hand(Deal.from_rng(rules, rng))
        if match.phase == "passing":
            for seat in range(players):
                match.pass_cards(seat, rng.sample(match.hand(seat), 3))
        while match.phase == "playing":
            seat = match.to_act()[0]
            legal = match.legal_plays(seat)
            assert {str(c) for c in legal} == reference_legal(match, seat)
            match.play(seat, rng.choice(legal))
        for leader, cards, winner in match.tricks:
            texts_ = [str(Card.from_index(i)) for i in cards]
            assert winner == reference_winner(leader, texts_, players)
