"""A move is made only by a signed-in player whose session still holds (Django's checks)."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from games.models import Match
from games.presenters import viewer_seat
from games.services.table import LockedTable
from tests.factories import HTMX, action_count, make_match, playing_match, state_of

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def play(client: Client, match: Match):
    card = str(state_of(match).view(0).legal[0])
    url = reverse("play_card", args=[match.pk])
    return client.post(url, {"version": match.version, "card": card}, **HTMX)


def assert_sent_to_sign_in(response, match: Match, version: int, actions: int) -> None:
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    match.refresh_from_db()
    assert (match.version, action_count(match)) == (version, actions)


def test_a_player_whose_password_changed_elsewhere_is_sent_to_sign_in(alice):
    client = signed_in(alice)
    match = playing_match(alice, client)
    version, actions = match.version, action_count(match)
    alice.set_password("a-new-password-42")
    alice.save()  # on another device: every other session of hers must end
    assert_sent_to_sign_in(play(client, match), match, version, actions)
    # Her session is over, as Django ends it: the next page asks her to sign in too.
    assert client.get(reverse("match", args=[match.pk])).status_code == 302


def test_a_deactivated_player_is_sent_to_sign_in(alice):
    client = signed_in(alice)
    match = playing_match(alice, client)
    version, actions = match.version, action_count(match)
    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)
    assert_sent_to_sign_in(play(client, match), match, version, actions)


def test_a_deactivated_player_learns_nothing_of_a_match_that_does_not_exist(alice):
    client = signed_in(alice)
    match = playing_match(alice, client)
    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)
    url = reverse("play_card", args=[match.pk + 1000])
    response = client.post(url, {"version": 1, "card": "2C"}, **HTMX)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_move_with_nobody_signed_in_is_sent_to_sign_in(alice):
    match = playing_match(alice, signed_in(alice))
    version, actions = match.version, action_count(match)
    assert_sent_to_sign_in(play(Client(), match), match, version, actions)


def test_someone_signed_in_without_a_seat_is_still_refused(alice, make_user):
    match = playing_match(alice, signed_in(alice))
    version, actions = match.version, action_count(match)
    response = play(signed_in(make_user("mallory", "Mallory")), match)
    assert response.status_code == 403
    match.refresh_from_db()
    assert (match.version, action_count(match)) == (version, actions)


def test_nobody_signed_in_holds_a_bots_seat(alice):
    match = make_match(alice)
    table = LockedTable.lock(match.pk)
    assert any(seat.user_id is None for seat in table.seats)  # the bots' seats
    assert table.seat_of(AnonymousUser()) is None
    assert viewer_seat(table.seats, AnonymousUser()) is None
