"""The lobby: open matches to join, the form to create one, and setting up an open match."""

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Match, MatchStatus, Seat
from tests.factories import client_for, make_match


@pytest.fixture
def bob(make_user):
    return make_user("bob", "Bob")


@pytest.fixture
def alice_client(alice) -> Client:
    return client_for(alice)


def create(client: Client, **fields) -> object:
    data = {"players": 4, "target": 100, "moon": "ask", "bots": 0}
    data.update(fields)
    data = {k: v for k, v in data.items() if v is not None}
    return client.post(reverse("create_match"), data)


def test_anonymous_visitors_are_sent_to_log_in(client, db):
    response = client.get(reverse("lobby"))
    assert response.status_code == 302
    assert reverse("login") in response.url


def test_it_lists_open_public_matches_with_their_seats_and_creator(alice, bob):
    match = make_match(alice, start=False, players=5, bots=2)
    html = client_for(bob).get(reverse("lobby")).text
    listed = html.split('id="open-matches"')[1].split("</section>")[0]
    assert f"Match {match.pk}" in listed
    assert 'by <a class="player-link" href="/players/Alice/">Alice</a>' in listed
    assert "5 players" in listed and "2 empty seats" in listed
    assert listed.count("Empty seat") == 2 and 'href="/bots/easy/">Dmitri</a> (bot)' in listed
    assert f"Join match {match.pk}" in listed


def test_it_hides_private_started_and_cancelled_matches(alice, bob):
    private = make_match(alice, start=False, private=True)
    started = make_match(alice)
    cancelled = make_match(alice, start=False)
    services.leave_match(alice, cancelled.pk)
    listed = client_for(bob).get(reverse("lobby")).text.split('id="open-matches"')[1]
    listed = listed.split("</section>")[0]
    for match in (private, started, cancelled):
        assert f"Match {match.pk}<" not in listed
    assert "No open match right now" in listed


def test_the_creator_sees_their_own_match_without_a_join_button(alice_client, alice):
    match = make_match(alice, start=False)
    listed = alice_client.get(reverse("lobby")).text
    assert f"Open your match {match.pk}" in listed
    assert f"Join match {match.pk}" not in listed


def test_the_form_offers_the_rules_with_their_defaults(alice_client):
    html = alice_client.get(reverse("lobby")).text
    form = html.split('id="create-match"')[1]
    for players in range(3, 8):
        assert f'<option value="{players}"' in form
    assert 'name="target" value="100" min="25" max="500"' in form
    assert "50 is a sensible minimum" in form
    for moon in ("ask", "subtract", "add"):
        assert f'value="{moon}"' in form
    assert "auto_play_forced" not in form  # each player's own setting, on their profile
    assert 'name="auto_finish" id="id_auto_finish" checked' in form
    assert 'name="private" id="id_private">' in form
    assert 'name="hands" value="0" min="0" max="50"' in form


def test_a_match_of_a_fixed_number_of_hands_is_created_from_the_lobby(alice_client, alice, bob):
    response = create(alice_client, hands=2)
    match = Match.objects.get()
    assert response.status_code == 302 and match.fixed_hands == 2
    assert "ends after 2 hands" in alice_client.get(response.url).text
    listed = client_for(bob).get(reverse("lobby")).text.split('id="open-matches"')[1]
    assert "4 players · 2 hands ·" in listed.split("</section>")[0]


def test_an_empty_number_of_hands_plays_to_the_target(alice_client):
    create(alice_client, hands="")
    match = Match.objects.get()
    assert match.fixed_hands == 0 and match.length_words == "ends at 100 points"


def test_it_creates_a_match_waiting_for_players(alice_client, alice):
    response = create(alice_client, players=5, target=60, moon="add", bots=2, private="on")
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == match.get_absolute_url()
    assert (match.players, match.target, match.moon_option) == (5, 60, "add")
    assert match.status == MatchStatus.OPEN and match.is_private
    assert not match.auto_finish  # an unticked box is off
    assert [s.is_bot for s in match.seats.order_by("position")] == [False] * 3 + [True] * 2
    page = alice_client.get(response.url).text
    assert "Your match is open" in page
    assert reverse("invite", args=[match.invite_code]) in page


