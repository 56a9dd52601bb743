"""A player holds at most MAX_OPEN_MATCHES_PER_PLAYER open matches, created or joined, at once."""

import runpy
from pathlib import Path

import pytest
from django.urls import reverse

from games import services
from games.models import Match, MatchStatus, Seat
from hearts_site import settings as settings_module
from tests.factories import client_for
from tests.service_helpers import open_match

CAP = 3


@pytest.fixture(autouse=True)
def small_cap(settings):
    settings.MAX_OPEN_MATCHES_PER_PLAYER = CAP


@pytest.fixture
def bob(make_user):
    return make_user("bob", "Bob")


def fill_up(user) -> list[Match]:
    return [open_match(user) for _ in range(CAP)]


def test_creating_one_more_open_match_than_allowed_is_refused_and_creates_nothing(alice):
    fill_up(alice)
    with pytest.raises(services.TooManyOpen, match=f"at most {CAP} open matches"):
        open_match(alice)
    assert Match.objects.count() == CAP


def test_joining_one_more_open_match_than_allowed_is_refused_and_takes_no_seat(alice, bob):
    fill_up(bob)
    match = open_match(alice)
    with pytest.raises(services.TooManyOpen):
        services.join_match(bob, match.pk)
    assert not match.seats.filter(user=bob).exists()


def test_joining_the_last_seat_is_allowed_as_it_starts_the_match(alice, bob):
    fill_up(bob)
    match = open_match(alice, bots=2)
    assert services.join_match(bob, match.pk).match.status == MatchStatus.ACTIVE


def test_a_match_against_bots_alone_starts_at_once_and_is_allowed(alice):
    fill_up(alice)
    match = services.create_match(alice, services.MatchOptions(bots=3))
    assert match.status == MatchStatus.ACTIVE


def test_matches_that_started_or_were_cancelled_free_their_places(alice):
    first, second, _ = fill_up(alice)
    services.start_match(alice, first.pk)
    services.leave_match(alice, second.pk)  # the creator leaving cancels it
    assert open_match(alice).status == MatchStatus.OPEN
    assert open_match(alice).status == MatchStatus.OPEN


def test_another_players_open_matches_do_not_count(alice, bob):
    fill_up(bob)
    assert open_match(alice).status == MatchStatus.OPEN


def test_the_lobby_answers_429_with_the_reason_and_the_form(alice):
    fill_up(alice)
    data = {"players": 4, "target": 100, "moon": "ask", "bots": 0}
    response = client_for(alice).post(reverse("create_match"), data)
    assert response.status_code == 429
    assert f"You may have at most {CAP} open matches at once" in response.content.decode()
    assert Match.objects.count() == CAP


def test_the_join_button_answers_429_with_the_reason(alice, bob):
    fill_up(bob)
    match = open_match(alice)
    response = client_for(bob).post(reverse("join_match", args=[match.pk]))
    assert response.status_code == 429
    assert f"at most {CAP} open matches" in response.content.decode()
    assert not Seat.objects.filter(match=match, user=bob).exists()


def test_the_cap_comes_from_the_environment_with_a_default_of_ten(monkeypatch):
    path = str(Path(settings_module.__file__))
    monkeypatch.delenv("MAX_OPEN_MATCHES_PER_PLAYER", raising=False)
    assert runpy.run_path(path)["MAX_OPEN_MATCHES_PER_PLAYER"] == 10
    monkeypatch.setenv("MAX_OPEN_MATCHES_PER_PLAYER", "4")
    assert runpy.run_path(path)["MAX_OPEN_MATCHES_PER_PLAYER"] == 4
