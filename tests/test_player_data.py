"""A player's own data: downloading all of it, and deleting the account.

The download holds the player's account, settings, ratings and every match they sat in, each
match only as far as the player may see it (no other seat's card of a hand in play). Deleting
signs the player out everywhere, forgets their address and password, hands their seats to
bots, and leaves the matches others played whole, under the name "a former player".
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.contrib.sessions.backends.cached_db import SessionStore
from django.contrib.sessions.models import Session
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.accounts.deletion import delete_account
from games.models import (
    Block,
    Competitor,
    Follow,
    MatchResult,
    NotificationSettings,
    Seat,
    display_name_of,
    notification_settings_for,
)
from games.notifications.mail import unsubscribe_token
from games.services import people, rematches
from games.services.bot_turns import play_bots
from tests.conftest import PASSWORD
from tests.factories import (
    client_for,
    make_match,
    next_move,
    play_to_the_end,
    playing_match,
    state_of,
)
from tests.test_export_leaks import named_cards
from tests.test_no_leaks import deal_secrets, hidden_from, leaked_secrets, secret_for

DOWNLOAD = reverse("download_data")
DELETE = reverse("delete_account")


def signed_in(user, password: str = PASSWORD) -> Client | None:
    """A client signed in through the login form, as a browser on one device would be."""
    client = Client()
    form = {"username": user.get_username(), "password": password}
    response = client.post(reverse("login"), form)
    return client if response.status_code == 302 else None


def finished_with(alice, bob):
    """A finished one-hand match that Alice and Bob played, with bots in the other seats."""
    match = make_match(alice, people=[bob], hands=1, seed=5)
    clients = {
        seat.position: client_for(seat.user) for seat in match.seats.filter(user__isnull=False)
    }
    list(play_to_the_end(clients, match))
    match.refresh_from_db()
    assert match.status == "finished"
    return match


# ----- who may ask -----


@pytest.mark.django_db
@pytest.mark.parametrize("url", [DOWNLOAD, DELETE])
def test_a_visitor_is_sent_to_sign_in(url):
    for send in (Client().get, Client().post):
        response = send(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


# ----- the download -----


def test_the_download_holds_the_player_s_account_settings_and_matches(alice, bob):
    notification_settings_for(alice)
    match = make_match(alice, people=[bob], hands=1, seed=5)
    response = client_for(alice).get(DOWNLOAD)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    disposition = response["Content-Disposition"]
    assert disposition.startswith('attachment; filename="hearts-data-alice-')
    assert disposition.endswith('.json"')
    data = response.json()
    assert data["format"] == "hearts-player-data/1"
    assert data["account"]["username"] == "alice"
    assert data["account"]["display_name"] == "Alice"
    assert data["account"]["email"] == "alice@example.com"
    assert data["settings"]["play_my_forced_card"] is True
    assert data["email_notifications"]["turn_emails"] is False
    assert data["vacation"]["days_left"] >= 0
    assert data["ratings"]["rating"] is None
    [entry] = data["matches"]
    record = entry["record"]
    assert record["match"] == match.pk and record["viewer_seat"] == 0
    assert [seat["name"] for seat in record["seats"]][:2] == ["Alice", "Bob"]


def test_the_download_holds_whom_the_player_follows_and_blocks_and_no_one_else_s(
    alice, bob, make_user
):
    carol = make_user("carol")
    people.follow(alice, bob)
    people.block(alice, carol)
    people.follow(bob, alice)  # bob's choice, not alice's
    data = client_for(alice).get(DOWNLOAD).json()
    assert [entry["player"] for entry in data["following"]] == ["Bob"]
    assert [entry["player"] for entry in data["blocking"]] == [display_name_of(carol)]
    assert all(entry["since"] for entry in data["following"] + data["blocking"])


def test_the_download_holds_the_player_s_answers_to_play_again(alice, bob):
    match = finished_with(alice, bob)
    rematches.accept(alice, match.pk)
    data = client_for(alice).get(DOWNLOAD).json()
    [answer] = data["rematch_answers"]
    assert answer["match"] == match.pk and answer["play_again"] is True and answer["at"]
    assert client_for(bob).get(DOWNLOAD).json()["rematch_answers"] == []


def test_each_match_in_the_download_is_the_match_s_own_record_for_the_player(alice, bob):
    """One rule of who may see what: the file holds exactly what the match's download gives."""
    match = playing_match(alice, client_for(alice))
    client = client_for(alice)
    [entry] = client.get(DOWNLOAD).json()["matches"]
    assert entry["record"] == client.get(reverse("match_record", args=[match.pk])).json()