def test_with_every_other_seat_a_bot_the_match_starts_at_once(alice_client):
    response = create(alice_client, bots=3, auto_finish="on")
    match = Match.objects.get()
    assert match.status == MatchStatus.ACTIVE and match.auto_finish
    page = alice_client.get(response.url).text
    assert "Pass these three cards" in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"target": 24}, "greater than or equal to 25"),
        ({"target": 501}, "less than or equal to 500"),
        ({"target": "lots"}, "Enter a whole number"),
        ({"players": 8}, "Hearts is for 3 to 7 players, not 8"),
        ({"players": 2}, "Choose from 3 to 10 players"),
        ({"players": 11}, "Choose from 3 to 10 players"),
        ({"players": 4, "variant": "cancellation"}, "Cancellation Hearts is for 5 to 10 players"),
        ({"players": 8, "variant": "omnibus"}, "Omnibus Hearts is for 3 to 7 players"),
        ({"variant": "spades"}, "Choose Standard, Omnibus or Cancellation Hearts"),
        ({"bonus_card": "TD"}, "Only Omnibus Hearts has a bonus card to choose"),
        ({"variant": "omnibus", "bonus_card": "QS"}, "The bonus card is the J♦ or the 10♦"),
        ({"bots": 4}, "Choose between 0 and 3 bots"),
        ({"moon": "sometimes"}, "Select a valid choice"),
        ({"target": None}, "This field is required"),
        ({"hands": 51}, "less than or equal to 50"),
        ({"hands": -1}, "greater than or equal to 0"),
    ],
)
def test_it_refuses_rules_outside_what_is_allowed(alice_client, fields, message):
    response = create(alice_client, **fields)
    assert response.status_code == 400
    assert message in response.text
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("fields", "rules"),
    [
        ({"variant": "omnibus"}, {"variant": "omnibus"}),
        ({"variant": "omnibus", "bonus_card": "TD"}, {"variant": "omnibus", "bonus_card": "TD"}),
        ({"variant": "cancellation", "players": 10}, {"variant": "cancellation"}),
        ({"variant": "standard", "bonus_card": "JD"}, {}),
    ],
)
def test_R5_the_lobby_creates_a_match_of_each_game(alice_client, fields, rules):
    response = create(alice_client, **fields)
    match = Match.objects.get()
    assert response.status_code == 302
    assert {k: v for k, v in match.rules.items() if k in ("variant", "bonus_card")} == rules
    assert match.players == fields.get("players", 4)
    assert match.seats.count() == match.players


def test_a_player_joins_from_the_lobby(alice, bob):
    match = make_match(alice, start=False)
    response = client_for(bob).post(reverse("join_match", args=[match.pk]))
    assert response.status_code == 302
    assert match.seats.filter(user=bob).exists()


