"""The search bot in Cancellation Hearts (R5.2), at every table size from 5 to 10.

What the seat knows is true and every sampled deal agrees with it (the widow included); the
bot is legal, blind to hidden cards and to the widow, deterministic, within its budget, and
plays whole matches. The two-deck playout policy and scoring are checked on set positions.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import BaselineBot, Deal, Match, RuleSet, SearchBot
from games.engine.bots import play_hand
from games.engine.bots.cancellation_playout import (
    duck_two_decks,
    play_out_two_decks,
    two_deck_scores,
)
from games.engine.bots.cancellation_sampling import sample_two_deck_deal, two_deck_knowledge
from games.engine.bots.sampling import Knowledge, deal_by_flow
from games.engine.bots.search import distinct_two_deck_plays, two_deck_template
from games.engine.cancellation import HEARTS2, SUITS2, CancellationMatch, points_of
from games.engine.cards import DECK_SIZE, SUIT_MASKS, TWO_DECKS, code_index, indices_of
from games.engine.phases import FINISHED, HAND_OVER, MOON, PLAYING

from .test_r5_2_cancellation import moon_table, play_trick, table, two_deck_hands
from .test_search_bot import random_state

PROPERTY = settings(max_examples=30, deadline=None, derandomize=True)
SIZES = (5, 6, 7, 8, 9, 10)
each_size = pytest.mark.parametrize("players", SIZES, ids=lambda n: f"players={n}")
sizes = st.sampled_from(SIZES)
seeds = st.integers(min_value=0, max_value=2**31)
SMALL = 12  # playouts per decision: enough to exercise the search, quick at two decks


def cancellation_state(players: int, seed: int, steps: int, hand_no: int = 1) -> Match:
    """Return a Cancellation match part-way through a hand, reached by random decisions."""
    return random_state(players, seed, steps, hand_no, variant="cancellation")


def cards(*codes: str) -> int:
    """Return the two-deck card set of codes like "QS" and "QS2"."""
    mask = 0
    for code in codes:
        mask |= 1 << code_index(code)
    return mask


# ----- knowledge and sampling -----


@PROPERTY
@given(players=sizes, seed=seeds, steps=st.integers(0, 110), hand_no=st.integers(1, 10))
def test_knowledge_is_true_and_samples_agree_with_it(
    players: int, seed: int, steps: int, hand_no: int
) -> None:
    match = cancellation_state(players, seed, steps, hand_no)
    if match.phase != PLAYING:
        return
    assert isinstance(match, CancellationMatch)
    widow_size = match.rules.widow_size
    for me in range(players):
        k = two_deck_knowledge(match.view(me))
        # Every fact holds in the real deal: the real hands are one of the consistent ones.
        for seat in range(players):
            assert not match.hands[seat] & k.excluded[seat]
            assert k.known[seat] & match.hands[seat] == k.known[seat]
            assert k.counts[seat] == match.hands[seat].bit_count()
            # Taken cards are known but for the widow's, face down with its taker.
            widow = match.widow if seat == match.widow_taker else 0
            assert k.taken[seat] | widow == match.taken[seat]
        others = sum(h for s, h in enumerate(match.hands) if s != me)
        assert k.unseen == others | match.widow
        assert k.widow == widow_size
        rng = random.Random(seed)
        for _ in range(4):
            hands, widow = sample_two_deck_deal(k, rng)
            assert hands[me] == match.hands[me]
            assert widow.bit_count() == widow_size
            union = widow
            for seat, hand in enumerate(hands):
                assert hand.bit_count() == k.counts[seat]
                assert not hand & k.excluded[seat]
                assert hand & k.known[seat] == k.known[seat]
                assert not union & hand  # no copy dealt twice
                union |= hand
            assert union == k.unseen | k.hand


def test_a_void_excludes_both_copies_and_samples_follow_it() -> None:
    # Seats 3 and 4 get no clubs: they show it on the first club lead.
    match = table(5, {1: ["2C", "3C"]}, avoid={3: "C", 4: "C"})
    play_trick(match, {1: "2C"})
    k = two_deck_knowledge(match.view(0))
    both_clubs = SUIT_MASKS[0] | SUIT_MASKS[0] << DECK_SIZE
    assert k.excluded[3] & both_clubs == both_clubs
    rng = random.Random(1)
    for _ in range(20):
        hands, _ = sample_two_deck_deal(k, rng)
        assert not (hands[3] | hands[4]) & both_clubs


def test_a_heart_led_unbroken_shows_a_hand_of_hearts() -> None:
    rules = RuleSet(players=5, variant="cancellation")
    hearts = [f"{r}H" for r in "23456789TJQKA"] * 2
    hands = two_deck_hands(rules, {1: hearts[:20]})
    match = Match.new(rules)
    match.start_hand(Deal.from_hands(rules, hands))
    match.play(1, "2H")  # R5.4: hearts unbroken, so the leader holds nothing else
    k = two_deck_knowledge(match.view(2))
    assert k.excluded[1] == TWO_DECKS & ~HEARTS2


def test_a_tight_deal_is_still_found() -> None:
    # Seat 0 holds 20 spades; seats 1, 2 and 3 have shown they hold only clubs, diamonds and
    # hearts; seat 4 and the widow hold the rest. Random draws fail such a corner every time,
    # and the flow must then place the cards exactly.
    spades = [f"{r}S" for r in "23456789TJQKA"] + [f"{r}S2" for r in "23456789TJQKA"]
    hand = cards(*spades[:20])
    only = [TWO_DECKS & ~SUITS2[suit] for suit in range(3)]
    k = Knowledge(
        seat=0,
        players=5,
        hand=hand,
        played=0,
        unseen=TWO_DECKS & ~hand,
        counts=(20, 20, 20, 20, 20),
        excluded=(0, *only, 0),
        known=(hand, 0, 0, 0, 0),
        taken=(0,) * 5,
        qs_weight=(0.0,) + (1.0,) * 4,
        widow=4,
    )
    rng = random.Random(4)
    for _ in range(30):
        hands, widow = sample_two_deck_deal(k, rng)
        assert [not h & x for h, x in zip(hands, k.excluded, strict=True)] == [True] * 5
        assert [h.bit_count() for h in hands] == [20] * 5 and widow.bit_count() == 4
        assert sum(hands) + widow == TWO_DECKS
    # The fallback alone, where the greedy choice must be undone: hand 0 may hold clubs
    # only, hand 1 anything; one club and one diamond.
    club, diamond = 1, 1 << 13
    for seed in range(5):
        hands = deal_by_flow(
            [0, 0], [1, 1], club | diamond, [~SUIT_MASKS[0], 0], SUIT_MASKS, random.Random(seed)
        )
        assert hands == [club, diamond]


# ----- the candidates: the two copies of a card are one -----


def test_two_copies_are_one_candidate_and_the_first_is_played() -> None:
    legal = cards("5C", "5C2", "9D2")
    first_five, second_nine = code_index("5C"), code_index("9D2")
    assert distinct_two_deck_plays(legal, cards("6C", "6C2")) == [first_five, second_nine]
    assert distinct_two_deck_plays(cards("5C2"), 0) == [code_index("5C2")]


def test_faces_merge_only_without_a_live_twin_between() -> None:
    legal = cards("5C", "6C")
    # The other 5♣ and 6♣ are out: either could cancel one card and not the other.
    assert len(distinct_two_deck_plays(legal, cards("5C2"))) == 2
    assert len(distinct_two_deck_plays(legal, cards("6C2"))) == 2
    # Both twins gone (played or held by us), nothing live between: one candidate.
    assert distinct_two_deck_plays(legal, cards("7C", "4C2")) == [code_index("5C")]
    assert distinct_two_deck_plays(cards("5C", "5C2", "6C"), 0) == [code_index("5C")]
    # The Q♠ is never merged with its neighbours.
    assert len(distinct_two_deck_plays(cards("JS", "QS", "QS2", "KS"), 0)) == 3


# ----- the playout policy and its scoring -----


def test_the_policy_ducks_with_a_twin_of_the_winner() -> None:
    match = table(5, {1: ["9D"], 2: ["AD"], 3: ["AD", "5D"]})
    match.play(1, "9D")
    match.play(2, "AD")
    # The A♦'s twin cancels the winner and cannot win: the highest card that loses.
    assert duck_two_decks(match, match.legal_mask()) == code_index("AD2")


def test_the_policy_sheds_a_queen_when_void() -> None:
    match = table(5, {1: ["2C"], 2: ["QS", "AH", "3D"]}, avoid={2: "C"})
    match.play(1, "2C")
    assert duck_two_decks(match, match.legal_mask()) % DECK_SIZE == code_index("QS")


@each_size
def test_a_playout_ends_the_hand_and_the_engine_scores_52_points(players: int) -> None:
    rules = RuleSet(players=players, variant="cancellation")
    for seed in range(3):
        match = Match.new(rules)
        match.start_hand(Deal.from_seed(rules, seed))
        totals = list(match.totals)
        play_out_two_decks(match, random.Random(seed).random)
        scores = two_deck_scores(match, totals)
        assert match.phase in (HAND_OVER, FINISHED)
        assert scores == list(match.sheet[-1].scores)
        assert sum(points_of(t) for t in match.taken) == 52


def test_a_playout_settles_a_moon_shot_it_must_ask_about() -> None:
    match = moon_table(6, "ask")
    assert match.phase == MOON
    assert two_deck_scores(match, [0] * 6) in (
        [-52 if s == 1 else 0 for s in range(6)],
        [0 if s == 1 else 52 for s in range(6)],
    )


@each_size
def test_the_template_is_the_position_without_its_hidden_cards(players: int) -> None:
    for seed in range(4):
        match = cancellation_state(players, seed, 7 * seed + 3 * players)
        if match.phase != PLAYING:
            continue
        assert isinstance(match, CancellationMatch)
        view = match.view(match.turn)
        template = two_deck_template(view, two_deck_knowledge(view))
        # With the real hands and widow put back, the template plays on as the match does.
        template.hands = list(match.hands)
        template.widow = match.widow
        template.pending = match.pending
        template.taken = list(match.taken)
        rng = random.Random(seed)
        play_out_two_decks(match, random.Random(seed).random)
        play_out_two_decks(template, rng.random)
        assert template.taken == match.taken
        assert template.sheet[-1].scores == match.sheet[-1].scores


# ----- the bot -----


@settings(max_examples=15, deadline=None, derandomize=True)
@given(players=sizes, seed=seeds, steps=st.integers(0, 110), hand_no=st.integers(1, 10))
def test_every_decision_is_legal(players: int, seed: int, steps: int, hand_no: int) -> None:
    match = cancellation_state(players, seed, steps, hand_no)
    bot = SearchBot(seed=seed, playouts=SMALL)
    # Finish the hand with the search bot deciding for every seat, through the checked door.
    while match.phase in (PLAYING, MOON):
        for seat in match.to_act():
            match.apply(bot.choose(match.view(seat)))  # raises on any illegal decision
    assert match.phase in (HAND_OVER, FINISHED)


WIDOW = -1  # the widow's place in swap_between


def swap_between(
    match: CancellationMatch, a: int, b: int, rng: random.Random
) -> CancellationMatch | None:
    """Return a copy where places a and b (seats, or WIDOW) swap hidden cards of one suit, or
    None if they cannot.

    Same-suit swaps keep every void shown and every count. The widow lies face down with its
    taker's cards, or with trick 1's cards while they wait, and moves with them.
    """

    def held(place: int) -> int:
        return match.widow if place == WIDOW else match.hands[place]

    for suit in rng.sample(range(4), 4):
        xs, ys = indices_of(held(a) & SUITS2[suit]), indices_of(held(b) & SUITS2[suit])
        # A card for its own twin changes nothing: two different faces.
        pairs = [(x, y) for x in xs for y in ys if x % DECK_SIZE != y % DECK_SIZE]
        if not pairs:
            continue
        x, y = rng.choice(pairs)
        swap = 1 << x | 1 << y
        other = match.copy()
        for place in (a, b):
            if place != WIDOW:
                other.hands[place] ^= swap
        if WIDOW in (a, b):
            other.widow ^= swap
            if match.widow_taker is None:
                other.pending ^= swap
            else:
                other.taken[match.widow_taker] ^= swap
        return other
    return None


def swap_hidden(match: CancellationMatch, me: int, rng: random.Random) -> CancellationMatch | None:
    """Return a copy where two places the seat cannot see (other hands, the widow) swap
    cards of one suit, or None if none can."""
    places = [s for s in range(match.n) if s != me] + [WIDOW]
    rng.shuffle(places)
    for a in places:
        for b in places:
            if a < b:
                other = swap_between(match, a, b, rng)
                if other is not None:
                    return other
    return None


@PROPERTY
@given(players=sizes, seed=seeds, steps=st.integers(0, 110))
def test_never_reads_a_hidden_card_or_the_widow(players: int, seed: int, steps: int) -> None:
    match = cancellation_state(players, seed, steps)
    if match.phase != PLAYING:
        return
    assert isinstance(match, CancellationMatch)
    me = match.turn
    other = swap_hidden(match, me, random.Random(seed))
    if other is None:
        return
    assert (other.hands, other.widow) != (match.hands, match.widow)
    assert other.view(me) == match.view(me)  # the seat cannot tell the two states apart
    first = SearchBot(seed=seed, playouts=SMALL).choose(match.view(me))
    second = SearchBot(seed=seed, playouts=SMALL).choose(other.view(me))
    assert first == second


@each_size
def test_a_widow_change_alone_changes_no_decision(players: int) -> None:
    if not RuleSet(players=players, variant="cancellation").widow_size:
        return  # eight players: no widow
    tried = 0
    for seed in range(6):
        match = cancellation_state(players, seed, 3 * seed)
        assert isinstance(match, CancellationMatch)
        me = match.turn
        rng = random.Random(seed)
        holder = rng.choice([s for s in range(players) if s != me])
        other = swap_between(match, WIDOW, holder, rng)
        if match.phase != PLAYING or other is None:
            continue
        assert other.widow != match.widow
        assert other.view(me) == match.view(me)
        decisions = {
            str(SearchBot(seed=seed, playouts=SMALL).choose(state.view(me)))
            for state in (match, other)
        }
        assert len(decisions) == 1
        tried += 1
    assert tried


@each_size
def test_deterministic_for_a_seed(players: int) -> None:
    for seed in range(3):
        match = cancellation_state(players, seed, 4 + 5 * seed)
        if match.phase != PLAYING:
            continue
        view = match.view(match.turn)
        one = SearchBot(seed=7, playouts=SMALL)
        decisions = {str(SearchBot(seed=7, playouts=SMALL).choose(view)) for _ in range(2)}
        decisions.add(str(one.choose(view)))
        decisions.add(str(one.choose(view)))  # a bot's earlier decisions change nothing
        assert len(decisions) == 1


@each_size
@pytest.mark.parametrize("budget", [20, 60])
def test_respects_its_playout_budget(players: int, budget: int) -> None:
    bot = SearchBot(seed=1, playouts=budget)
    match = cancellation_state(players, players, 0)
    searched = 0
    while match.phase == PLAYING:
        seat = match.turn
        match.apply(bot.choose(match.view(seat)))
        assert bot.last_playouts <= budget
        searched += bot.last_playouts > 0
    assert searched


@each_size
def test_plays_whole_matches_with_a_moon_shot(players: int) -> None:
    bots = [SearchBot(seed=s, playouts=10) if s % 2 else BaselineBot() for s in range(players)]
    # Hand 1 is a forced shot for seat 1, a search bot, which chooses its option (R4.3, R4.6).
    match = moon_table(players, "ask", target=60)
    assert match.phase == MOON
    play_hand(match, bots)
    assert match.sheet[0].moon == 1 and match.sheet[0].moon_option in ("subtract", "add")
    while not match.is_finished:
        match.start_hand(Deal.from_seed(match.rules, 100 * players + match.hand_no))
        play_hand(match, bots)
        assert sum(match.sheet[-1].points) == 52 or match.sheet[-1].moon is not None
        assert match.hand_no < 40
    assert match.winners
