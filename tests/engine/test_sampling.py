"""What a seat knows of the hidden hands is true, and sampled deals agree with all of it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Deal, Match, RuleSet
from games.engine.bots.passing import choose_pass, is_moon_hand, spade_cover
from games.engine.bots.sampling import _flow_sample, knowledge, sample_hands
from games.engine.cards import HEARTS_MASK, QS_MASK, SUIT_MASKS, mask_of
from games.engine.phases import PLAYING

from .test_search_bot import random_state


def hand_of(text: str) -> int:
    """Return the card set of "QS KS 2C ..."."""
    return mask_of(text.split())


PROPERTY = settings(max_examples=40, deadline=None, derandomize=True)
tables = st.sampled_from((3, 4, 5, 6, 7))
seeds = st.integers(min_value=0, max_value=2**31)


@PROPERTY
@given(players=tables, seed=seeds, steps=st.integers(0, 130), hand_no=st.integers(1, 4))
def test_knowledge_is_true_and_samples_agree_with_it(
    players: int, seed: int, steps: int, hand_no: int
) -> None:
    match = random_state(players, seed, steps, hand_no)
    if match.phase != PLAYING:
        return
    for me in range(players):
        k = knowledge(match.view(me))
        # Every fact holds in the real deal: the real hands are one of the consistent ones.
        for seat in range(players):
            assert not match.hands[seat] & k.excluded[seat]
            assert k.known[seat] & match.hands[seat] == k.known[seat]
            assert k.counts[seat] == match.hands[seat].bit_count()
        assert k.unseen == sum(h for s, h in enumerate(match.hands) if s != me)
        rng = random.Random(seed)
        for _ in range(5):
            hands = sample_hands(k, rng)
            assert hands[me] == match.hands[me]
            union = 0
            for seat, hand in enumerate(hands):
                assert hand.bit_count() == k.counts[seat]
                assert not hand & k.excluded[seat]
                assert hand & k.known[seat] == k.known[seat]
                assert not union & hand
                union |= hand
            assert union == k.unseen | k.hand


def test_samples_follow_a_shown_void() -> None:
    rules = RuleSet()
    match = Match.new(rules)
    match.hand_no = 3  # hand 4: no pass
    match.start_hand(Deal.from_seed(rules, 11))
    rng = random.Random(0)
    # Play until some seat fails to follow suit.
    while match.phase == PLAYING:
        seat = match.turn
        legal = match.legal_mask()
        match.play_fast((legal & -legal).bit_length() - 1)
        k = knowledge(match.view((seat + 1) % 4))
        if k.excluded[seat]:
            for _ in range(20):
                assert not sample_hands(k, rng)[seat] & k.excluded[seat]
            return
    raise AssertionError("no void was shown in this deal")


def test_pass_sheds_an_unprotected_queen_and_high_spades() -> None:
    hand = hand_of("QS KS AS 2S 3C 4C 5C 6D 7D 8D 9D 2H 3H")
    assert not spade_cover(hand, 13)
    assert choose_pass(hand, 13) == mask_of(["QS", "KS", "AS"])


def test_pass_keeps_a_covered_queen_and_makes_a_void() -> None:
    hand = hand_of("QS 2S 3S 4S 5S KD 2C 3C 4C 5C 6C 7C 2H")
    assert spade_cover(hand, 13)
    passed = choose_pass(hand, 13)
    assert not passed & QS_MASK
    assert passed & SUIT_MASKS[1]  # the lone K♦ goes: a diamond void


def test_pass_sheds_high_hearts() -> None:
    hand = hand_of("AH KH QH 2H 2S 3S 4S 5S 6C 7C 8C 9D TD")
    assert choose_pass(hand, 13) & HEARTS_MASK == mask_of(["AH", "KH", "QH"])


def test_moon_hand_keeps_its_control() -> None:
    hand = hand_of("AH KH QH JH TH 9H 8H AS KS AC KC AD 2D")
    assert is_moon_hand(hand)
    assert not choose_pass(hand, 13) & HEARTS_MASK


def test_every_table_size_passes_three_held_cards() -> None:
    rng = random.Random(5)
    for players in (3, 4, 5, 6, 7):
        rules = RuleSet(players=players)
        for _ in range(50):
            hand = Deal.from_random(rules, rng).masks[0]
            passed = choose_pass(hand, rules.hand_size)
            assert passed.bit_count() == 3 and passed & hand == passed


@PROPERTY
@given(players=tables, seed=seeds, steps=st.integers(0, 130))
def test_the_fallback_deal_agrees_with_what_the_seat_knows(
    players: int, seed: int, steps: int
) -> None:
    # The deal used when random draws keep failing keeps every fact too.
    match = random_state(players, seed, steps, 1)
    if match.phase != PLAYING:
        return
    me = match.turn
    k = knowledge(match.view(me))
    hands = _flow_sample(k, random.Random(seed))
    assert hands[me] == match.hands[me]
    union = 0
    for seat, hand in enumerate(hands):
        assert hand.bit_count() == k.counts[seat]
        assert not hand & k.excluded[seat]
        assert hand & k.known[seat] == k.known[seat]
        assert not union & hand
        union |= hand
    assert union == k.unseen | k.hand
