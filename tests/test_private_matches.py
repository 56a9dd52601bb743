"""A private match is for its players and staff: to anyone else it does not exist, by any route.

People holding its invite see it through the invite page until it starts, and may join it.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match, Seat
from tests.async_helpers import run_async
from tests.factories import HTMX, client_for, make_match
from tests.live_helpers import connect

# Every route of one match, with what a form for it would send.
ROUTES = [
    ("match", "get", {}),
    ("scores", "get", {}),
    ("join_match", "post", {"invite_code": "guess"}),
    ("leave_match", "post", {}),
    ("add_bot", "post", {"position": 1}),
    ("remove_bot", "post", {"position": 1}),
    ("start_match", "post", {}),
    ("pass_cards", "post", {"version": 1, "cards": ["2C", "3C", "4C"]}),
    ("play_card", "post", {"version": 1, "card": "2C"}),
    ("choose_moon", "post", {"version": 1, "option": "add"}),
    ("resign", "post", {}),
]


@pytest.fixture
def bob(make_user):
    return make_user("bob", "Bob")


@pytest.fixture
def outsider(make_user):
    return make_user("eve", "Eve")


@pytest.mark.parametrize("started", [False, True], ids=["open", "in play"])
@pytest.mark.parametrize(("name", "method", "data"), ROUTES, ids=[r[0] for r in ROUTES])
def test_every_route_of_a_private_match_is_404_to_an_outsider(
    alice, outsider, started, name, method, data
):
    match = make_match(alice, start=started, private=True)
    before = (match.version, match.status, list(Seat.objects.filter(match=match).values()))
    client = client_for(outsider)
    url = reverse(name, args=[match.pk])
    for extra in ({}, HTMX):
        response = getattr(client, method)(url, data, **extra)
        assert response.status_code == 404, (name, extra)
        assert match.invite_code not in response.text
        assert "Alice" not in response.text
    match.refresh_from_db()
    after = (match.version, match.status, list(Seat.objects.filter(match=match).values()))
    assert after == before


def test_the_players_and_staff_see_a_private_match(alice, bob, make_user):
    match = make_match(alice, people=[bob], private=True)
    staff = make_user("boss", "Boss", is_staff=True)
    for user in (alice, bob, staff):
        client = client_for(user)
        assert client.get(match.get_absolute_url()).status_code == 200
        assert client.get(reverse("scores", args=[match.pk])).status_code == 200


def test_a_player_who_resigned_still_sees_the_match(alice, bob):
    match = make_match(alice, people=[bob], private=True)
    client = client_for(bob)
    assert client.post(reverse("resign", args=[match.pk])).status_code == 302
    assert client.get(match.get_absolute_url()).status_code == 200


def test_the_invite_opens_a_private_match_until_it_starts(alice, bob, outsider):
    match = make_match(alice, start=False, private=True)
    invite = reverse("invite", args=[match.invite_code])
    client = client_for(bob)
    assert client.get(invite).status_code == 200
    response = client.post(
        reverse("join_match", args=[match.pk]), {"invite_code": match.invite_code}
    )
    assert response.status_code == 302
    assert client.get(match.get_absolute_url()).status_code == 200
    # Started, the invite opens it no more to someone who did not join.
    client_for(alice).post(reverse("start_match", args=[match.pk]))
    assert Match.objects.get(pk=match.pk).status == "active"
    assert client_for(outsider).get(invite).status_code == 404
    assert client.get(invite).url == match.get_absolute_url()  # a player goes to the table


def test_a_public_match_is_still_open_to_spectators(alice, outsider):
    match = make_match(alice)
    assert client_for(outsider).get(match.get_absolute_url()).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_an_outsider_cannot_follow_a_private_match(make_user):
    alice, outsider = make_user("alice", "Alice"), make_user("eve", "Eve")
    match = make_match(alice, private=True)

    async def scenario() -> tuple[dict, dict]:
        socket, _ = await connect(outsider)
        await socket.send_json_to({"follow": match.pk})
        refused = await socket.receive_json_from()
        own, _ = await connect(alice)
        await own.send_json_to({"follow": match.pk})
        followed = await own.receive_json_from()
        await socket.disconnect()
        await own.disconnect()
        return refused, followed

    refused, followed = run_async(scenario)
    assert refused == {"type": "error", "follow": match.pk, "error": "There is no such match."}
    assert followed["type"] == "following"
