"""R5.2 Cancellation Hearts (with R5.4's settled points), at every table size it allows."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable

import pytest

from games.engine import (
    ALL_CARDS,
    BadCard,
    BadDeal,
    BaselineBot,
    CancellationMatch,
    Card,
    CardNotHeld,
    Deal,
    IllegalMove,
    Match,
    Play,
    RandomBot,
    RuleSet,
    SearchBot,
    WrongPhase,
    replay,
    winner_of_trick,
)
from games.engine.bots import play_hand, random_playout
from games.engine.cards import RANKS, SUITS

from .helpers import cards_in

SIZES = (5, 6, 7, 8, 9, 10)
each_size = pytest.mark.parametrize("players", SIZES, ids=lambda n: f"players={n}")
HAND_SIZES = {5: 20, 6: 17, 7: 14, 8: 13, 9: 11, 10: 10}
WIDOWS = {5: 4, 6: 2, 7: 6, 8: 0, 9: 5, 10: 4}
FACES = [r + s for s in SUITS for r in RANKS]  # C, D, H, S; 2 .. A


def rules_for(players: int, **options: object) -> RuleSet:
    return RuleSet(players=players, variant="cancellation", **options)  # type: ignore[arg-type]


def two_deck_hands(
    rules: RuleSet,
    fixed: dict[int, Iterable[str]],
    avoid: dict[int, str] | None = None,
    widow: Iterable[str] = (),
) -> list[list[str]]:
    """Return hands holding the fixed cards; the rest of both decks dealt round-robin.

    `avoid` maps a seat to suits it must not receive from the filler (to make voids); a card
    nobody may take goes to the widow. Cards are plain names: the deal gives out the copies.
    """
    n, size = rules.players, rules.hand_size
    left = Counter({face: 2 for face in FACES})
    hands: list[list[str]] = [list(fixed.get(s, ())) for s in range(n)]
    kept = list(widow)
    for card in [c for h in hands for c in h] + kept:
        left[card[:2]] -= 1
        assert left[card[:2]] >= 0, f"{card} is fixed three times"
    avoid = avoid or {}
    # Seats that avoid suits are filled first, from what they may take, so none is left short.
    for s, suits in avoid.items():
        for face in FACES:
            while left[face] and len(hands[s]) < size and face[1] not in suits:
                hands[s].append(face)
                left[face] -= 1
    seat = 0
    for face in FACES:
        for _ in range(left[face]):
            for step in range(n):
                s = (seat + step) % n
                if len(hands[s]) < size and face[1] not in avoid.get(s, ""):
                    hands[s].append(face)
                    seat = s + 1
                    break
            else:
                kept.append(face)
    assert len(kept) == rules.widow_size, "the fixed cards leave the wrong widow"
    return hands


def table(
    players: int,
    fixed: dict[int, Iterable[str]],
    avoid: dict[int, str] | None = None,
    widow: Iterable[str] = (),
    **options: object,
) -> Match:
    """Return a Cancellation match in hand 1 (dealer 0, seat 1 leads) with these cards."""
    rules = rules_for(players, **options)
    match = Match.new(rules)
    match.start_hand(Deal.from_hands(rules, two_deck_hands(rules, fixed, avoid, widow)))
    return match


def play_trick(match: Match, cards: dict[int, str]) -> None:
    """Play one trick: the given card for some seats, a low legal card for the others."""
    for _ in range(match.n):
        seat = match.to_act()[0]
        if seat in cards:
            match.play(seat, cards[seat])
        else:
            legal = match.legal_plays(seat)
            match.play(seat, next((c for c in legal if not c.points), legal[0]))


def clubs_only_at(players: int, seats: Iterable[int]) -> dict[int, str]:
    """Return `avoid` so that only these seats are dealt clubs."""
    return {s: "C" for s in range(players) if s not in set(seats)}


# ----- dealing, the widow, no pass, the dealer and the first lead -----


@each_size
def test_R5_2_deal_as_far_as_the_cards_go_evenly(players: int) -> None:
    rules = rules_for(players)
    assert (rules.hand_size, rules.widow_size) == (HAND_SIZES[players], WIDOWS[players])
    for seed in range(5):
        deal = Deal.from_seed(rules, seed)
        assert [len(h) for h in deal.hands] == [HAND_SIZES[players]] * players
        assert len(deal.widow_cards) == WIDOWS[players]
        dealt = [c for h in deal.hands for c in h] + list(deal.widow_cards)
        assert len(set(dealt)) == 104  # every copy once: both decks, every card twice
        assert Counter(c.face_text for c in dealt) == Counter({f: 2 for f in FACES})
        assert Deal.from_dict(rules, json.loads(json.dumps(deal.to_dict()))) == deal
    assert Deal.from_seed(rules, 3) == Deal.from_seed(rules, 3)


@each_size
def test_R5_2_explicit_deals_are_checked(players: int) -> None:
    rules = rules_for(players)
    hands = two_deck_hands(rules, {})
    deal = Deal.from_hands(rules, hands)
    assert deal.widow.bit_count() == WIDOWS[players]
    three = [list(h) for h in hands]
    three[0][0] = three[1][0] = three[2][0] = "AS"
    three[0][1] = "AS"
    with pytest.raises(BadDeal, match="more than twice"):
        Deal.from_hands(rules, three)
    short = [list(h) for h in hands]
    short[0].pop()
    with pytest.raises(BadDeal, match="each seat needs"):
        Deal.from_hands(rules, short)
    data = deal.to_dict()
    if WIDOWS[players]:
        data["widow"] = "2C 2C"
        with pytest.raises(BadDeal, match="widow"):
            Deal.from_dict(rules, data)


@each_size
def test_R5_2_no_passing(players: int) -> None:
    match = table(players, {})
    assert match.phase == "playing"
    assert match.pass_direction == "none"
    assert match.public_view().has_passed == (False,) * players
    with pytest.raises(WrongPhase):
        match.pass_cards(0, match.hand(0)[:3])
    assert match.view(0).pass_to is None and match.view(0).received is None


@each_size
def test_R5_2_dealer_moves_left_and_the_seat_after_leads(players: int) -> None:
    rules = rules_for(players, target=500, moon="add")
    match = Match.new(rules)
    rng = random.Random(players)
    for hand_no in range(1, players + 2):
        match.start_hand(Deal.from_rng(rules, rng))
        assert match.public_view().dealer == (hand_no - 1) % players
        assert match.to_act() == (hand_no % players,)
        random_playout(match, rng)


@each_size
def test_R5_2_first_lead_is_any_card_but_hearts_stay_unbroken(players: int) -> None:
    match = table(players, {1: ["2S", "5C", "QS", "AH"]})
    legal = match.legal_plays(1)
    hand = match.hand(1)
    assert legal == tuple(c for c in hand if c.suit != "H")  # R3.1 and R3.3 do not apply
    assert match.why_illegal(1, "AH") == "Hearts are not broken yet"
    with pytest.raises(IllegalMove) as err:
        match.play(1, "AH")
    assert err.value.rule == "R3.5"
    match.play(1, "QS")  # R3.6: a Q♠ may lead, and it breaks hearts


@each_size
def test_R5_4_first_leader_with_only_hearts_and_queens(players: int) -> None:
    size = HAND_SIZES[players]
    hearts = [r + "H" for r in RANKS] * 2
    only_hearts = table(players, {1: hearts[:size]})
    assert len(only_hearts.legal_plays(1)) == size  # R3.7: nothing but hearts, any heart
    queens = table(players, {1: ["QS", "QS"] + hearts[: size - 2]})
    assert [str(c) for c in queens.legal_plays(1)] == ["QS", "QS2"]


# ----- cancellation -----


def faces_of(cards) -> list[str]:
    return [c.face_text for c in cards]


@each_size
def test_R5_2_identical_cards_cancel(players: int) -> None:
    # One pair: the A♣s cancel, so seat 1's K♣ (its twin is in seat 1's hand) wins.
    match = table(players, {1: ["KC", "KC"], 2: ["AC"], 3: ["AC"]})
    play_trick(match, {1: "KC", 2: "AC", 3: "AC"})
    trick = match.public_view().tricks[0]
    assert {"AC", "AC2"} <= {str(c) for c in trick.cancelled}
    assert "KC" not in faces_of(trick.cancelled)
    assert trick.winner == trick.taker == 1
    assert match.to_act() == (1,)


@each_size
def test_R5_2_two_pairs_cancel(players: int) -> None:
    fixed = {1: ["QC", "QC"], 2: ["AC"], 3: ["AC"], 4: ["KC"], 0: ["KC"]}
    match = table(players, fixed)
    play_trick(match, {1: "QC", 2: "AC", 3: "AC", 4: "KC", 0: "KC"})
    trick = match.public_view().tricks[0]
    assert faces_of(trick.cancelled)[-4:] == ["KC", "KC", "AC", "AC"]
    assert trick.winner == 1


@each_size
def test_R5_4_any_pair_cancels_but_only_the_suit_led_changes_the_winner(players: int) -> None:
    # The Q♠s discarded on a club trick cancel each other, yet still score for its taker.
    fixed = {1: ["5C"], 2: ["AC", "AC"], 3: ["QS"], 4: ["QS"]}
    match = table(players, fixed, {3: "C", 4: "C"})
    play_trick(match, {1: "5C", 2: "AC", 3: "QS", 4: "QS"})
    view = match.public_view()
    trick = view.tricks[0]
    assert {"QS", "QS2"} <= {str(c) for c in trick.cancelled}
    assert trick.winner == 2 and trick.points >= 26
    assert view.points_taken[2] == trick.points
    assert view.hearts_broken


def pairs(players: int, suit: str, first_rank: int) -> tuple[dict[int, list[str]], dict[int, str]]:
    """Return fixed cards and plays where seats 1 and 2, 3 and 4, ... play twins of `suit`.

    With an odd number of players seat 0 is left out: the caller makes it void in `suit`.
    """
    fixed: dict[int, list[str]] = {}
    plays: dict[int, str] = {}
    seats = [(1 + i) % players for i in range(players - players % 2)]
    for k in range(0, len(seats), 2):
        card = RANKS[first_rank + k // 2] + suit
        for seat in seats[k : k + 2]:
            fixed.setdefault(seat, []).append(card)
            plays[seat] = card
    return fixed, plays


def merge(*fixed: dict[int, list[str]]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for f in fixed:
        for seat, cards in f.items():
            out.setdefault(seat, []).extend(cards)
    return out


@each_size
def test_R5_2_trick_with_every_card_of_the_suit_led_cancelled_is_not_won(players: int) -> None:
    # Trick 1: every club played has its twin in the trick (seat 0 has none at an odd table):
    # it is not won and waits, with the widow; seat 1 leads again, wins trick 2 with an A♦
    # whose twin it holds, and takes both tricks and the widow (R5.4).
    clubs, plays = pairs(players, "C", 0)
    match = table(players, merge(clubs, {1: ["AD", "AD"]}), {0: "C"})
    play_trick(match, plays)
    view = match.public_view()
    first = view.tricks[0]
    assert first.winner is None and first.taker is None
    assert len(first.cancelled) >= players - players % 2
    assert set(view.carried) == {p.card for p in first.plays}
    assert view.widow_taker is None and view.widow is None
    assert view.widow_size == WIDOWS[players]
    assert match.to_act() == (1,)  # the same player leads again
    play_trick(match, {1: "AD"})
    view = match.public_view()
    assert [t.winner for t in view.tricks] == [None, 1]
    assert [t.taker for t in view.tricks] == [1, 1]
    assert view.carried == ()
    assert view.widow_taker == (1 if WIDOWS[players] else None)
    assert view.widow is None  # face down until the hand ends
    # The widow's points stay out of the points shown during the hand.
    assert view.points_taken[1] == sum(t.points for t in view.tricks)
    assert match.taken[1] & match.widow == match.widow


@each_size
def test_R5_2_tricks_not_won_in_a_row_go_to_the_next_winner(players: int) -> None:
    clubs, plays1 = pairs(players, "C", 0)
    spades, plays2 = pairs(players, "S", 0)
    match = table(players, merge(clubs, spades, {1: ["AD", "AD"]}), {0: "CS"})
    play_trick(match, plays1)
    play_trick(match, plays2)
    assert len(match.public_view().carried) == 2 * players
    assert match.to_act() == (1,)
    play_trick(match, {1: "AD"})
    view = match.public_view()
    assert [t.winner for t in view.tricks] == [None, None, 1]
    assert [t.taker for t in view.tricks] == [1, 1, 1]


def find_hand(players: int, wanted, tries: int = 3000) -> Match:
    """Return a hand of random play (seeded, so always the same) in which `wanted` holds."""
    rules = rules_for(players, target=500, moon="add")
    for seed in range(tries):
        rng = random.Random(seed)
        match = Match.new(rules)
        match.start_hand(Deal.from_random(rules, rng))
        random_playout(match, rng)
        if wanted(match):
            return match
    raise AssertionError("no such hand found")


@each_size
def test_R5_2_last_trick_not_won_goes_to_its_leader(players: int) -> None:
    match = find_hand(players, lambda m: m.public_view().record.tricks[-1].winner is None)
    last = match.public_view().record.tricks[-1]
    assert last.taker == last.leader
    assert match.taken[last.leader] & sum(1 << p.card.index for p in last.plays)


@each_size
def test_R5_4_widow_goes_with_trick_one_to_whoever_takes_its_cards(players: int) -> None:
    if not WIDOWS[players]:
        match = table(players, {})
        assert match.public_view().widow_size == 0
        return
    match = find_hand(players, lambda m: m.public_view().record.tricks[0].winner is not None)
    view = match.public_view()
    assert view.widow_taker == view.tricks[0].winner
    assert match.taken[view.widow_taker] & match.widow == match.widow
    # A trick 1 not won carries the widow: see the test of tricks not won above.


# ----- scoring and the moon -----


@each_size
def test_R5_2_every_copy_scores_52_points_a_hand(players: int) -> None:
    rules = rules_for(players, target=500, moon="add")
    rng = random.Random(players)
    match = Match.new(rules)
    for _ in range(5):
        match.start_hand(Deal.from_rng(rules, rng))
        random_playout(match, rng)
        row = match.sheet[-1]
        assert sum(row.points) == 52
        expected = [0] * players
        for seat, taken in enumerate(match.taken):
            for card in ALL_CARDS:
                if taken >> card.index & 1:
                    expected[seat] += card.points
        assert list(row.points) == expected
        if row.moon is None:
            assert row.scores == row.points


def moon_table(players: int, moon: str, totals: list[int] | None = None, target: int = 100):
    """Return a match whose hand 1 seat 1 shoots: it holds the top clubs, both copies."""
    size = HAND_SIZES[players]
    top = [f for f in reversed(FACES[:13]) for _ in range(2)][:size]
    match = table(players, {1: top}, moon=moon, target=target)
    if totals is not None:
        match.totals = list(totals)
    rng = random.Random(players)
    while match.phase == "playing":
        seat = match.to_act()[0]
        legal = match.legal_plays(seat)
        match.play(seat, legal[-1] if seat == 1 else rng.choice(legal))
    return match


@each_size
@pytest.mark.parametrize("option", ["subtract", "add"])
def test_R5_2_moon_is_every_heart_and_both_queens_widow_included(players: int, option: str):
    match = moon_table(players, "ask")
    assert match.phase == "moon" and match.to_act() == (1,)
    assert match.view(1).widow is not None  # the hand is over: the widow is shown
    match.choose_moon(1, option)
    row = match.sheet[-1]
    assert row.points[1] == 52 and (row.moon, row.moon_option) == (1, option)
    if option == "subtract":
        assert list(row.scores) == [-52 if s == 1 else 0 for s in range(players)]
    else:
        assert list(row.scores) == [0 if s == 1 else 52 for s in range(players)]


@each_size
def test_R5_2_match_end_and_ties(players: int) -> None:
    ended = moon_table(players, "add", target=52)
    assert ended.is_finished and ended.winners == (1,)
    tied = moon_table(players, "add", totals=[-52] + [0] * (players - 1), target=52)
    assert tied.is_finished and tied.winners == (0, 1)
    going = moon_table(players, "subtract", target=52)
    assert not going.is_finished and going.totals[1] == -52


# ----- telling the copies apart -----


@each_size
def test_R5_2_each_copy_has_its_own_code(players: int) -> None:
    match = table(players, {1: ["QS", "QS", "5C"]})
    hand = match.hand(1)
    codes = [str(c) for c in hand]
    assert len(set(codes)) == len(codes)  # stable, distinct: usable as form values and ids
    assert "QS" in codes and "QS2" in codes
    qs2 = Card.parse("QS2")
    assert qs2.copy == 2 and qs2.face is Card.parse("QS") and qs2.face_text == "QS"
    assert qs2.symbol == "Q♠" and qs2.points == 13 and qs2 != Card.parse("QS")
    assert [str(c) for c in match.view(1).legal if c.face_text == "QS"] == ["QS", "QS2"]
    match.play(1, "QS2")  # a specific copy
    assert [str(c) for c in match.hand(1) if c.face_text == "QS"] == ["QS"]
    assert str(match.public_view().trick[0].card) == "QS2"


@each_size
def test_R5_2_a_plain_name_plays_one_copy(players: int) -> None:
    both = table(players, {1: ["QS", "QS"]})
    both.play(1, "QS")  # the first copy while it is held
    assert str(both.public_view().trick[0].card) == "QS"
    assert [str(c) for c in both.hand(1) if c.face_text == "QS"] == ["QS2"]
    second = table(players, {1: ["QS2"], 2: ["QS"]})
    assert [str(c) for c in second.hand(1) if c.face_text == "QS"] == ["QS2"]
    assert second.why_illegal(1, "QS") is None
    second.apply(Play(1, Card.parse("QS")))  # the copy it holds
    assert str(second.public_view().trick[0].card) == "QS2"
    unchecked = table(players, {1: ["QS2"], 2: ["QS"]})
    unchecked.apply_unchecked(Play(1, Card.parse("QS")))
    assert unchecked.public_view() == second.public_view()


def test_R5_2_second_copies_outside_a_two_deck_game_are_refused() -> None:
    rules = RuleSet(players=4)
    match = Match.new(rules)
    match.hand_no = 3  # the hold hand: play starts at once
    match.start_hand(Deal.from_seed(rules, 1))
    seat = match.to_act()[0]
    with pytest.raises(BadCard):
        Card.parse("QS3")
    with pytest.raises(BadCard):
        match.play(seat, "2C2")
    assert isinstance(match.illegal_reason(seat, Card.parse("2C2")), CardNotHeld)
    with pytest.raises(CardNotHeld):
        match.play(seat, Card.parse("2C2"))
    with pytest.raises(TypeError, match="Match.new"):
        Match(rules_for(5))
    assert isinstance(Match.new(rules_for(5)), CancellationMatch)


# ----- views (R6.3) -----


@each_size
def test_R6_3_a_seat_never_sees_another_hand_or_the_widow_in_play(players: int) -> None:
    rules = rules_for(players)
    match = Match.new(rules)
    match.start_hand(Deal.from_seed(rules, 5))
    bots = [RandomBot(s) for s in range(players)]
    widow = set(match.deal.widow_cards)
    while match.phase == "playing":
        for seat in range(players):
            view = match.view(seat)
            assert view.widow is None and view.record is None
            others = set()
            for other in range(players):
                if other != seat:
                    others |= set(match.hand(other))
            seen = cards_in(view)
            assert not seen & others
            assert not seen & widow - {p.card for t in view.tricks for p in t.plays}
            assert view.hand == match.hand(seat)
            assert view.widow_size == len(widow)
        seat = match.to_act()[0]
        match.apply(bots[seat].choose(match.view(seat)))
    over = match.public_view()
    assert over.widow is not None and set(over.widow) == widow
    assert over.record is not None and set(over.record.widow) == widow
    assert sum(over.points_taken) == 52


# ----- whole matches, snapshots and replays -----


@each_size
def test_R5_2_baseline_and_search_bots_play_whole_matches(players: int) -> None:
    rules = rules_for(players, target=80)
    # A search bot with a small budget: the levels' budgets would make this test minutes long.
    bots = [BaselineBot() if s % 2 else SearchBot(seed=s, playouts=12) for s in range(players)]
    match = Match.new(rules)
    deals, decisions = [], []
    while not match.is_finished:
        deals.append(Deal.from_seed(rules, 10 * players + match.hand_no))
        match.start_hand(deals[-1])
        play_hand(match, bots, decisions.append)
        assert match.hand_no < 60
        assert sum(match.sheet[-1].points) == 52
    assert max(match.totals) >= 80
    assert match.winners == tuple(s for s in range(players) if match.totals[s] == min(match.totals))
    assert replay(rules, deals, decisions) == match
    assert replay(rules, deals, decisions, checked=False) == match


@each_size
def test_R5_3_snapshot_round_trips_at_every_step(players: int) -> None:
    rules = rules_for(players, target=500)
    match = Match.new(rules)
    assert Match.from_snapshot(match.snapshot()) == match
    match.start_hand(Deal.from_seed(rules, 9))
    bots = [RandomBot(s) for s in range(players)]
    steps = 0
    while True:
        data = json.loads(json.dumps(match.snapshot()))
        again = Match.from_snapshot(data)
        assert again == match and isinstance(again, CancellationMatch)
        assert again.public_view() == match.public_view()
        if match.phase == "hand_over":
            break
        seat = match.to_act()[0]
        match.apply(bots[seat].choose(match.view(seat)))
        steps += 1
    assert steps == players * HAND_SIZES[players]
    copy = match.copy()
    copy.start_hand(Deal.from_seed(rules, 10))
    assert match.phase == "hand_over" and copy.phase == "playing"


@pytest.mark.parametrize("players", (6, 8, 10), ids=lambda n: f"players={n}")
def test_R5_5_last_trick_not_won_takes_every_trick_still_waiting(players: int) -> None:
    # Seats 1 and 2, 3 and 4, ... hold the same cards, one copy each, and each answers its
    # partner with the twin: no trick is ever won, and all of them, with the widow, go to the
    # leader of the last trick, seat 1, who led every trick (R5.2) - a moon (R5.4).
    rules = rules_for(players, moon="subtract")
    size = rules.hand_size
    partner = {s: (s + 1) % players if s % 2 else (s - 1) % players for s in range(players)}
    hands: list[list[str]] = [[] for _ in range(players)]
    for k, first in enumerate(range(1, players, 2)):
        faces = FACES[k * size : (k + 1) * size]
        hands[first] = list(faces)
        hands[partner[first]] = list(faces)
    match = Match.new(rules)
    match.start_hand(Deal.from_hands(rules, hands))
    while match.phase == "playing":
        seat = match.to_act()[0]
        played = {p.seat: p.card for p in match.public_view().trick}
        twin = played.get(partner[seat])
        match.play(seat, twin.face_text if twin else match.legal_plays(seat)[0])
    view = match.public_view()
    assert all(t.winner is None and t.leader == 1 for t in view.tricks)
    assert all(t.taker == 1 for t in view.tricks)
    assert view.widow_taker == (1 if WIDOWS[players] else None)
    assert match.sheet[-1].moon == 1 and match.sheet[-1].points[1] == 52
    assert list(match.sheet[-1].scores) == [-52 if s == 1 else 0 for s in range(players)]


def test_R5_2_winner_of_a_trick_rebuilt_from_cards() -> None:
    def trick(text: str) -> list[Card]:
        return [Card.parse(c) for c in text.split()]

    rules = rules_for(5)
    assert winner_of_trick(rules, 3, trick("5C AC AC2 KD 9C")) == 2  # the A♣s cancel: 9♣
    assert winner_of_trick(rules, 3, trick("5C AC QC2 KD 9C")) == 4  # no pair: the A♣
    assert winner_of_trick(rules, 0, trick("5C 5C2 AD 2S 3H")) is None  # not won
    assert winner_of_trick(RuleSet(), 2, trick("5C AC KD 9C")) == 3
