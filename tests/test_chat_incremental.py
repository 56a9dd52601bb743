"""A page that shows the chat asks only for the messages after the newest it shows
(`/matches/<id>/chat/?after=<id>`): the newer messages its viewer may read, by the same rules as
the whole region, appended to their rooms out of band; the whole region when too many came or
`after` is no message id (games/views/chat.py, games/presenters/chat.py: `chat_news`)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import ChatMessage, Match, Room
from games.services import chat, people
from tests.factories import HTMX, client_for, make_match
from tests.records_helpers import finished_match
from tests.tournaments.test_duplicate_deal_secrecy import start_round_of_two_tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_limits")]

WHOLE = 'id="chat"'  # the whole region's section, never in the news


@pytest.fixture
def carol(make_user):
    return make_user("carol", "Carol")


@pytest.fixture
def table(alice, bob) -> Match:
    return make_match(alice, people=[bob])


def post(match: Match, author, text: str, room: str = Room.PLAYERS) -> ChatMessage:
    return ChatMessage.objects.create(
        match=match, author=author, room=room, text=text, created_at=match.created_at
    )


def news(user, match: Match, after: object):
    return client_for(user).get(reverse("chat", args=[match.pk]), {"after": after}, **HTMX)


def test_only_the_newer_messages_come_appended_to_their_room(table, alice, bob):
    seen = post(table, alice, "already shown")
    post(table, alice, "first new")
    post(table, bob, "second new")
    response = news(bob, table, seen.pk)
    html = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"  # the region stays; the messages are appended
    assert WHOLE not in html and "already shown" not in html
    assert html.index("first new") < html.index("second new")
    assert html.count('hx-swap-oob="beforeend:#chat-messages-players"') == 1
    assert "chat-messages-spectators" not in html  # nothing new there
    # The same message as the region's: its id, whose it is, and its forms.
    assert html.count("data-message=") == 2 and html.count("data-others=") == 1
    assert 'name="message"' in html and 'name="name" value="Alice"' in html


def test_nothing_new_is_an_empty_answer(table, alice, bob):
    newest = post(table, alice, "hello")
    response = news(bob, table, newest.pk)
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert response.content.decode().strip() == ""


def test_the_news_are_escaped(table, alice, bob):
    seen = post(table, alice, "hi")
    post(table, alice, "<script>alert(1)</script> <b>x</b>")
    html = news(bob, table, seen.pk).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;x&lt;/b&gt;" in html
    assert "<script>" not in html and "<b>x</b>" not in html


def test_muted_blocked_hidden_and_other_rooms_stay_out(alice, bob, carol, make_user):
    dave = make_user("dave", "Dave")
    match = make_match(alice, people=[bob, carol, dave])
    seen = post(match, alice, "shown")
    post(match, bob, "from muted bob")
    post(match, carol, "from blocked carol")
    ChatMessage.objects.filter(pk=post(match, dave, "hidden by staff").pk).update(
        hidden_by_staff=True
    )
    post(match, dave, "from a spectator", room=Room.SPECTATORS)
    post(match, dave, "readable")
    chat.mute(alice, "Bob")
    people.block(carol, alice)  # a block either way
    html = news(alice, match, seen.pk).content.decode()
    assert "readable" in html
    for unread in ("muted bob", "blocked carol", "hidden by staff", "from a spectator"):
        assert unread not in html, unread


def test_spectators_read_their_room_only_while_the_match_is_played(table, alice, carol):
    seen = post(table, carol, "go alice", room=Room.SPECTATORS)
    post(table, alice, "players only")
    post(table, carol, "watching", room=Room.SPECTATORS)
    spectator = news(carol, table, seen.pk).content.decode()
    assert "watching" in spectator and "players only" not in spectator
    assert "chat-messages-players" not in spectator
    player = news(alice, table, seen.pk).content.decode()
    assert "players only" in player and "watching" not in player


def test_after_the_match_both_rooms_come_to_all_who_may_look(alice, carol):
    match = finished_match(alice)
    seen = post(match, alice, "gg")
    post(match, carol, "watching", room=Room.SPECTATORS)
    post(match, alice, "gg all")
    for user in (alice, carol):
        html = news(user, match, seen.pk).content.decode()
        assert "watching" in html and "gg all" in html
        assert "#chat-messages-players" in html and "#chat-messages-spectators" in html


def test_a_sealed_table_tells_the_other_tables_players_nothing(db):
    _, (first, second) = start_round_of_two_tables()
    own = first.match.seats.get(position=0).user
    sibling = second.match.seats.get(position=0).user
    seen = post(first.match, own, "before")
    post(first.match, own, "the queen is here")
    assert "the queen is here" in news(own, first.match, seen.pk).content.decode()
    response = news(sibling, first.match, seen.pk)
    assert response.status_code == 200
    assert "the queen is here" not in response.content.decode()
    assert "data-message" not in response.content.decode()


def test_a_private_match_is_not_found_to_outsiders(alice, bob, carol):
    match = make_match(alice, people=[bob], private=True)
    seen = post(match, alice, "secret")
    assert news(carol, match, seen.pk).status_code == 404


@pytest.mark.parametrize("after", ["x", "-1", "99999999999999999999", "", "0", "1.5", "١٢"])
def test_an_after_that_is_no_message_id_answers_the_whole_region(table, alice, bob, after):
    post(table, alice, "hello")
    response = news(bob, table, after)
    assert response.status_code == 200
    assert WHOLE in response.content.decode() and "hello" in response.content.decode()
    assert "HX-Reswap" not in response


def test_more_new_messages_than_a_page_shows_answer_the_whole_region(table, alice, bob):
    seen = post(table, alice, "old")
    for number in range(chat.SHOWN_MESSAGES + 1):
        post(table, alice, f"message {number}")
    response = news(bob, table, seen.pk)
    html = response.content.decode()
    assert WHOLE in html and "HX-Reswap" not in response
    assert html.count("data-message=") == chat.SHOWN_MESSAGES
    assert f"message {chat.SHOWN_MESSAGES}" in html and "message 0<" not in html
    # As many as a page shows are news still.
    first_new = ChatMessage.objects.get(text="message 0")
    assert WHOLE not in news(bob, table, first_new.pk).content.decode()


def test_without_htmx_the_page_gets_the_whole_region(table, alice, bob):
    seen = post(table, alice, "old")
    post(table, alice, "new")
    response = client_for(bob).get(reverse("chat", args=[table.pk]), {"after": seen.pk})
    assert WHOLE in response.content.decode()


def test_the_news_cost_no_more_queries_than_the_whole_region(table, alice, bob):
    seen = post(table, alice, "old")

    def count(after) -> int:
        client = client_for(bob)
        client.get(reverse("chat", args=[table.pk]), **HTMX)  # the session read once
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("chat", args=[table.pk]), {"after": after}, **HTMX)
        assert response.status_code == 200
        return len(queries)

    post(table, alice, "new")
    few = count(seen.pk)
    whole = count("")
    for number in range(10):
        post(table, bob, f"more {number}")
    assert count(seen.pk) == few  # whatever the number of messages
    assert few <= whole and few <= 8, (few, whole)
