"""Moves through the services: each checked, logged, answered by bots, and replayable."""

import pytest

from games import engine, services
from games.models import Action, Hand, Match, MatchStatus, ScoreLine
from tests.service_helpers import (
    MOON_DEAL,
    act,
    open_match,
    plays_every_card,
    started_match,
    state_of,
    unchanged,
)


@pytest.fixture
def bob(make_user):
    return make_user("bob")


def play_until(user, match, seat, done):
    """Act for the seat until `done(state)` holds; bots answer after each move."""
    for _ in range(2000):
        state = state_of(match)
        if done(state):
            return state
        assert seat in state.to_act(), "the person must be the one holding things up"
        act(user, match, seat)
    raise AssertionError("the condition never came")


def test_a_pass_is_logged_and_the_bots_pass_too(alice):
    match = started_match(alice, seed=7)
    hand = state_of(match).view(0).hand
    services.pass_cards(alice, match.pk, match.version, [str(c) for c in hand[:3]])
    state = state_of(match)
    assert state.phase == engine.PLAYING
    log = list(Action.objects.filter(match=match).values_list("kind", "seat", "actor"))
    assert ("pass", 0, "person") in log
    assert sorted(s for kind, s, actor in log if kind == "pass" and actor == "bot") == [1, 2, 3]
    assert len(state.view(0).received) == 3


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (2, "exactly three"),
        (4, "exactly three"),
        ("duplicate", "three different cards"),
        ("not held", "do not hold"),
    ],
)
def test_it_refuses_a_bad_pass_and_changes_nothing(alice, cards, message):
    match = started_match(alice, seed=7)
    hand = [str(c) for c in state_of(match).view(0).hand]
    others = [str(c) for c in engine.Deal.from_seed(match.rule_set, 1).hands[0]]
    chosen = {
        2: hand[:2],
        4: hand[:4],
        "duplicate": [hand[0], hand[0], hand[1]],
        "not held": [hand[0], hand[1], next(c for c in others if c not in hand)],
    }[cards]
    before = unchanged(match)
    with pytest.raises(services.BadInput, match=message):
        services.pass_cards(alice, match.pk, match.version, chosen)
    assert unchanged(match) == before


def test_it_refuses_card_text_that_is_not_a_card(alice):
    match = started_match(alice, seed=7)
    with pytest.raises(services.BadInput, match="not a card"):
        services.pass_cards(alice, match.pk, match.version, ["QS", "1X", "AH"])


def test_received_cards_stay_hidden_until_everyone_has_passed(alice, bob):
    match = open_match(alice)
    services.join_match(bob, match.pk)
    match = services.start_match(alice, match.pk).match
    act(alice, match, 0)
    view = state_of(match).view(0)
    assert view.phase == engine.PASSING
    assert view.passed is not None and view.received is None
    assert len(view.hand) == 10
    act(bob, match, 1)
    view = state_of(match).view(0)
    assert view.phase == engine.PLAYING and len(view.received) == 3


def test_it_refuses_a_card_out_of_turn(alice, bob):
    match = open_match(alice)
    services.join_match(bob, match.pk)
    match = services.start_match(alice, match.pk).match
    act(alice, match, 0)
    act(bob, match, 1)
    state = state_of(match)
    idle = next(seat for seat in (0, 1) if seat not in state.to_act())
    user = alice if idle == 0 else bob
    before = unchanged(match)
    turn = match.seats.get(position=state.to_act()[0]).name
    with pytest.raises(services.Conflict, match=f"It is not your turn: {turn} plays next."):
        services.play_card(user, match.pk, match.version, str(state.view(idle).hand[0]))
    assert unchanged(match) == before


def test_it_refuses_an_illegal_card_with_the_rule_that_forbids_it(alice):
    plays_every_card(alice)
    match = started_match(alice, seed=3)
    state = play_until(alice, match, 0, lambda s: s.phase == engine.PLAYING and 0 in s.to_act())
    view = state.view(0)
    illegal = next((o for o in view.options if not o.legal), None)
    assert illegal is not None, "seed 3 gives seat 0 a choice with an illegal card"
    before = unchanged(match)
    with pytest.raises(services.IllegalPlay) as refused:
        services.play_card(alice, match.pk, match.version, str(illegal.card))
    assert refused.value.message == illegal.reason
    assert refused.value.rule == illegal.rule
    assert refused.value.status == 400
    assert unchanged(match) == before


def test_it_refuses_a_card_not_held(alice):
    match = started_match(alice, seed=3)
    state = play_until(alice, match, 0, lambda s: s.phase == engine.PLAYING and 0 in s.to_act())
    foreign = next(c for c in engine.CARDS if c not in state.view(0).hand)
    with pytest.raises(services.BadInput, match="do not hold"):
        services.play_card(alice, match.pk, match.version, str(foreign))


