"""R2: passing."""

from __future__ import annotations

import pytest

from games.engine import (
    BadCard,
    BadPass,
    CardNotHeld,
    Deal,
    Match,
    NotYourTurn,
    RuleSet,
    WrongPhase,
)

from .helpers import TABLE_SIZES, each_table, texts


def new_hand(players: int, hand_no: int = 1, seed: int = 3) -> Match:
    rules = RuleSet(players=players)
    match = Match.new(rules)
    match.hand_no = hand_no - 1
    match.start_hand(Deal.from_seed(rules, seed))
    return match


def top_three(match: Match, seat: int) -> list[str]:
    return texts(match.hand(seat)[-3:])


@each_table
def test_R2_1_each_player_passes_exactly_three(players: int) -> None:
    match = new_hand(players)
    size = match.rules.hand_size
    assert match.phase == "passing"
    assert match.to_act() == tuple(range(players))
    match.pass_cards(0, top_three(match, 0))
    assert match.to_act() == tuple(range(1, players))
    assert match.public_view().hand_counts[0] == size - 3
    for seat in range(1, players):
        match.pass_cards(seat, top_three(match, seat))
    assert match.phase == "playing"
    assert match.public_view().hand_counts == (size,) * players


@each_table
def test_R2_2_received_cards_are_hidden_until_everyone_has_passed(players: int) -> None:
    match = new_hand(players)
    dealt = [texts(match.hand(s)) for s in range(players)]
    for seat in range(players - 1):
        passed = top_three(match, seat)
        match.pass_cards(seat, passed)
        view = match.view(seat)
        assert view.received is None
        assert texts(view.passed) == passed
        assert texts(view.hand) == [c for c in dealt[seat] if c not in passed]
    receiver = (players - 1 + 1) % players
    before = match.view(receiver)
    assert before.received is None
    last = top_three(match, players - 1)
    match.pass_cards(players - 1, last)
    after = match.view(receiver)
    assert texts(after.received) == sorted(last, key=lambda t: texts_order(t))
    assert set(last) <= set(texts(after.hand))


def texts_order(text: str) -> tuple[int, int]:
    return ("CDHS".index(text[1]), "23456789TJQKA".index(text[0]))


@each_table
def test_R2_3_R2_4_pass_direction_cycle(players: int) -> None:
    rules = RuleSet(players=players)
    # R2.3 for four players; R2.4 (no hold hand) for the others.
    four = ["left", "right", "across", "none"] * 2
    expected = four if players == 4 else ["left", "right"] * 4
    assert [rules.pass_direction(h) for h in range(1, 9)] == expected


@each_table
@pytest.mark.parametrize("hand_no", [1, 2, 3, 4])
def test_R2_3_R2_4_cards_go_to_the_right_seat(players: int, hand_no: int) -> None:
    match = new_hand(players, hand_no)
    offset = {"left": 1, "right": -1, "across": 2, "none": 0}[match.pass_direction]
    if players == 4 and hand_no == 4:
        assert match.pass_direction == "none"
        assert match.phase == "playing"  # hold hand: no passing at all
        return
    assert match.pass_direction != "none"
    passes = {}
    for seat in range(players):
        passes[seat] = top_three(match, seat)
        match.pass_cards(seat, passes[seat])
    for seat in range(players):
        receiver = (seat + offset) % players
        assert set(passes[seat]) <= set(texts(match.hand(receiver)))
        assert match.view(receiver).pass_from == seat
        assert match.view(seat).pass_to == receiver


@pytest.mark.parametrize("players", TABLE_SIZES, ids=lambda n: f"players={n}")
def test_R2_5_bad_passes_are_rejected_and_change_nothing(players: int) -> None:
    match = new_hand(players)
    hand = texts(match.hand(0))
    other = texts(match.hand(1))[0]
    before = match.snapshot()
    cases = [
        (hand[:2], BadPass, "exactly three"),
        (hand[:4], BadPass, "exactly three"),
        ([hand[0], hand[0], hand[1]], BadPass, "different"),
        ([hand[0], hand[1], other], CardNotHeld, "do not hold"),
        ([hand[0], hand[1], "XX"], BadCard, "not a card"),
        ([hand[0], hand[1], "10H"], BadCard, "not a card"),
    ]
    for cards, error, words in cases:
        with pytest.raises(error, match=words) as err:
            match.pass_cards(0, cards)
        assert isinstance(err.value, ValueError)
        assert match.snapshot() == before
    with pytest.raises(CardNotHeld) as err:
        match.pass_cards(0, [hand[0], hand[1], other])
    assert err.value.rule == "R2.5"
    match.pass_cards(0, hand[:3])
    after_pass = match.snapshot()
    with pytest.raises(NotYourTurn, match="already passed"):
        match.pass_cards(0, hand[3:6])
    with pytest.raises(WrongPhase):
        match.play(0, hand[4])
    assert match.snapshot() == after_pass