def test_the_download_names_no_card_of_another_seat_mid_hand(alice):
    client = client_for(alice)
    match = playing_match(alice, client, seed=23)  # past the pass, the hand in play
    state = state_of(match)
    text = client.get(DOWNLOAD).content.decode()
    hidden = {str(card) for card in hidden_from(state, 0)}
    assert hidden, "other seats still hold cards"
    assert not named_cards(json.loads(text)) & hidden
    assert str(state.view(0).hand[0]) in text  # their own hand is there


def test_the_download_carries_no_secret_of_a_match_in_play(alice, bob):
    match = make_match(alice, people=[bob], secret=secret_for(31))
    text = client_for(bob).get(DOWNLOAD).content.decode()
    assert str(match.pk) in text
    assert leaked_secrets(text, deal_secrets(match)) == []


def test_the_download_holds_the_rating_history_of_a_finished_match(alice, bob):
    match = finished_with(alice, bob)
    data = client_for(bob).get(DOWNLOAD).json()
    [result] = data["ratings"]["history"]
    assert result["match"] == match.pk
    assert result["place"] == match.seats.get(user=bob).rank
    assert data["matches"][0]["finished"] is not None


# ----- deleting: bad input -----


def test_the_delete_page_asks_for_the_password(alice):
    response = client_for(alice).get(DELETE)
    assert response.status_code == 200
    assert 'name="password"' in response.text
    assert "csrfmiddlewaretoken" in response.text


@pytest.mark.parametrize("password", ["", "wrong", "alice"])
def test_a_wrong_password_deletes_nothing(alice, password):
    client = client_for(alice)
    response = client.post(DELETE, {"password": password})
    assert response.status_code == 400
    assert 'name="password"' in response.text
    alice.refresh_from_db()
    assert alice.is_active and alice.email == "alice@example.com"
    assert alice.profile.deleted_at is None
    assert client.get(reverse("profile")).status_code == 200
    assert signed_in(alice) is not None


# ----- deleting -----


def delete(user, client: Client | None = None) -> Client:
    client = client or client_for(user)
    response = client.post(DELETE, {"password": PASSWORD})
    assert response.status_code == 200
    assert "Your account has been deleted" in response.text
    return client


def test_deleting_signs_out_every_device_and_forgets_the_person(alice):
    laptop, phone = signed_in(alice), signed_in(alice)
    assert laptop is not None and phone is not None
    keys = [laptop.session.session_key, phone.session.session_key]
    reset_token = default_token_generator.make_token(alice)
    unsubscribe = reverse("unsubscribe", args=[unsubscribe_token(alice.pk)])
    notification_settings_for(alice)
    delete(alice, laptop)
    former = get_user_model().objects.get(pk=alice.pk)
    for client in (laptop, phone):
        response = client.get(reverse("profile"))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    for key in keys:
        assert not Session.objects.filter(session_key=key).exists()
        assert SESSION_KEY not in SessionStore(session_key=key).load()
    assert signed_in(alice) is None
    assert signed_in(former) is None
    assert former.username == f"former-{alice.pk}"
    assert not former.is_active and not former.has_usable_password()
    assert former.email == former.first_name == former.last_name == ""
    assert former.profile.deleted_at is not None and former.profile.display_name == ""
    assert not NotificationSettings.objects.filter(user=former).exists()
    assert not default_token_generator.check_token(former, reset_token)
    assert Client().get(unsubscribe).status_code == 404


