"""The "your turn" home page: matches waiting for the player first, oldest wait first."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Seat
from tests.factories import make_match, play_to_the_end, state_of


@pytest.fixture
def alice_client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def section(html: str, section_id: str) -> str:
    return html.split(f'id="{section_id}"')[1].split("</section>")[0]


def test_matches_waiting_for_the_player_come_first_oldest_wait_first(alice_client, alice):
    newer, older = make_match(alice, seed=1), make_match(alice, seed=2)
    now = timezone.now()
    Seat.objects.filter(match=newer, position=0).update(waiting_since=now)
    Seat.objects.filter(match=older, position=0).update(
        waiting_since=now - datetime.timedelta(hours=3)
    )
    waiting = section(alice_client.get("/").text, "your-turn")
    assert waiting.index(f"Match {older.pk}<") < waiting.index(f"Match {newer.pk}<")
    assert "It has been your turn for 3\xa0hours." in waiting
    assert "It has been your turn for less than a minute." in waiting


def test_other_matches_in_play_follow(alice_client, alice, make_user):
    bob = make_user("bob", "Bob")
    match = make_match(alice, people=[bob])
    seat = match.seats.get(user=alice)
    cards = [str(c) for c in state_of(match).view(seat.position).hand[:3]]
    alice_client.post(
        reverse("pass_cards", args=[match.pk]), {"version": match.version, "cards": cards}
    )
    html = alice_client.get("/").text
    assert f"Match {match.pk}<" not in section(html, "your-turn")
    playing = section(html, "playing")
    assert f"Match {match.pk}<" in playing and "Bob" in playing


def test_finished_matches_show_the_players_rank(alice_client, alice):
    match = make_match(alice, target=25)
    list(play_to_the_end({0: alice_client}, match))
    seat = match.seats.get(user=alice)
    finished = section(alice_client.get("/").text, "finished")
    ordinal = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[seat.rank]
    ending = " — a win!" if seat.rank == 1 else "."
    assert f"You finished {ordinal} of 4 with {seat.final_total} points{ending}" in finished
    Seat.objects.filter(pk=seat.pk).update(rank=3)  # the sentence ends as well without a win
    finished = section(alice_client.get("/").text, "finished")
    assert f"You finished 3rd of 4 with {seat.final_total} points.</p>" in finished
    Seat.objects.filter(pk=seat.pk).update(final_total=1)
    finished = section(alice_client.get("/").text, "finished")
    assert "You finished 3rd of 4 with 1 point.</p>" in finished


def test_open_matches_the_player_sits_in_come_last(alice_client, alice):
    waiting = make_match(alice)
    open_match = make_match(alice, start=False)
    html = alice_client.get("/").text
    assert f"Match {open_match.pk}<" in section(html, "open")
    assert html.index('id="your-turn"') < html.index('id="open"')
    assert f"Match {waiting.pk}<" in section(html, "your-turn")


def test_other_players_matches_are_not_listed(alice_client, make_user):
    bob = make_user("bob", "Bob")
    match = make_match(bob)
    html = alice_client.get("/").text
    assert f"Match {match.pk}<" not in html
    assert "No match is waiting for you" in html


def test_the_page_needs_a_fixed_number_of_queries(
    alice_client, alice, django_assert_max_num_queries
):
    for seed in range(4):
        make_match(alice, seed=seed)
    make_match(alice, start=False)
    with django_assert_max_num_queries(14):
        assert alice_client.get("/").status_code == 200


def test_each_waiting_match_says_which_decision_is_due(alice_client, alice):
    from tests.factories import moon_match, next_move

    passing = make_match(alice, seed=1)
    playing = make_match(alice, seed=2)
    while state_of(playing).phase != "playing":
        move = next_move(playing, 0)
        assert move is not None
        alice_client.post(move.url, move.data)
    moon = moon_match(alice)
    waiting = section(alice_client.get("/").text, "your-turn")
    for match, words in (
        (passing, "Pass three cards."),
        (playing, "Play a card."),
        (moon, "You shot the moon: choose what it does."),
    ):
        item = waiting.split(f"Match {match.pk}<")[1].split('class="match-item"')[0]
        assert words in item, (match.pk, words)
