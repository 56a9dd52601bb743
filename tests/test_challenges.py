"""Challenges by name: made from the lobby's form, answered by each person named, listed for both
sides; refused clearly when they cannot be; told live and by e-mail, never with a card."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import CARDS
from games.models import Answer, Block, Challenge, ChallengeSeat, Follow, Match, Seat
from games.services import challenges
from games.services.match_options import MatchOptions
from tests.factories import client_for
from tests.notify_helpers import all_text, messages_to, notices_sent, opt_in, run_due_tasks

pytestmark = pytest.mark.django_db

DAYS_3 = timedelta(days=3)


@pytest.fixture
def carol(make_user):
    return make_user("carol", "Carol", email="carol@example.com")


@pytest.fixture
def dave(make_user):
    return make_user("dave", "Dave", email="dave@example.com")


def challenge(challenger, *invitees, players=4, bots=0, unanswered="bot", wait=DAYS_3) -> Match:
    options = MatchOptions(players=players, bots=bots)
    return challenges.create_challenge(challenger, options, list(invitees), wait, unanswered)


def challenge_of(match: Match) -> Challenge:
    return Challenge.objects.get(match=match)


def refusal(call, *args) -> services.ActionRefused:
    with pytest.raises(services.ActionRefused) as caught:
        call(*args)
    return caught.value


def seat_at(match: Match, position: int) -> Seat:
    return Seat.objects.get(match=match, position=position)


def lobby_form(**data) -> dict:
    base = {"players": 4, "target": 100, "moon": "ask", "bots": 0}
    return {**base, **data}


# ----- making a challenge -----


def test_a_challenge_is_a_private_open_match_with_seats_kept_for_those_named(alice, bob, carol):
    match = challenge(alice, bob, carol)
    assert match.status == "open" and match.is_private
    kept = ChallengeSeat.objects.filter(challenge__match=match)
    assert [(c.invitee, c.position, c.answer) for c in kept] == [
        (bob, 1, "pending"),
        (carol, 2, "pending"),
    ]
    assert seat_at(match, 1).user is None  # kept, not taken


def test_nobody_else_takes_a_kept_seat_by_the_invite_link(alice, bob, carol, dave, make_user):
    match = challenge(alice, bob, carol)
    services.join_match(dave, match.pk, match.invite_code)
    assert seat_at(match, 3).user == dave  # the one seat nobody was named for
    eve = make_user("eve", "Eve")
    refused = refusal(services.join_match, eve, match.pk, match.invite_code)
    assert refused.message == "Every seat in this match is taken."


def test_an_invitee_joining_by_link_is_sent_to_their_answer(alice, bob):
    match = challenge(alice, bob)
    refused = refusal(services.join_match, bob, match.pk, match.invite_code)
    assert "accept the challenge" in refused.message


def test_the_lobby_does_not_list_a_challenge(alice, bob, carol):
    match = challenge(alice, bob)
    page = client_for(carol).get(reverse("lobby")).content.decode()
    assert reverse("join_match", args=[match.pk]) not in page


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Alice"], "That is you: name someone else to challenge."),
        (["Bob", "Bob"], "Each player can be named once."),
        (["Bob", "Carol", "Dave", "Alice"], "That is you: name someone else to challenge."),
    ],
)
def test_the_service_refuses_impossible_names(alice, bob, carol, dave, names, message):
    everyone = {"Alice": alice, "Bob": bob, "Carol": carol, "Dave": dave}
    refused = refusal(challenge, alice, *[everyone[n] for n in names])
    assert refused.message == message and refused.status == 400


def test_more_names_than_free_seats_are_refused(alice, bob, carol, dave):
    refused = refusal(lambda: challenge(alice, bob, carol, dave, players=4, bots=1))
    assert refused.message == "This table has 2 seats for other people: name at most that many."


@pytest.mark.parametrize("who_blocks", ["challenger", "invitee"])
def test_a_block_either_way_refuses_the_challenge_without_saying_who(alice, bob, who_blocks):
    blocker, blocked = (alice, bob) if who_blocks == "challenger" else (bob, alice)
    Block.objects.create(blocker=blocker, blocked=blocked, created_at="2026-01-01T00:00Z")
    refused = refusal(challenge, alice, bob)
    assert refused.message == "You cannot challenge Bob: there is a block between you."
    assert refused.status == 403 and not Match.objects.exists()


def test_one_challenge_at_a_time_between_the_same_two(alice, bob):
    challenge(alice, bob)
    refused = refusal(challenge, alice, bob)
    assert refused.message == "You have already challenged Bob: wait for their answer."


def test_an_invitee_at_the_open_match_cap_cannot_be_challenged(alice, bob, carol, settings):
    settings.MAX_OPEN_MATCHES_PER_PLAYER = 1
    challenge(carol, bob)  # a kept seat counts as an open match
    refused = refusal(challenge, alice, bob)
    assert refused.status == 429 and "Bob has as many open matches" in refused.message


def test_the_challenger_s_own_cap_counts(alice, bob, carol, settings):
    settings.MAX_OPEN_MATCHES_PER_PLAYER = 1
    challenge(alice, bob)
    assert refusal(challenge, alice, carol).status == 429


def test_the_wait_must_be_one_hour_to_seven_days(alice, bob):
    assert refusal(lambda: challenge(alice, bob, wait=timedelta(days=8))).status == 400
    assert refusal(lambda: challenge(alice, bob, wait=timedelta(minutes=5))).status == 400


# ----- answering -----


def test_the_match_starts_when_everyone_named_has_accepted(alice, bob, carol):
    match = challenge(alice, bob, carol, players=3)
    pk = challenge_of(match).pk
    assert challenges.accept(bob, pk).match.status == "open"
    assert challenges.accept(carol, pk).match.status == "active"
    assert [s.user for s in Seat.objects.filter(match=match)] == [alice, bob, carol]


def test_a_decline_gives_the_seat_to_a_bot_and_the_match_may_start(alice, bob, carol):
    match = challenge(alice, bob, carol, players=3, unanswered="bot")
    pk = challenge_of(match).pk
    challenges.accept(bob, pk)
    assert challenges.decline(carol, pk).match.status == "active"
    assert seat_at(match, 2).is_bot


def test_a_decline_leaves_the_seat_open_when_the_challenger_chose_so(alice, bob, carol, dave):
    match = challenge(alice, bob, carol, players=3, unanswered="open")
    pk = challenge_of(match).pk
    challenges.decline(carol, pk)
    assert seat_at(match, 2).is_empty
    challenges.accept(bob, pk)
    assert services.join_match(dave, match.pk, match.invite_code).match.status == "active"


def test_answering_twice_is_refused(alice, bob, carol):
    pk = challenge_of(challenge(alice, bob, carol)).pk
    challenges.decline(bob, pk)
    for answer in (challenges.accept, challenges.decline):
        refused = refusal(answer, bob, pk)
        assert refused.message == "You have already answered this challenge."
        assert refused.status == 409


def test_someone_else_s_challenge_is_no_challenge_at_all(alice, bob, carol):
    pk = challenge_of(challenge(alice, bob)).pk
    for answer in (challenges.accept, challenges.decline, challenges.cancel):
        refused = refusal(answer, carol, pk)
        assert refused.status == 404 and refused.message == "There is no such challenge."
    assert refusal(challenges.cancel, bob, pk).status == 404  # an invitee cannot call it off


def test_an_expired_challenge_cannot_be_answered(alice, bob, clock):
    pk = challenge_of(challenge(alice, bob, wait=timedelta(hours=1))).pk
    clock.advance(hours=1)
    refused = refusal(challenges.accept, bob, pk)
    assert refused.message == "This challenge has expired." and refused.status == 409


def test_the_sweep_expires_a_challenge_as_the_challenger_chose(alice, bob, carol, clock):
    match = challenge(alice, bob, carol, players=3, wait=timedelta(hours=1))
    pk = challenge_of(match).pk
    challenges.accept(bob, pk)
    assert challenges.expire_challenges() == 0
    clock.advance(hours=1)
    assert challenges.expire_challenges() == 1
    match.refresh_from_db()
    assert match.status == "active" and seat_at(match, 2).is_bot
    assert ChallengeSeat.objects.get(invitee=carol).answer == Answer.EXPIRED
    assert refusal(challenges.accept, carol, pk).message == "This challenge has expired."


def test_calling_it_off_abandons_the_match_and_ends_the_answers(alice, bob):
    match = challenge(alice, bob)
    pk = challenge_of(match).pk
    challenges.cancel(alice, pk)
    match.refresh_from_db()
    assert match.status == "abandoned"
    assert ChallengeSeat.objects.get(invitee=bob).answer == Answer.CANCELLED
    refused = refusal(challenges.accept, bob, pk)
    assert refused.message == "This challenge is over: its match was started or called off."
    assert refusal(challenges.cancel, alice, pk).status == 409


def test_starting_at_once_gives_the_kept_seats_to_bots(alice, bob):
    match = challenge(alice, bob)
    assert services.start_match(alice, match.pk).match.status == "active"
    assert seat_at(match, 1).is_bot
    assert ChallengeSeat.objects.get(invitee=bob).answer == Answer.CANCELLED


def test_a_block_with_someone_seated_refuses_the_acceptance(alice, bob, carol):
    pk = challenge_of(challenge(alice, bob, carol)).pk
    challenges.accept(bob, pk)
    Block.objects.create(blocker=bob, blocked=carol, created_at="2026-01-01T00:00Z")
    refused = refusal(challenges.accept, carol, pk)
    assert refused.status == 403 and "block between you and one of its players" in refused.message


# ----- the pages -----


def test_the_lobby_form_sends_a_challenge(alice, bob, carol):
    data = lobby_form(invite_0="Bob", invite_1="Carol", answer_within=3600, unanswered="open")
    response = client_for(alice).post(reverse("create_match"), data)
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    found = challenge_of(match)
    assert found.unanswered == "open"
    assert found.expires_at - found.created_at == timedelta(hours=1)


@pytest.mark.parametrize(
    ("data", "message", "status"),
    [
        ({"invite_0": "Nobody"}, "There is no player named Nobody.", 400),
        ({"invite_0": "Alice"}, "That is you: name someone else to challenge.", 400),
        ({"invite_0": "Bob", "invite_1": "Bob"}, "Each player can be named once.", 400),
        ({"invite_0": "Bob", "answer_within": "99"}, "Choose one of the times offered.", 400),
        ({"invite_0": "Bob", "unanswered": "maybe"}, "Choose a bot or an open seat.", 400),
        (
            {"invite_0": "Bob", "invite_1": "Carol", "bots": 2},
            "This table has 1 seat for another person: name no more than one.",
            400,
        ),
    ],
)
def test_the_lobby_form_says_what_is_wrong(alice, bob, carol, data, message, status):
    response = client_for(alice).post(reverse("create_match"), lobby_form(**data))
    assert response.status_code == status
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_a_blocked_name_is_refused_on_the_page_without_saying_who(alice, bob):
    Block.objects.create(blocker=bob, blocked=alice, created_at="2026-01-01T00:00Z")
    response = client_for(alice).post(reverse("create_match"), lobby_form(invite_0="Bob"))
    html = response.content.decode()
    assert response.status_code == 403
    assert "You cannot challenge Bob: there is a block between you." in html
    assert "blocked you" not in html


def test_a_player_s_page_offers_a_challenge_and_the_lobby_fills_the_name(alice, bob):
    client = client_for(alice)
    page = client.get(reverse("player", args=["Bob"])).content.decode()
    assert f'href="{reverse("lobby")}?name=Bob#create-match"' in page
    lobby = client.get(reverse("lobby"), {"name": "Bob"}).content.decode()
    assert 'name="invite_0" value="Bob"' in lobby


def test_both_sides_see_the_challenge_in_their_lists(alice, bob, carol):
    match = challenge(alice, bob, carol)
    pk = challenge_of(match).pk
    challenges.decline(carol, pk)
    sent = client_for(alice).get(reverse("challenges")).content.decode()
    assert 'Bob</span>: <span class="challenge-state is-pending">' in sent
    assert 'Carol</span>: <span class="challenge-state is-declined">' in sent
    assert reverse("cancel_challenge", args=[pk]) in sent
    received = client_for(bob).get(reverse("challenges")).content.decode()
    assert "Alice challenges you to match" in received
    assert reverse("accept_challenge", args=[pk]) in received
    your_turn = client_for(bob).get(reverse("home")).content.decode()
    assert "Challenges to answer" in your_turn
    assert reverse("accept_challenge", args=[pk]) in your_turn
    assert "Challenges to answer" not in client_for(carol).get(reverse("home")).content.decode()


def test_a_third_person_sees_nothing_of_it(alice, bob, carol):
    match = challenge(alice, bob)
    pk = challenge_of(match).pk
    client = client_for(carol)
    assert "Bob" not in client.get(reverse("challenges")).content.decode()
    assert client.get(match.get_absolute_url()).status_code == 404  # private
    response = client.post(reverse("accept_challenge", args=[pk]))
    assert response.status_code == 404
    assert "There is no such challenge." in response.content.decode()


def test_accepting_through_the_page_leads_to_the_match(alice, bob):
    match = challenge(alice, bob, players=3, bots=1)
    pk = challenge_of(match).pk
    response = client_for(bob).post(reverse("accept_challenge", args=[pk]))
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    match.refresh_from_db()
    assert match.status == "active"


def test_a_refused_answer_is_said_on_the_list_page(alice, bob):
    pk = challenge_of(challenge(alice, bob)).pk
    client = client_for(bob)
    client.post(reverse("decline_challenge", args=[pk]))
    response = client.post(reverse("decline_challenge", args=[pk]))
    assert response.status_code == 409
    assert "You have already answered this challenge." in response.content.decode()


def test_every_challenge_route_needs_a_csrf_token(alice, bob):
    match = challenge(alice, bob)
    pk = challenge_of(match).pk
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)
    for route in ("accept_challenge", "decline_challenge"):
        assert client.post(reverse(route, args=[pk])).status_code == 403
    client.force_login(alice)
    assert client.post(reverse("cancel_challenge", args=[pk])).status_code == 403
    assert ChallengeSeat.objects.get(invitee=bob).is_pending


def test_signed_out_visitors_are_sent_to_sign_in(alice, bob):
    pk = challenge_of(challenge(alice, bob)).pk
    for route, args in [
        ("challenges", []),
        ("challenge_names", []),
        ("accept_challenge", [pk]),
        ("decline_challenge", [pk]),
        ("cancel_challenge", [pk]),
    ]:
        response = Client().post(reverse(route, args=args))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# ----- name suggestions -----


def suggestions(client: Client, typed: str) -> str:
    return client.get(reverse("challenge_names"), {"invite_0": typed}).content.decode()


def test_suggestions_put_followed_people_first(alice, make_user):
    make_user("bea", "Bea")
    bert = make_user("bert", "Bert")
    Follow.objects.create(follower=alice, followed=bert, created_at="2026-01-01T00:00Z")
    html = suggestions(client_for(alice), "b")
    assert html == '<option value="Bert"></option><option value="Bea"></option>\n'


def test_suggestions_leave_out_oneself_the_blocked_and_the_gone(alice, make_user):
    client = client_for(alice)
    blocked = make_user("ann", "Ann")
    blocker = make_user("anita", "Anita")
    make_user("anders", "Anders", is_active=False)
    Block.objects.create(blocker=alice, blocked=blocked, created_at="2026-01-01T00:00Z")
    Block.objects.create(blocker=blocker, blocked=alice, created_at="2026-01-01T00:00Z")
    make_user("andy", "Andy")
    assert suggestions(client, "a") == '<option value="Andy"></option>\n'


def test_suggestions_are_ten_at_most_and_none_for_nothing_typed(alice, make_user):
    for n in range(12):
        make_user(f"zed{n}", f"Zed {n:02d}")
    client = client_for(alice)
    assert suggestions(client, "z").count("<option") == 10
    assert "<option" not in suggestions(client, "")
    too_long = client.get(reverse("challenge_names"), {"invite_0": "z" * 500})
    assert too_long.status_code == 200 and "<option" not in too_long.content.decode()


# ----- telling -----


def test_the_invitee_gets_an_email_if_they_asked_for_it_and_no_card(
    alice, bob, carol, clock, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://hearts.example.com"
    opt_in(bob, challenge_emails=True)
    opt_in(carol, turn_emails=True)  # turn e-mails are another choice
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge(alice, bob, carol, players=3)
    run_due_tasks(clock.advance(seconds=1))
    [message] = messages_to(bob)
    assert message.subject == "Alice challenges you to a match of Hearts"
    assert f"Alice challenges you to match {match.pk}: accept or decline it." in message.body
    assert "https://hearts.example.com/challenges/" in message.body
    assert messages_to(carol) == []
    pk = challenge_of(match).pk
    challenges.accept(bob, pk)
    challenges.accept(carol, pk)
    text = all_text(message).lower()
    card_words = [card.words.lower() for card in CARDS]  # "a match of Hearts" names no card
    assert not [words for words in card_words if words in text]


def test_calling_it_off_tells_those_waiting_and_those_seated_not_those_who_declined(
    alice, bob, carol, dave, django_capture_on_commit_callbacks
):
    match = challenge(alice, bob, carol, dave)
    pk = challenge_of(match).pk
    challenges.accept(bob, pk)
    challenges.decline(carol, pk)
    [told] = notices_sent(django_capture_on_commit_callbacks, challenges.cancel, alice, pk)
    assert told == {
        "match_id": match.pk,
        "user_ids": sorted([bob.pk, dave.pk]),
        "kind": "challenge_cancelled",
        "by": "Alice",
    }


def test_the_challenger_leaving_the_match_calls_the_challenge_off_the_same_way(
    alice, bob, django_capture_on_commit_callbacks
):
    match = challenge(alice, bob)
    [told] = notices_sent(django_capture_on_commit_callbacks, services.leave_match, alice, match.pk)
    assert told["kind"] == "challenge_cancelled" and told["user_ids"] == [bob.pk]
    assert ChallengeSeat.objects.get(invitee=bob).answer == Answer.CANCELLED


def test_an_ordinary_match_called_off_by_its_creator_tells_nobody(
    alice, bob, django_capture_on_commit_callbacks
):
    match = services.create_match(alice, MatchOptions(players=3))
    services.join_match(bob, match.pk)
    assert (
        notices_sent(django_capture_on_commit_callbacks, services.leave_match, alice, match.pk)
        == []
    )


def test_the_time_running_out_tells_the_challenger_and_those_who_did_not_answer(
    alice, bob, carol, dave, clock, django_capture_on_commit_callbacks
):
    match = challenge(alice, bob, carol, dave, wait=timedelta(hours=1))
    challenges.accept(bob, challenge_of(match).pk)
    clock.advance(hours=1)
    [told] = notices_sent(django_capture_on_commit_callbacks, challenges.expire_challenges)
    assert told["kind"] == "challenge_expired" and told["match_id"] == match.pk
    assert sorted(told["user_ids"]) == sorted([alice.pk, carol.pk, dave.pk])


def test_an_invitee_who_asked_for_challenge_emails_hears_it_was_called_off(
    alice, bob, clock, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://hearts.example.com"
    opt_in(bob, challenge_emails=True)
    match = challenge(alice, bob)
    run_due_tasks(clock.advance(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        challenges.cancel(alice, challenge_of(match).pk)
    run_due_tasks(clock.advance(seconds=1))
    subjects = [message.subject for message in messages_to(bob)]
    assert subjects[-1] == f"Alice called off the challenge to match {match.pk}"


def test_the_navigation_counts_the_challenges_waiting_for_an_answer(alice, bob, carol, clock):
    def count_shown(user) -> str:
        page = client_for(user).get(reverse("lobby")).content.decode()
        return page.split("data-challenge-number>", 1)[1].split("<", 1)[0]

    first = challenge(alice, bob, wait=timedelta(hours=1))
    challenge(carol, bob, players=3, wait=timedelta(hours=2))
    assert count_shown(bob) == "2" and count_shown(alice) == "0"
    challenges.decline(bob, challenge_of(first).pk)
    assert count_shown(bob) == "1"
    clock.advance(hours=2)  # past its time, before the sweep has run
    assert count_shown(bob) == "0"


def test_a_deleted_account_declines_what_waited_for_it_and_calls_off_what_it_sent(
    alice, bob, carol
):
    from games.accounts.deletion import delete_account

    waiting = challenge(carol, bob, players=3, unanswered="bot")
    sent = challenge(bob, alice)
    delete_account(bob)
    waiting.refresh_from_db()
    sent.refresh_from_db()
    assert ChallengeSeat.objects.get(challenge__match=waiting).answer == Answer.DECLINED
    assert seat_at(waiting, 1).is_bot
    assert sent.status == "abandoned"
    assert ChallengeSeat.objects.get(challenge__match=sent).answer == Answer.CANCELLED


def test_the_challenges_page_reads_a_bounded_number_of_queries(alice, bob, make_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for(alice)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("challenges")).status_code == 200
        return len(captured)

    challenge(alice, bob)
    challenge(bob, alice)
    queries()  # the first visit also notes that the player was seen
    few = queries()
    for n in range(4):
        others = [make_user(f"p{n}{k}", f"P{n}{k}") for k in range(3)]
        challenge(others[0], alice, others[1])
        challenge(alice, *others[1:])
    assert queries() == few


def test_the_match_page_names_whom_each_kept_seat_waits_for(alice, bob, carol):
    match = challenge(alice, bob, carol)
    challenges.decline(carol, challenge_of(match).pk)
    page = client_for(alice).get(match.get_absolute_url()).content.decode()
    assert "Kept for Bob" in page and "Kept for Carol" not in page
    assert 'name="position" value="1"' not in page  # no bot offered for a kept seat
