"""Setting up matches through the services: create, join, leave, bots, start."""

import pytest

from games import engine, services
from games.models import Hand, Match, MatchStatus, Seat
from tests.service_helpers import deal_from_seed, open_match, unchanged


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def test_it_creates_a_match_with_the_creator_in_seat_0_and_bots_in_the_last_seats(alice):
    match = open_match(alice, players=5, bots=2, target=50, moon="add")
    seats = list(match.seats.order_by("position"))
    assert [s.user for s in seats] == [alice, None, None, None, None]
    assert [s.is_bot for s in seats] == [False, False, False, True, True]
    assert match.status == MatchStatus.OPEN
    assert match.rule_set == engine.RuleSet(players=5, target=50, moon="add")


def test_a_match_full_of_bots_starts_at_once_and_waits_for_the_creators_pass(alice):
    match = services.create_match(alice, services.MatchOptions(players=4, bots=3))
    assert match.status == MatchStatus.ACTIVE
    assert Hand.objects.filter(match=match, number=1, pass_direction="left").exists()
    creator_seat = match.seats.get(position=0)
    assert creator_seat.to_act and creator_seat.waiting_since is not None
    state = engine.Match.from_snapshot(match.snapshot)
    assert state.phase == engine.PASSING and state.to_act() == (0,)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 8}, "players"),
        ({"players": 2}, "players"),
        ({"target": 10}, "25"),
        ({"moon": "sometimes"}, "moon"),
        ({"bots": 4}, "between 0 and 3 bots"),
        ({"bots": -1}, "between 0 and 3 bots"),
    ],
)
def test_it_refuses_impossible_options_and_creates_nothing(alice, options, message):
    with pytest.raises(services.BadInput, match=message):
        services.create_match(alice, services.MatchOptions(**options))
    assert not Match.objects.exists()


def test_joining_takes_the_first_empty_seat(alice, bob):
    match = open_match(alice, bots=1)
    services.join_match(bob, match.pk)
    assert match.seats.get(position=1).user == bob
    assert Match.objects.get(pk=match.pk).status == MatchStatus.OPEN


def test_the_match_starts_when_the_last_seat_is_taken(alice, bob, carol):
    match = open_match(alice, players=3)
    services.join_match(bob, match.pk)
    match = services.join_match(carol, match.pk).match
    assert match.status == MatchStatus.ACTIVE
    assert set(match.seats.filter(to_act=True).values_list("position", flat=True)) == {0, 1, 2}


def test_it_refuses_a_second_seat_for_the_same_player(alice):
    match = open_match(alice)
    before = unchanged(match)
    with pytest.raises(services.Conflict, match="already have a seat"):
        services.join_match(alice, match.pk)
    assert unchanged(match) == before


def test_a_private_match_needs_its_invite_code(alice, bob):
    match = open_match(alice, private=True)
    with pytest.raises(services.NotAllowed, match="invite link"):
        services.join_match(bob, match.pk, invite_code="guess")
    services.join_match(bob, match.pk, invite_code=match.invite_code)
    assert match.seats.get(position=1).user == bob


def test_nobody_joins_a_match_that_has_started(alice, bob):
    match = services.create_match(alice, services.MatchOptions(bots=3))
    with pytest.raises(services.Conflict, match="already started"):
        services.join_match(bob, match.pk)


def test_a_player_who_leaves_frees_the_seat(alice, bob):
    match = open_match(alice)
    services.join_match(bob, match.pk)
    services.leave_match(bob, match.pk)
    assert match.seats.get(position=1).user is None


def test_the_creator_leaving_cancels_the_match(alice, bob):
    match = open_match(alice)
    services.join_match(bob, match.pk)
    match = services.leave_match(alice, match.pk).match
    assert match.status == MatchStatus.ABANDONED


def test_leaving_needs_a_seat(alice, bob):
    match = open_match(alice)
    with pytest.raises(services.Conflict, match="do not have a seat"):
        services.leave_match(bob, match.pk)


def test_the_creator_adds_and_removes_bots(alice):
    match = open_match(alice)
    services.add_bot(alice, match.pk, position=2)
    assert match.seats.get(position=2).is_bot
    services.remove_bot(alice, match.pk, position=2)
    assert not match.seats.get(position=2).is_bot


def test_only_the_creator_changes_the_seats(alice, bob):
    match = open_match(alice)
    services.join_match(bob, match.pk)
    with pytest.raises(services.NotAllowed, match="Only the player who created"):
        services.add_bot(bob, match.pk)
    with pytest.raises(services.NotAllowed):
        services.start_match(bob, match.pk)


def test_a_bot_cannot_sit_in_a_taken_seat(alice):
    match = open_match(alice)
    with pytest.raises(services.Conflict, match="no empty seat"):
        services.add_bot(alice, match.pk, position=0)


def test_removing_a_bot_from_a_seat_without_one_is_refused(alice):
    match = open_match(alice)
    with pytest.raises(services.BadInput, match="no bot"):
        services.remove_bot(alice, match.pk, position=1)


def test_adding_the_last_bot_starts_the_match(alice):
    match = open_match(alice, bots=2)
    match = services.add_bot(alice, match.pk).match
    assert match.status == MatchStatus.ACTIVE


def test_start_fills_the_empty_seats_with_bots(alice, bob):
    match = open_match(alice, players=5)
    services.join_match(bob, match.pk)
    match = services.start_match(alice, match.pk).match
    assert match.status == MatchStatus.ACTIVE
    assert Seat.objects.filter(match=match, controller=Seat.Controller.BOT).count() == 3
    with pytest.raises(services.Conflict, match="already started"):
        services.start_match(alice, match.pk)


def test_an_unknown_match_is_not_found(alice):
    with pytest.raises(services.NotFound):
        services.join_match(alice, 999_999)


def test_equal_secrets_deal_equal_hands_and_others_do_not(alice, bob, carol):
    first, second, third = open_match(alice), open_match(bob), open_match(carol)
    shared = Match.objects.get(pk=first.pk)
    Match.objects.filter(pk=second.pk).update(
        secret=shared.secret, commitment=shared.commitment, seed=shared.seed
    )
    for user, match in [(alice, first), (bob, second), (carol, third)]:
        services.start_match(user, match.pk)
    assert Hand.objects.get(match=first).deal == Hand.objects.get(match=second).deal
    assert Hand.objects.get(match=first).deal != Hand.objects.get(match=third).deal


def test_equal_seeds_of_matches_dealt_before_secrets_deal_equal_hands(alice, bob):
    first, second = open_match(alice), open_match(bob)
    for match in (first, second):
        deal_from_seed(match.pk, 42)
    for user, match in [(alice, first), (bob, second)]:
        services.start_match(user, match.pk)
    assert Hand.objects.get(match=first).deal == Hand.objects.get(match=second).deal