def test_another_seat_passing_does_not_make_a_pass_stale(alice, bob):
    """Passing is simultaneous (R2): Bob's pass changes nothing Alice chose from."""
    match = open_match(alice)
    services.join_match(bob, match.pk)
    match = services.start_match(alice, match.pk).match
    seen = match.version
    act(bob, match, 1)
    hand = [str(c) for c in state_of(match).view(0).hand[:3]]
    services.pass_cards(alice, match.pk, seen, hand)
    assert [str(c) for c in state_of(match).view(0).passed] == sorted(hand, key=engine.Card.parse)


def test_a_pass_made_before_the_hand_moved_on_is_refused(alice, bob):
    match = open_match(alice)
    services.join_match(bob, match.pk)
    match = services.start_match(alice, match.pk).match
    seen = match.version
    act(bob, match, 1)
    act(alice, match, 0)
    turn = state_of(match).to_act()[0]  # bots move at once: a person is to play
    act((alice, bob)[turn], match, turn)
    before = unchanged(match)
    hand = [str(c) for c in state_of(match).view(0).hand[:3]]
    with pytest.raises(services.StaleVersion) as refused:
        services.pass_cards(alice, match.pk, seen, hand)
    assert refused.value.status == 409
    assert unchanged(match) == before


def test_the_same_move_sent_twice_is_applied_once(alice):
    match = started_match(alice, seed=7)
    seen = match.version
    hand = [str(c) for c in state_of(match).view(0).hand[:3]]
    services.pass_cards(alice, match.pk, seen, hand)
    after_first = unchanged(match)
    services.pass_cards(alice, match.pk, seen, list(reversed(hand)))
    assert unchanged(match) == after_first
    assert Action.objects.filter(match=match, actor="person").count() == 1


def test_a_different_move_on_the_same_old_version_is_still_refused(alice):
    match = started_match(alice, seed=7)
    seen = match.version
    hand = [str(c) for c in state_of(match).view(0).hand]
    services.pass_cards(alice, match.pk, seen, hand[:3])
    with pytest.raises(services.StaleVersion):
        services.pass_cards(alice, match.pk, seen, hand[3:6])


def test_only_seated_players_move(alice, bob):
    match = started_match(alice, seed=7)
    with pytest.raises(services.NotAllowed, match="not playing"):
        services.pass_cards(bob, match.pk, match.version, ["2C", "3C", "4C"])


def test_no_move_before_the_match_starts(alice):
    match = open_match(alice)
    with pytest.raises(services.Conflict, match="not started"):
        services.pass_cards(alice, match.pk, match.version, ["2C", "3C", "4C"])


def test_a_forced_card_is_played_for_the_player(alice):
    match = started_match(alice, seed=11)
    play_until(alice, match, 0, lambda s: s.hand_no >= 2)
    forced = Action.objects.filter(match=match, actor="forced")
    assert forced.exists()
    assert all(a.seat == 0 for a in forced)


def test_with_automatic_plays_off_the_player_decides_every_card(alice):
    plays_every_card(alice)
    match = started_match(alice, seed=11, auto_finish=False)
    play_until(alice, match, 0, lambda s: s.hand_no >= 2)
    assert not Action.objects.filter(match=match, actor__in=["forced", "playout"]).exists()
    assert Action.objects.filter(match=match, seat=0, kind="play", hand__number=1).count() == 13


def test_the_rest_of_a_hand_is_played_out_once_no_points_are_left(alice):
    plays_every_card(alice)
    match = started_match(alice, seed=5, target=100)
    play_until(alice, match, 0, lambda s: s.is_finished)
    hands_played_out = 0
    for hand in Hand.objects.filter(match=match):
        plays = list(hand.actions.filter(kind="play").order_by("seq"))
        first = next((i for i, a in enumerate(plays) if a.actor == "playout"), None)
        if first is None:
            continue
        hands_played_out += 1
        rest = plays[first:]
        assert all(a.actor in ("playout", "bot") for a in rest)
        assert not any(a.value.endswith("H") or a.value == "QS" for a in rest)
    assert hands_played_out > 0, "seed 5 gives at least one hand that ends without points left"


def test_a_person_who_shoots_the_moon_chooses_and_the_sheet_records_it(alice):
    match = started_match(alice, deals=[MOON_DEAL], moon="ask", target=200)
    state = play_until(alice, match, 0, lambda s: s.phase == engine.MOON)
    assert state.to_act() == (0,)
    match.refresh_from_db()
    assert match.seats.get(position=0).to_act
    services.choose_moon(alice, match.pk, match.version, "subtract")
    lines = ScoreLine.objects.filter(match=match, hand_number=1).order_by("seat")
    assert [line.score for line in lines] == [-26, 0, 0, 0]
    assert [line.shot_moon for line in lines] == [True, False, False, False]
    assert lines[0].moon_option == "subtract"
    assert state_of(match).hand_no == 2


