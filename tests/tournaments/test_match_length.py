"""A match of a fixed number of hands, played through the services, ends after exactly that many."""

import pytest
from django.urls import reverse

from games import services
from games.models import Hand, MatchStatus, ScoreLine
from games.services import log_matches_snapshot
from tests.service_helpers import act, started_match, state_of


def play_out(user, match, limit: int = 2000):
    """Let the user act with the simplest legal decisions until the match is over."""
    for _ in range(limit):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            return match
        match = act(user, match, 0)
    raise AssertionError("the match did not end")


def test_it_finishes_a_two_hand_match_after_the_second_hand(alice):
    match = play_out(alice, started_match(alice, hands=2, seed=11))
    assert match.status == MatchStatus.FINISHED
    assert match.rules["hands"] == 2
    assert Hand.objects.filter(match=match).count() == 2
    assert ScoreLine.objects.filter(match=match).values("hand_number").distinct().count() == 2
    state = state_of(match)
    assert state.is_finished and state.hand_no == 2
    seats = list(match.seats.order_by("position"))
    assert [s.final_total for s in seats] == state.totals
    winners = {s.position for s in seats if s.rank == 1}
    assert winners == set(state.winners)
    assert log_matches_snapshot(match)


def test_it_refuses_a_fixed_length_out_of_range(alice):
    with pytest.raises(services.BadInput, match="1 to 50 hands"):
        services.create_match(alice, services.MatchOptions(hands=51))


def test_the_match_page_says_how_many_hands_it_lasts(client, alice):
    match = started_match(alice, hands=3, seed=4)
    client.force_login(alice)
    page = client.get(reverse("match", args=[match.pk])).text
    assert "ends after 3 hands" in page
    assert "ends at 100 points" not in page
