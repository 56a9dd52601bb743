"""Play again: a finished match's people start it again, same seats, bots and settings."""

import pytest
from django.urls import reverse

from games.lib import clock
from games.models import Block, Match, MatchStatus, RematchAnswer
from games.services import NotAllowed, people, rematches
from games.services.errors import Conflict
from tests.factories import client_for
from tests.notify_helpers import messages_to, opt_in, run_due_tasks
from tests.records_helpers import constructed_match
from tests.tournament_helpers import one_closed_round

HANDS = [[(10, False, False), (6, False, False), (5, False, False), (5, False, True)]]


@pytest.fixture
def carol(make_user):
    return make_user("carol", "Carol")


@pytest.fixture
def finished(alice, bob, carol) -> Match:
    """A finished match: Alice, Bob, a strong bot, Carol; timed, to 50, moon adds, unrated."""
    match = constructed_match([alice, bob, "strong", carol], HANDS, rated=False)
    match.rules = {"players": 4, "target": 50, "moon": "add", "hands": 0}
    match.decision_seconds, match.bank_seconds, match.auto_finish = 3600, 7200, False
    match.secret = "ab" * 32
    match.save()
    return match


def seats_of(match: Match) -> list[tuple[int | None, str, str]]:
    return [(s.user_id, s.controller, s.bot_level) for s in match.seats.order_by("position")]


def test_when_everyone_accepts_the_same_seats_bots_and_settings_play_again_with_a_new_secret(
    finished, alice, bob, carol
):
    assert rematches.accept(alice, finished.pk) is None
    assert rematches.accept(carol, finished.pk) is None
    rematch = rematches.accept(bob, finished.pk)
    assert rematch is not None and rematch.rematch_of_id == finished.pk
    assert rematch.status == MatchStatus.ACTIVE
    assert seats_of(rematch) == [
        (alice.pk, "person", "easy"),
        (bob.pk, "person", "easy"),
        (None, "bot", "strong"),
        (carol.pk, "person", "easy"),
    ]
    assert rematch.rule_set == finished.rule_set
    assert (rematch.decision_seconds, rematch.bank_seconds) == (3600, 7200)
    assert (rematch.auto_finish, rematch.rated) == (False, False)
    assert rematch.secret and rematch.secret != finished.secret
    assert rematch.commitment != finished.commitment


def test_it_waits_until_every_person_has_accepted(finished, alice, bob):
    rematches.accept(alice, finished.pk)
    rematches.accept(bob, finished.pk)
    assert not Match.objects.filter(rematch_of=finished).exists()


def test_an_accepter_may_start_with_bots_in_the_missing_seats(finished, alice, bob, carol):
    rematches.accept(alice, finished.pk)
    rematches.decline(bob, finished.pk)
    rematch = rematches.start_with_bots(alice, finished.pk)
    seats = seats_of(rematch)
    assert seats[0] == (alice.pk, "person", "easy")
    assert seats[1] == (None, "bot", rematches.STAND_IN_LEVEL)  # declined
    assert seats[3] == (None, "bot", rematches.STAND_IN_LEVEL)  # never answered
    assert seats[2] == (None, "bot", "strong")


def test_starting_with_bots_needs_ones_own_yes(finished, alice, bob):
    rematches.decline(bob, finished.pk)
    with pytest.raises(NotAllowed):
        rematches.start_with_bots(bob, finished.pk)
    with pytest.raises(NotAllowed):
        rematches.start_with_bots(alice, finished.pk)


def test_declining_is_stored_and_can_be_changed_to_a_yes(finished, alice, bob, carol):
    rematches.decline(bob, finished.pk)
    assert RematchAnswer.objects.get(match=finished, user=bob).accepted is False
    rematches.accept(alice, finished.pk)
    rematches.accept(carol, finished.pk)
    assert rematches.accept(bob, finished.pk) is not None


def test_a_spectator_cannot_play_it_again(finished, make_user):
    dave = make_user("dave")
    with pytest.raises(NotAllowed):
        rematches.accept(dave, finished.pk)
    response = client_for(dave).get(reverse("match", args=[finished.pk]))
    assert 'id="rematch-heading"' not in response.text


def test_a_second_rematch_is_refused(finished, alice):
    rematches.accept(alice, finished.pk)
    rematches.start_with_bots(alice, finished.pk)
    with pytest.raises(Conflict):
        rematches.accept(alice, finished.pk)
    with pytest.raises(Conflict):
        rematches.start_with_bots(alice, finished.pk)
    assert Match.objects.filter(rematch_of=finished).count() == 1