def test_the_match_starts_once_every_seat_is_taken(alice, bob):
    match = make_match(alice, start=False, players=3, bots=1)
    client_for(bob).post(reverse("join_match", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE


def test_joining_twice_is_refused(alice, bob):
    match = make_match(alice, start=False)
    client = client_for(bob)
    client.post(reverse("join_match", args=[match.pk]))
    response = client.post(reverse("join_match", args=[match.pk]))
    assert response.status_code == 409
    assert "You already have a seat" in response.text


def test_the_creator_adds_and_removes_a_bot(alice_client, alice):
    match = make_match(alice, start=False)
    page = alice_client.get(match.get_absolute_url()).text
    assert "Add a bot to seat 2" in page and "Start the match" in page
    alice_client.post(reverse("add_bot", args=[match.pk]), {"position": 2})
    seat = match.seats.get(position=2)
    assert seat.is_bot
    assert f"Remove {seat.name}" in alice_client.get(match.get_absolute_url()).text
    alice_client.post(reverse("remove_bot", args=[match.pk]), {"position": 2})
    assert match.seats.get(position=2).is_empty


def test_only_the_creator_changes_the_seats_or_starts(alice, bob):
    match = make_match(alice, start=False)
    client = client_for(bob)
    client.post(reverse("join_match", args=[match.pk]))
    page = client.get(match.get_absolute_url()).text
    assert "Add a bot" not in page and "Start the match" not in page
    response = client.post(reverse("add_bot", args=[match.pk]), {"position": 2})
    assert response.status_code == 403
    assert client.post(reverse("start_match", args=[match.pk])).status_code == 403
    match.refresh_from_db()
    assert match.status == MatchStatus.OPEN and match.seats.get(position=2).is_empty


def test_starting_fills_the_empty_seats_with_bots(alice_client, alice, bob):
    match = make_match(alice, start=False)
    services.join_match(bob, match.pk)
    response = alice_client.post(reverse("start_match", args=[match.pk]))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    seats = list(match.seats.order_by("position"))
    assert [s.user for s in seats[:2]] == [alice, bob] and all(s.is_bot for s in seats[2:])


def test_a_player_leaves_before_the_start(alice, bob):
    match = make_match(alice, start=False)
    client = client_for(bob)
    client.post(reverse("join_match", args=[match.pk]))
    response = client.post(reverse("leave_match", args=[match.pk]))
    assert response.status_code == 302 and response.url == reverse("lobby")
    assert not match.seats.filter(user=bob).exists()


def test_the_creator_leaving_cancels_the_match(alice_client, alice):
    match = make_match(alice, start=False)
    page = alice_client.get(match.get_absolute_url()).text
    assert "Cancel the match" in page
    alice_client.post(reverse("leave_match", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED
    assert "You have cancelled the match." in alice_client.get(reverse("lobby")).text


def test_leaving_a_started_match_is_refused(alice_client, alice):
    match = make_match(alice)
    response = alice_client.post(reverse("leave_match", args=[match.pk]))
    assert response.status_code == 409
    assert "already started" in response.text


def test_the_invite_link_joins_a_private_match_after_login(client, alice, bob):
    match = make_match(alice, start=False, private=True)
    url = reverse("invite", args=[match.invite_code])
    response = client.get(url)
    assert response.status_code == 302 and reverse("login") in response.url
    client.force_login(bob)
    page = client.get(url)
    assert page.status_code == 200
    assert "Alice invites you" in page.text
    assert f'name="invite_code" value="{match.invite_code}"' in page.text
    response = client.post(
        reverse("join_match", args=[match.pk]), {"invite_code": match.invite_code}
    )
    assert response.status_code == 302
    assert match.seats.filter(user=bob).exists()
    assert client.get(url).url == match.get_absolute_url()  # seated: straight to the table


def test_a_private_match_cannot_be_joined_without_its_code(alice, bob):
    """To anyone without its invite, a private match does not exist: 404, code never shown."""
    match = make_match(alice, start=False, private=True)
    client = client_for(bob)
    response = client.get(match.get_absolute_url())
    assert response.status_code == 404
    assert match.invite_code not in response.text
    response = client.post(reverse("join_match", args=[match.pk]), {"invite_code": "guess"})
    assert response.status_code == 404
    assert match.invite_code not in response.text
    assert not Seat.objects.filter(match=match, user=bob).exists()


def test_an_unknown_invite_code_is_404(alice_client):
    assert alice_client.get(reverse("invite", args=["nope"])).status_code == 404


def test_it_lists_public_matches_in_play_to_watch(alice, bob):
    public = make_match(alice, players=4, bots=3)
    private = make_match(alice, players=4, bots=3, private=True)
    still_open = make_match(alice, start=False)
    html = client_for(bob).get(reverse("lobby")).text
    listed = html.split('id="in-play"')[1].split("</section>")[0]
    assert f'<a href="/matches/{public.pk}/">Watch match {public.pk}</a>' in listed
    assert "4 players · hand 1" in listed
    for match in (private, still_open):
        assert f"match {match.pk}<" not in listed
    # The live script's request: the lists alone, the form left out.
    part = client_for(bob).get(reverse("lobby"), {"part": "lists"}).text
    assert part.lstrip().startswith('<div id="lobby-lists"')
    assert f"Watch match {public.pk}" in part and f"Join match {still_open.pk}" in part
    assert "Create the match" not in part and "<html" not in part


def test_nothing_is_in_play_to_watch(bob):
    html = client_for(bob).get(reverse("lobby")).text
    assert "No match is being played in public right now." in html
