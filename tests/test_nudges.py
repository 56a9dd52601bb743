"""Nudges: a waiting player reminds those to act, once a day per match, live and by e-mail."""

import pytest
from django.urls import reverse

from games.models import Match, Nudge
from games.services import vacations
from tests.factories import HTMX, client_for, make_match, seat_of
from tests.notify_helpers import CARD, START, all_text, messages_to, opt_in, run_due_tasks
from tests.service_helpers import act


@pytest.fixture
def sent(monkeypatch):
    """Every group event the site relays, as (group, event)."""
    events: list[tuple[str, dict]] = []
    monkeypatch.setattr("games.live._send", lambda messages, about: events.extend(messages))
    return events


@pytest.fixture
def waiting_on_alice(alice, bob, clock) -> Match:
    """A match in which Bob has passed and waits for Alice to pass."""
    match = make_match(alice, people=[bob])
    act(bob, match, seat_of(match, bob))
    return match


def nudge(user, match, htmx=True):
    return client_for(user).post(reverse("nudge", args=[match.pk]), **(HTMX if htmx else {}))


def test_a_waiting_player_nudges_the_player_to_act(
    alice, bob, waiting_on_alice, sent, django_capture_on_commit_callbacks
):
    opt_in(alice, turn_emails=True)
    with django_capture_on_commit_callbacks(execute=True):
        response = nudge(bob, waiting_on_alice)
    assert response.status_code == 200 and "You nudged Alice." in response.text
    assert Nudge.objects.get(match=waiting_on_alice, nudger=bob).nudged == 1
    notices = [event for group, event in sent if group == f"user-{alice.pk}"]
    assert notices == [
        {
            "type": "match.notice",
            "match": waiting_on_alice.pk,
            "kind": "nudge",
            "text": f"Bob nudged you: match {waiting_on_alice.pk} waits for your move.",
        }
    ]
    run_due_tasks(START)
    (message,) = messages_to(alice)
    assert message.subject == f"Bob is waiting for your move in match {waiting_on_alice.pk}"
    assert not CARD.search(all_text(message))


def test_a_player_who_wants_no_e_mail_is_told_only_on_the_site(
    alice, bob, waiting_on_alice, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert nudge(bob, waiting_on_alice).status_code == 200
    run_due_tasks(START)
    assert messages_to(alice) == []
    assert [group for group, _ in sent] == [f"user-{alice.pk}"]


def test_a_second_nudge_within_a_day_is_refused_with_when_it_is_allowed(
    bob, waiting_on_alice, clock
):
    assert nudge(bob, waiting_on_alice).status_code == 200
    clock.advance(hours=23)
    response = nudge(bob, waiting_on_alice)
    assert response.status_code == 429
    assert response["Retry-After"] == str(3600)
    assert "you may nudge again from 3 March, 09:00 UTC" in response.text
    plain = nudge(bob, waiting_on_alice, htmx=False)
    assert plain.status_code == 429 and "you may nudge again" in plain.text
    assert Nudge.objects.count() == 1
    clock.advance(hours=1)
    assert nudge(bob, waiting_on_alice).status_code == 200


def test_without_javascript_the_nudge_comes_back_to_the_table(bob, waiting_on_alice):
    response = nudge(bob, waiting_on_alice, htmx=False)
    assert (
        response.status_code == 302 and response["Location"] == f"/matches/{waiting_on_alice.pk}/"
    )


def test_nobody_to_nudge_is_a_conflict(alice, clock):
    match = make_match(alice)  # against bots: only Alice is ever waited for
    response = nudge(alice, match)
    assert response.status_code == 409
    assert "The match waits only for you: there is nobody to nudge." in response.text


def test_a_player_on_vacation_is_not_nudged(alice, bob, waiting_on_alice, clock):
    alice.date_joined = START
    alice.save(update_fields=["date_joined"])
    vacations.take_vacation(alice, 2)
    response = nudge(bob, waiting_on_alice)
    assert response.status_code == 409 and "on vacation" in response.text


def test_only_a_player_of_the_match_may_nudge(alice, bob, make_user, waiting_on_alice):
    carol = make_user("carol", "Carol")
    assert nudge(carol, waiting_on_alice).status_code == 403
    private = make_match(alice, people=[bob], private=True)
    assert nudge(carol, private).status_code == 404
    assert client_for(carol).post(reverse("nudge", args=[999_999])).status_code == 404
    assert not Nudge.objects.exists()


def test_a_match_not_in_play_cannot_be_nudged_in(alice, bob):
    open_match = make_match(alice, people=[bob], start=False, players=4)
    assert nudge(bob, open_match).status_code == 409


def test_nudging_needs_a_post_and_a_sign_in(client, bob, waiting_on_alice):
    url = reverse("nudge", args=[waiting_on_alice.pk])
    assert client_for(bob).get(url).status_code == 405
    assert client.post(url).status_code == 302


def test_the_table_offers_the_button_to_the_waiting_player_only(alice, bob, waiting_on_alice):
    assert (
        "Nudge the players to act" in client_for(bob).get(waiting_on_alice.get_absolute_url()).text
    )
    page = client_for(alice).get(waiting_on_alice.get_absolute_url()).text
    assert "Nudge the players to act" not in page


def test_after_a_nudge_the_table_says_when_the_next_is_allowed(bob, waiting_on_alice, clock):
    assert nudge(bob, waiting_on_alice).status_code == 200
    clock.advance(hours=2)
    page = client_for(bob).get(waiting_on_alice.get_absolute_url()).text
    assert "Nudge the players to act" not in page
    assert "you may nudge again from 3 March, 09:00 UTC" in page
    clock.advance(hours=22)
    page = client_for(bob).get(waiting_on_alice.get_absolute_url()).text
    assert "Nudge the players to act" in page and "you may nudge again" not in page


@pytest.mark.parametrize("endpoint", ["nudge", "hand_over"])
@pytest.mark.parametrize(
    "data", [{}, {"position": "\x00"}, {"position": "9" * 40}, {"position": ["1", "x"]}]
)
def test_garbage_at_the_new_actions_is_never_a_server_error(
    alice, bob, waiting_on_alice, endpoint, data
):
    from django.test import Client

    for user in (alice, bob):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        for pk in (waiting_on_alice.pk, 999_999):
            for extra in ({}, HTMX):
                response = client.post(reverse(endpoint, args=[pk]), data, **extra)
                assert response.status_code < 500, (endpoint, data, response.status_code)