def test_a_moon_choice_must_be_subtract_or_add(alice):
    match = started_match(alice, deals=[MOON_DEAL], moon="ask")
    play_until(alice, match, 0, lambda s: s.phase == engine.MOON)
    match.refresh_from_db()
    with pytest.raises(services.BadInput, match="subtract 26"):
        services.choose_moon(alice, match.pk, match.version, "both")


def test_the_standing_moon_choice_needs_no_decision(alice):
    match = started_match(alice, deals=[MOON_DEAL], moon="add")
    play_until(alice, match, 0, lambda s: s.hand_no >= 2)
    scores = ScoreLine.objects.filter(match=match, hand_number=1).order_by("seat")
    assert [line.score for line in scores] == [0, 26, 26, 26]


def test_a_whole_match_ends_with_ranks_totals_and_a_replayable_log(alice):
    match = started_match(alice, seed=5, players=5, target=60)
    play_until(alice, match, 0, lambda s: s.is_finished)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.finished_at is not None
    state = state_of(match)
    seats = list(match.seats.order_by("position"))
    assert [s.final_total for s in seats] == list(state.totals)
    assert {s.position for s in seats if s.rank == 1} == set(state.winners)
    assert not any(s.to_act for s in seats)
    last = ScoreLine.objects.filter(match=match, hand_number=match.hand_no).order_by("seat")
    assert [line.total for line in last] == list(state.totals)
    assert services.log_matches_snapshot(match)
    assert services.replay_match(match) == state


def test_no_move_is_accepted_after_the_end(alice):
    match = started_match(alice, seed=5, target=30)
    play_until(alice, match, 0, lambda s: s.is_finished)
    match.refresh_from_db()
    with pytest.raises(services.Conflict, match="over"):
        services.play_card(alice, match.pk, match.version, "2C")


def test_resigning_hands_the_seat_to_a_bot(alice, bob):
    match = open_match(alice)
    services.join_match(bob, match.pk)
    match = services.start_match(alice, match.pk).match
    match = services.resign(bob, match.pk).match
    seat = match.seats.get(position=1)
    assert seat.resigned and not seat.to_act
    assert Action.objects.filter(match=match, seat=1, actor="bot", kind="pass").exists()
    with pytest.raises(services.NotAllowed):
        act(bob, match, 1)


def test_when_the_last_person_resigns_the_match_is_abandoned(alice):
    match = started_match(alice, seed=5)
    match = services.resign(alice, match.pk).match
    assert match.status == MatchStatus.ABANDONED
    assert not match.seats.filter(to_act=True).exists()


def test_every_change_is_announced_after_commit_without_cards(
    alice, django_capture_on_commit_callbacks
):
    from games.services.events import match_changed

    received = []

    def listener(sender, **event):
        received.append(event)

    match_changed.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            match = started_match(alice, seed=7)
    finally:
        match_changed.disconnect(listener)
    assert received[-1] == {
        "signal": match_changed,
        "match_id": match.pk,
        "version": match.version,
        "to_act_user_ids": [alice.pk],
        "status": "active",
        "became_to_act_user_ids": [alice.pk],
    }


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_replaying_the_log_gives_the_snapshot_at_every_table_size(alice, bob, players):
    match = open_match(alice, players=players)
    services.join_match(bob, match.pk)
    match = services.start_match(alice, match.pk).match
    for _ in range(3000):
        state = state_of(match)
        if state.hand_no >= 3 or state.is_finished:
            break
        seat = state.to_act()[0]
        match = act(alice if seat == 0 else bob, match, seat)
        assert services.log_matches_snapshot(match)
    assert state_of(match).hand_no >= 3
    assert services.log_matches_snapshot(match)


def test_forced_cards_are_played_for_each_player_as_they_chose(alice, bob):
    """'Play my forced card for me' is each player's own setting (on by default)."""
    plays_every_card(bob)
    match = open_match(alice)
    services.join_match(bob, match.pk)
    match = services.start_match(alice, match.pk).match
    people = {0: alice, 1: bob}
    for _ in range(400):
        state = state_of(match)
        if state.hand_no >= 2:
            break
        seat = next(s for s in state.to_act() if s in people)
        match = act(people[seat], match, seat)
    forced = set(Action.objects.filter(match=match, actor="forced").values_list("seat", flat=True))
    assert 0 in forced, "Alice's forced cards were played for her"
    assert 1 not in forced, "Bob plays every card himself"


def test_a_table_where_staff_turned_forced_plays_off_plays_none(alice):
    match = started_match(alice, seed=3)
    Match.objects.filter(pk=match.pk).update(auto_play_forced=False)
    play_until(alice, match, 0, lambda s: s.hand_no >= 2)
    assert not Action.objects.filter(match=match, actor="forced").exists()