def test_a_former_player_shows_so_wherever_others_see_their_matches(alice, bob):
    match = finished_with(alice, bob)
    bob_competitor = Competitor.objects.get(user=bob)
    before = (
        bob_competitor.rating,
        list(MatchResult.objects.filter(match=match).values_list("competitor", "place", "total")),
        list(Seat.objects.filter(match=match).values_list("position", "rank", "final_total")),
    )
    delete(alice)
    bob_competitor.refresh_from_db()
    after = (
        bob_competitor.rating,
        list(MatchResult.objects.filter(match=match).values_list("competitor", "place", "total")),
        list(Seat.objects.filter(match=match).values_list("position", "rank", "final_total")),
    )
    assert after == before
    viewer = client_for(bob)
    for name in ("match", "scores", "match_record", "scores_csv"):
        text = viewer.get(reverse(name, args=[match.pk])).content.decode()
        assert "a former player" in text, name
        assert "Alice" not in text and "alice" not in text, name
    hand = viewer.get(reverse("hand_review", args=[match.pk, 1])).content.decode()
    assert "a former player" in hand and "Alice" not in hand
    assert services.log_matches_snapshot(match)
    totals = [seat.final_total for seat in match.seats.order_by("position")]
    assert list(services.replay_match(match).totals) == totals


def test_a_former_player_s_page_is_gone(alice, bob):
    finished_with(alice, bob)
    delete(alice)
    viewer = client_for(bob)
    for name in ("Alice", "alice", f"former-{alice.pk}", "a former player"):
        assert viewer.get(reverse("player", args=[name])).status_code == 404, name
    bob_page = viewer.get(reverse("player", args=["Bob"])).content.decode()
    assert "a former player" in bob_page and "Alice" not in bob_page


def test_the_former_player_s_name_is_said_in_the_reader_s_language(alice):
    delete(alice)
    alice.refresh_from_db()
    with translation.override("id"):
        indonesian = display_name_of(alice)
    assert indonesian != "a former player" and indonesian


def test_a_match_in_play_goes_on_with_a_bot_in_the_seat(alice, bob):
    match = make_match(alice, people=[bob], hands=1, seed=9)
    delete(alice)
    seat = match.seats.get(user=alice)
    assert seat.resigned
    match.refresh_from_db()
    assert match.status == "active"
    bob_seat, bob_client = match.seats.get(user=bob).position, client_for(bob)
    for _ in range(500):  # Bob plays; the bot in Alice's seat plays as a worker would have it
        match.refresh_from_db()
        if match.status != "active":
            break
        play_bots(match.pk)
        match.refresh_from_db()
        if (move := next_move(match, bob_seat)) is not None:
            assert bob_client.post(move.url, move.data).status_code == 302
    assert match.status == "finished"
    assert services.log_matches_snapshot(match)


def test_an_open_match_they_created_is_cancelled_and_their_open_seats_freed(alice, bob):
    created = make_match(alice, start=False)
    joined = make_match(bob, people=[alice], start=False)
    delete(alice)
    created.refresh_from_db()
    assert created.status == "abandoned"
    assert not joined.seats.filter(user=alice).exists()
    joined.refresh_from_db()
    assert joined.status == "open"


def test_deleting_forgets_whom_they_followed_and_blocked_and_who_followed_or_blocked_them(
    alice, bob, make_user
):
    carol = make_user("carol")
    people.follow(alice, bob)
    people.follow(bob, alice)
    people.block(carol, alice)
    delete(alice)
    assert not Follow.objects.filter(Q(follower=alice) | Q(followed=alice)).exists()
    assert not Block.objects.filter(Q(blocker=alice) | Q(blocked=alice)).exists()


def test_deleting_twice_changes_nothing_more(alice):
    client = delete(alice)
    response = client.post(DELETE, {"password": PASSWORD})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    former = get_user_model().objects.get(pk=alice.pk)
    deleted_at = former.profile.deleted_at
    delete_account(former)
    former.refresh_from_db()
    assert former.username == f"former-{alice.pk}" and not former.is_active
    assert former.profile.deleted_at >= deleted_at


@pytest.mark.parametrize("name", ["a former player", "A Former Player", "mantan pemain"])
def test_nobody_may_pass_for_a_former_player(alice, name):
    response = client_for(alice).post(reverse("profile"), {"display_name": name})
    assert response.status_code == 400
    alice.refresh_from_db()
    assert alice.profile.display_name == "Alice"


def test_staff_see_in_the_admin_that_the_account_was_deleted(alice, make_user):
    delete(alice)
    staff = client_for(make_user("root", is_staff=True, is_superuser=True))
    changelist = reverse("admin:games_profile_changelist")
    page = staff.get(changelist, {"deleted_at__isempty": "0"}).text
    assert "account deleted" in page.lower() and f"former-{alice.pk}" in page
    assert (
        "root" not in staff.get(changelist, {"deleted_at__isempty": "0"}).text.split("<tbody>")[1]
    )
