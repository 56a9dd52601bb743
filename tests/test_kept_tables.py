"""Moves that start from the table their last move kept (PostgreSQL): checked, or made again.

A kept copy saves a move its locked read; the move's last exchange checks that the match row
and the people seated at it are still as copied. Whatever changed meanwhile (elsewhere: in
another process, the admin, a password or a name changed) makes the move again from the rows.
"""

import threading

import pytest
from django.contrib.auth import HASH_SESSION_KEY, get_user_model
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Action, Match, Profile
from games.services import kept_tables
from games.services.replay import log_matches_snapshot
from tests.factories import HTMX, action_count, make_match, move_now, next_move, state_of

pytestmark = [
    pytest.mark.django_db(transaction=True),  # a copy is kept once a move commits
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="kept tables save a round trip on PostgreSQL"
    ),
]
GUARD = "SELECT games_expect_table"
LOCKED_READ = "FOR UPDATE OF"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def reads(statements) -> int:
    return sum(LOCKED_READ in sql for sql in statements)


def guards(statements) -> int:
    return sum(sql.startswith(GUARD) for sql in statements)


@pytest.fixture
def table(alice):
    """Alice's match against three bots, started: its copy is kept; and her client.

    She signs in first: signing in writes her row (its last login), which a copy notices.
    """
    client = signed_in(alice)
    return make_match(alice), client


def test_a_move_after_a_committed_one_reads_nothing_and_is_checked(table):
    match, client = table
    response, statements = move_now(client, match)
    assert response.status_code == 200
    assert reads(statements) == 0 and guards(statements) == 1
    sent = [sql for sql in statements if sql != "BEGIN"]
    assert sent[0].startswith(GUARD)  # first: nothing is written unless it passes
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_a_whole_match_through_the_views_replays_to_what_is_stored(alice):
    client = signed_in(alice)
    match = make_match(alice, seed=3)
    kept = read = 0
    while Match.objects.get(pk=match.pk).status == "active":
        response, statements = move_now(client, match)
        assert response.status_code == 200, response.content[:300]
        kept += guards(statements)
        read += reads(statements)
    assert kept > 50 and read == 0  # every move, hand after hand, started from a copy
    match.refresh_from_db()
    assert match.status == "finished" and log_matches_snapshot(match)


def test_a_match_changed_elsewhere_is_read_again_and_the_move_judged_on_it(table):
    match, client = table
    move_now(client, match)  # the pass: the copy now waits for Alice's first card
    match.refresh_from_db()
    move = next_move(match, 0)  # made on the table as kept, and as Alice last saw it
    # Elsewhere, another move was stored (its version counted) since this process kept the copy.
    Match.objects.filter(pk=match.pk).update(version=match.version + 1)
    before = action_count(match)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(move.url, move.data, **HTMX)
    statements = [q["sql"] for q in queries.captured_queries]
    assert response.status_code == 409
    assert "The table has changed" in response.text
    assert guards(statements) == 1 and reads(statements) >= 1
    assert action_count(match) == before
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_an_option_changed_in_the_admin_is_obeyed_by_the_next_move(table):
    match, client = table
    move_now(client, match)  # the pass; the copy now waits for Alice's first card
    Match.objects.filter(pk=match.pk).update(auto_finish=False)
    response, statements = move_now(client, match)
    assert response.status_code == 200
    assert reads(statements) == 1  # refused as a copy, made from the row
    match.refresh_from_db()
    assert match.auto_finish is False and kept_tables.take(match.pk, match.version) is not None


def test_a_name_changed_elsewhere_shows_in_the_next_answer(table, alice):
    match, client = table
    Profile.objects.filter(user=alice).update(display_name="Alicia")
    response, statements = move_now(client, match)
    assert response.status_code == 200 and reads(statements) == 1
    assert "Alicia" in response.text


