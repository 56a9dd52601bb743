"""Engine states kept between moves: used only while the stored snapshot is exactly theirs."""

import pytest

from games import engine, services
from games.models import Match
from games.services import states
from tests.factories import make_match, next_move

pytestmark = pytest.mark.django_db(transaction=True)  # keeping happens once a move commits


@pytest.fixture
def rebuilds(monkeypatch):
    """Count the states rebuilt from a snapshot."""
    calls = []
    original = engine.Match.from_snapshot.__func__

    def counting(cls, data):
        calls.append(data)
        return original(cls, data)

    monkeypatch.setattr(engine.Match, "from_snapshot", classmethod(counting))
    return calls


def make_move(user, match, move):
    """Make the move `next_move` chose: a pass or a card."""
    if "cards" in move.data:
        return services.pass_cards(user, match.pk, match.version, move.data["cards"]).match
    return services.play_card(user, match.pk, match.version, move.data["card"]).match


def play_once(user, match):
    match.refresh_from_db()
    return make_move(user, match, next_move(match, 0))


def test_a_move_starts_from_the_state_the_last_move_kept(alice, rebuilds):
    match = make_match(alice)
    play_once(alice, match)
    match = Match.objects.get(pk=match.pk)
    move = next_move(match, 0)
    assert move is not None
    rebuilds.clear()
    make_move(alice, match, move)
    assert rebuilds == []


def test_a_snapshot_changed_elsewhere_is_rebuilt_from_what_is_stored(alice, rebuilds):
    match = make_match(alice)
    before = Match.objects.get(pk=match.pk).snapshot
    play_once(alice, match)  # keeps the state after this move
    # Elsewhere (another process, the admin) the row is given another snapshot.
    Match.objects.filter(pk=match.pk).update(snapshot=before)
    rebuilds.clear()
    stored = Match.objects.get(pk=match.pk).snapshot
    assert states.load(match.pk, stored) == engine.Match.from_snapshot(before)
    assert len(rebuilds) == 2  # the load, and the expected state above


def test_the_kept_state_is_a_copy_that_later_changes_do_not_reach(alice):
    match = make_match(alice)
    moved = play_once(alice, match)
    first = states.load(match.pk, moved.snapshot)
    second = states.load(match.pk, moved.snapshot)
    assert first == second and first is not second
    first.totals[0] += 100  # a change to one handed out copy
    assert states.load(match.pk, moved.snapshot) == second


def test_a_refused_move_keeps_nothing(alice):
    match = make_match(alice)
    states.forget()
    with pytest.raises(services.StaleVersion):
        services.play_card(alice, match.pk, match.version + 5, "2C")
    assert match.pk not in states._states


def test_only_the_most_recent_states_are_kept(settings):
    settings.ENGINE_STATES_KEPT = 3
    state = engine.Match.new()
    for match_id in range(1, 6):
        states.keep(match_id, {"id": match_id}, state)
    assert list(states._states) == [3, 4, 5]


def test_no_state_is_kept_when_the_setting_says_none(settings):
    settings.ENGINE_STATES_KEPT = 0
    states.keep(1, {"id": 1}, engine.Match.new())
    assert list(states._states) == []


def test_a_change_hands_on_its_state_and_seats_as_a_value(alice):
    """What a move left comes back as `services.Changed`, not stuck onto the model."""
    match = make_match(alice)
    match.refresh_from_db()
    move = next_move(match, 0)
    changed = services.pass_cards(alice, match.pk, match.version, move.data["cards"])
    assert isinstance(changed, services.Changed)
    assert changed.state is not None and changed.state.snapshot() == changed.match.snapshot
    assert [seat.position for seat in changed.seats] == [0, 1, 2, 3]
    assert not hasattr(changed.match, "engine_state")