def test_a_match_in_play_has_no_offer(finished, alice):
    Match.objects.filter(pk=finished.pk).update(status=MatchStatus.ACTIVE)
    with pytest.raises(Conflict):
        rematches.accept(alice, finished.pk)


def test_a_tournament_match_has_no_offer(make_user):
    staff, player = make_user("staff", is_staff=True), make_user("player")
    tournament = one_closed_round(staff, player)
    match = Match.objects.get(seats__user=player, tournament_table__round__tournament=tournament)
    assert match.status == MatchStatus.FINISHED
    with pytest.raises(NotAllowed):
        rematches.accept(player, match.pk)
    assert rematches.offer_of(match) is None
    page = client_for(player).get(reverse("match", args=[match.pk])).text
    assert 'id="rematch-heading"' not in page


def test_accepting_is_refused_with_a_block_between_one_and_an_accepter(finished, alice, bob):
    rematches.accept(alice, finished.pk)
    people.block(alice, bob)
    with pytest.raises(NotAllowed, match="block"):
        rematches.accept(bob, finished.pk)


def test_a_block_made_after_both_accepted_gives_the_later_ones_seat_to_a_bot(
    finished, alice, bob, carol
):
    rematches.accept(alice, finished.pk)
    rematches.accept(bob, finished.pk)
    Block.objects.create(blocker=bob, blocked=alice, created_at=finished.finished_at)
    rematch = rematches.accept(carol, finished.pk)
    assert rematch is not None
    assert [user for user, _c, _l in seats_of(rematch)] == [alice.pk, None, None, carol.pk]


def test_the_page_offers_it_shows_the_answers_and_the_last_yes_goes_to_the_new_match(
    finished, alice, bob, carol
):
    page = client_for(alice).get(reverse("match", args=[finished.pk])).text
    assert 'id="rematch-heading"' in page and reverse("play_again", args=[finished.pk]) in page
    response = client_for(alice).post(reverse("play_again", args=[finished.pk]))
    assert response.status_code == 302
    page = client_for(bob).get(reverse("match", args=[finished.pk])).text
    assert "will play" in page and "awaited" in page
    client_for(bob).post(reverse("no_thanks", args=[finished.pk]))
    response = client_for(alice).post(reverse("rematch_with_bots", args=[finished.pk]))
    rematch = Match.objects.get(rematch_of=finished)
    assert response.status_code == 302 and response.url == rematch.get_absolute_url()
    page = client_for(carol).get(reverse("match", args=[finished.pk])).text
    assert rematch.get_absolute_url() in page


def test_the_views_refuse_with_the_services_status(finished, make_user):
    dave = make_user("dave")
    response = client_for(dave).post(reverse("play_again", args=[finished.pk]))
    assert response.status_code == 403
    assert client_for(dave).post(reverse("play_again", args=[99999])).status_code == 404


@pytest.mark.parametrize("name", ["play_again", "no_thanks", "rematch_with_bots"])
def test_the_answers_are_posts_for_the_signed_in(finished, alice, client, name):
    url = reverse(name, args=[finished.pk])
    assert client_for(alice).get(url).status_code == 405
    response = client.post(url)
    assert response.status_code == 302 and reverse("login") in response.url


def test_the_rematch_tells_the_others_it_started(finished, alice, bob, carol, monkeypatch):
    sent = []
    monkeypatch.setattr(
        rematches, "announce_notice_after_commit", lambda *args, **kw: sent.append(args)
    )
    rematches.accept(alice, finished.pk)
    rematches.accept(bob, finished.pk)
    rematch = rematches.accept(carol, finished.pk)
    assert sent[0][2] == "rematch_offer" and sorted(sent[0][1]) == sorted([bob.pk, carol.pk])
    assert sent[-1][:3] == (rematch.pk, [alice.pk, bob.pk], "rematch")


def test_the_rematch_is_emailed_to_those_who_want_turn_emails(
    finished, alice, bob, carol, django_capture_on_commit_callbacks
):
    opt_in(alice, turn_emails=True)
    rematches.accept(alice, finished.pk)
    rematches.accept(carol, finished.pk)
    with django_capture_on_commit_callbacks(execute=True):
        rematch = rematches.accept(bob, finished.pk)  # Bob goes there; Alice hears of it
    run_due_tasks(clock.now())
    (email,) = messages_to(alice)
    assert f"match {rematch.pk}" in email.subject
    assert rematch.get_absolute_url() in email.body and "Open the match:" in email.body