def test_a_password_changed_elsewhere_signs_the_old_session_out_and_moves_nothing(table, alice):
    match, client = table
    changed = get_user_model().objects.get(pk=alice.pk)
    changed.set_password("another-password-9")
    changed.save()
    before, version = action_count(match), Match.objects.get(pk=match.pk).version
    response, _ = move_now(client, match)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert action_count(match) == before
    assert Match.objects.get(pk=match.pk).version == version
    assert client.get(reverse("match", args=[match.pk])).status_code == 302  # signed out


def test_a_session_signed_in_with_a_newer_password_than_the_copy_is_kept(table, alice):
    match, client = table
    changed = get_user_model().objects.get(pk=alice.pk)
    changed.set_password("another-password-9")
    changed.save()
    # This session changed the password (in another process): it carries the new hash.
    session = client.session
    session[HASH_SESSION_KEY] = changed.get_session_auth_hash()
    session.save()
    before = action_count(match)
    response, statements = move_now(client, match)
    assert response.status_code == 200
    assert guards(statements) == 0 and reads(statements) == 1  # the copy never stood for her
    assert action_count(match) > before
    assert client.get(reverse("match", args=[match.pk])).status_code == 200  # still signed in


def test_a_card_refused_on_the_copy_is_refused_by_the_rows(table):
    match, client = table
    move_now(client, match)  # the pass
    match.refresh_from_db()
    view = state_of(match).view(0)
    illegal = next(card for card in view.hand if card not in view.legal)
    data = {"version": match.version, "card": str(illegal)}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("play_card", args=[match.pk]), data, **HTMX)
    assert response.status_code == 400
    assert "R3." in response.text  # the rule that forbids it
    assert reads([q["sql"] for q in queries.captured_queries]) == 1
    assert Match.objects.get(pk=match.pk).version == match.version


def test_the_same_move_sent_twice_is_applied_once(table):
    match, client = table
    match.refresh_from_db()
    move = next_move(match, 0)
    first = client.post(move.url, move.data, **HTMX)
    count = action_count(match)
    second = client.post(move.url, move.data, **HTMX)
    assert first.status_code == second.status_code == 200
    assert action_count(match) == count


def test_a_match_started_by_its_last_seat_taken_is_read_by_its_first_move(alice, make_user):
    bob = make_user("bob")
    clients = {0: signed_in(alice), 1: signed_in(bob)}
    match = services.create_match(alice, services.MatchOptions(players=4, bots=2))
    match = services.join_match(bob, match.pk, match.invite_code)  # the last seat: it starts
    match.refresh_from_db()
    assert match.status == "active"
    assert kept_tables.take(match.pk, match.version) is None  # seated after the read
    response, statements = move_now(clients[0], match)
    assert response.status_code == 200 and reads(statements) == 1
    response, statements = move_now(clients[1], match, position=1)
    assert response.status_code == 200 and reads(statements) == 0 and guards(statements) == 1


def test_two_people_passing_at_once_from_copies_are_both_applied(alice, make_user):
    """One copy's check fails (the other pass came first): made again from the rows, the
    pass is applied there, since only another seat's pass came between (R2)."""
    bob, cleo = make_user("bob"), make_user("cleo")
    clients = {0: signed_in(alice), 1: signed_in(bob), 2: signed_in(cleo)}
    match = make_match(alice, people=[bob, cleo])
    move_now(clients[0], match)  # Alice passes: the table is kept, Bob and Cleo still to pass
    match.refresh_from_db()
    moves = {seat: next_move(match, seat) for seat in (1, 2)}
    assert all(moves.values()) and kept_tables.take(match.pk, match.version) is not None
    barrier = threading.Barrier(2)
    answers = {}

    def send(seat):
        barrier.wait()
        try:
            answers[seat] = clients[seat].post(moves[seat].url, moves[seat].data, **HTMX)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(seat,)) for seat in moves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(answer.status_code for answer in answers.values()) == [200, 200]
    match.refresh_from_db()
    assert match.version == moves[1].data["version"] + 2
    passes = Action.objects.filter(match=match, kind="pass", actor="person").count()
    assert passes == 3  # Alice's, and both of the two that raced
    assert log_matches_snapshot(match)
