"""Following and blocking players, and the Friends page: whom a player follows is theirs alone."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.lib import clock
from games.models import Block, Follow, Seat
from games.services import people
from tests.factories import HTMX, client_for, make_match
from tests.records_helpers import finished_match

pytestmark = pytest.mark.django_db

FRIENDS_PAGE_BOUND = 9  # whatever the number of friends, matches and results


def _post(client: Client, route: str, name: str, **extra):
    return client.post(reverse(route, args=[name]), extra.pop("data", {}), **extra)


def follows(a, b) -> bool:
    return Follow.objects.filter(follower=a, followed=b).exists()


# ----- following -----


def test_a_player_follows_and_unfollows_from_the_other_s_page(alice, bob):
    client = client_for(alice)
    response = _post(client, "follow", "Bob")
    assert response.status_code == 302 and response["Location"] == reverse("player", args=["Bob"])
    assert follows(alice, bob)
    page = client.get(reverse("player", args=["Bob"])).content.decode()
    assert "Unfollow" in page and "You follow Bob now." in page
    _post(client, "unfollow", "Bob")
    assert not follows(alice, bob)


def test_htmx_gets_the_buttons_alone(alice, bob):
    response = _post(client_for(alice), "follow", "Bob", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="relation"') and "Unfollow" in html
    assert "csrfmiddlewaretoken" not in html  # htmx sends the page's token in a header


def test_following_twice_changes_nothing(alice, bob):
    client = client_for(alice)
    _post(client, "follow", "Bob")
    assert _post(client, "follow", "Bob").status_code == 302
    assert Follow.objects.count() == 1


def test_the_buttons_are_not_on_one_s_own_page_nor_for_visitors(alice, bob):
    own = client_for(alice).get(reverse("player", args=["Alice"])).content.decode()
    assert 'id="relation"' in own and reverse("follow", args=["Alice"]) not in own
    visitor = Client().get(reverse("player", args=["Bob"])).content.decode()
    assert reverse("follow", args=["Bob"]) not in visitor
    other = client_for(alice).get(reverse("player", args=["Bob"])).content.decode()
    assert reverse("follow", args=["Bob"]) in other and reverse("block", args=["Bob"]) in other


def _main(client: Client, url: str) -> str:
    """The page's own content, after the navigation (which names the signed-in player)."""
    return client.get(url).content.decode().split("<main", 1)[1]


def test_nobody_else_learns_who_follows_whom(alice, bob, make_user):
    carol = make_user("carol")
    people.follow(alice, bob)
    # Bob, on his own page and his Friends page, sees nothing of Alice following him.
    bobs_page = _main(client_for(bob), reverse("player", args=["Bob"]))
    assert "Alice" not in bobs_page and "Unfollow" not in bobs_page
    assert "Alice" not in _main(client_for(bob), reverse("friends"))
    # Carol, on either page and her Friends page, sees nothing of it either.
    for name, other in (("Alice", "Bob"), ("Bob", "Alice")):
        page = _main(client_for(carol), reverse("player", args=[name]))
        assert "Unfollow" not in page and other not in page
        assert "follower" not in page.lower()
    friends = _main(client_for(carol), reverse("friends"))
    assert "Alice" not in friends and "Bob" not in friends
    # Alice alone sees it: on Bob's page and her Friends page.
    assert "Unfollow" in _main(client_for(alice), reverse("player", args=["Bob"]))
    assert "Bob" in _main(client_for(alice), reverse("friends"))


# ----- refusals -----


@pytest.mark.parametrize("route", ["follow", "unfollow", "block", "unblock"])
def test_following_or_blocking_oneself_is_refused_with_a_message(alice, route):
    response = _post(client_for(alice), route, "Alice")
    assert response.status_code == 400
    assert "That is you: choose another player." in response.content.decode()
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_an_unknown_or_inactive_player_is_not_found(alice, make_user):
    make_user("gone", "Gone", is_active=False)
    client = client_for(alice)
    for route in ("follow", "unfollow", "block", "unblock"):
        for name in ("Nobody", "Gone"):
            response = _post(client, route, name)
            assert response.status_code == 404, (route, name)
            assert "There is no player of that name." in response.content.decode()
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_the_services_refuse_oneself_and_inactive_players(alice, make_user):
    gone = make_user("gone", is_active=False)
    with pytest.raises(services.BadInput):
        people.follow(alice, alice)
    with pytest.raises(services.BadInput):
        people.block(alice, alice)
    with pytest.raises(services.NotFound):
        people.follow(alice, gone)


def test_the_database_refuses_a_self_follow_or_block_and_a_second_copy(alice, bob):
    now = clock.now()
    for model, fields in ((Follow, ("follower", "followed")), (Block, ("blocker", "blocked"))):
        with pytest.raises(IntegrityError), transaction.atomic():
            model.objects.create(**dict.fromkeys(fields, alice), created_at=now)
        model.objects.create(**{fields[0]: alice, fields[1]: bob}, created_at=now)
        with pytest.raises(IntegrityError), transaction.atomic():
            model.objects.create(**{fields[0]: alice, fields[1]: bob}, created_at=now)


def test_get_on_the_buttons_routes_is_not_allowed(alice, bob):
    client = client_for(alice)
    for route in ("follow", "unfollow", "block", "unblock"):
        assert client.get(reverse(route, args=["Bob"])).status_code == 405
    assert client.post(reverse("friends")).status_code == 405


def test_signed_out_visitors_are_sent_to_sign_in(bob):
    client = Client()
    for url in [reverse(r, args=["Bob"]) for r in ("follow", "block")] + [reverse("friends")]:
        method = client.get if url == reverse("friends") else client.post
        response = method(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_a_post_without_a_csrf_token_is_refused(alice, bob):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert _post(client, "follow", "Bob").status_code == 403
    assert not follows(alice, bob)


# ----- blocking -----


def test_blocking_ends_the_follows_both_ways(alice, bob):
    people.follow(alice, bob)
    people.follow(bob, alice)
    response = _post(client_for(alice), "block", "Bob")
    assert response.status_code == 302
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert not Follow.objects.exists()
    page = client_for(alice).get(reverse("player", args=["Bob"])).content.decode()
    assert "You block Bob" in page and reverse("unblock", args=["Bob"]) in page
    assert reverse("follow", args=["Bob"]) not in page


@pytest.mark.parametrize("who_blocks", ["the followed", "the follower"])
def test_no_follow_between_blocked_players(alice, bob, who_blocks):
    if who_blocks == "the followed":
        people.block(bob, alice)
    else:
        people.block(alice, bob)
    response = _post(client_for(alice), "follow", "Bob")
    assert response.status_code == 403
    assert "You cannot follow this player: one of you has blocked the other." in (
        response.content.decode()
    )
    assert not follows(alice, bob)
    htmx = _post(client_for(alice), "follow", "Bob", **HTMX)
    assert htmx.status_code == 403 and "one of you has blocked the other" in htmx.content.decode()


def test_unblocking_lifts_one_s_own_block_only(alice, bob):
    people.block(alice, bob)
    people.block(bob, alice)
    _post(client_for(alice), "unblock", "Bob", data={"back": "friends"})
    assert not Block.objects.filter(blocker=alice).exists()
    assert people.blocked_between(alice, bob)  # Bob's block is his
    people.unblock(bob, alice)
    assert not people.blocked_between(alice, bob)
    people.follow(alice, bob)


def test_unblocking_from_the_friends_page_comes_back_to_it(alice, bob):
    people.block(alice, bob)
    response = _post(client_for(alice), "unblock", "Bob", data={"back": "friends"})
    assert response.status_code == 302 and response["Location"] == reverse("friends")


@pytest.mark.parametrize("who_blocks", ["the creator", "the joiner"])
def test_a_blocked_player_cannot_join_by_the_invite_link(alice, bob, who_blocks):
    match = services.create_match(alice, services.MatchOptions(private=True))
    if who_blocks == "the creator":
        people.block(alice, bob)
    else:
        people.block(bob, alice)
    client = client_for(bob)
    invite = client.get(reverse("invite", args=[match.invite_code]))
    refusal = "You cannot join this match: there is a block between you and one of its players."
    assert invite.status_code == 403 and refusal in invite.content.decode()
    assert reverse("join_match", args=[match.pk]) not in invite.content.decode()
    joined = client.post(reverse("join_match", args=[match.pk]), {"invite_code": match.invite_code})
    assert joined.status_code == 403 and refusal in joined.content.decode()
    assert not Seat.objects.filter(match=match, user=bob).exists()


def test_a_blocked_player_cannot_join_a_public_match_either(alice, bob):
    match = services.create_match(alice, services.MatchOptions())
    people.block(alice, bob)
    with pytest.raises(services.NotAllowed):
        services.join_match(bob, match.pk)
    response = client_for(bob).post(reverse("join_match", args=[match.pk]), {})
    assert response.status_code == 403
    assert "there is a block between you" in response.content.decode()


def test_once_a_private_match_starts_its_invite_link_shows_nothing_of_it(alice, bob, make_user):
    match = services.create_match(alice, services.MatchOptions(private=True, players=3, bots=1))
    people.block(alice, bob)
    services.join_match(make_user("carol"), match.pk, match.invite_code)
    response = client_for(bob).post(
        reverse("join_match", args=[match.pk]), {"invite_code": match.invite_code}
    )
    assert response.status_code == 404 and "Carol" not in response.content.decode()


def test_without_a_block_the_invite_link_still_seats_the_player(alice, bob):
    match = services.create_match(alice, services.MatchOptions(private=True))
    response = client_for(bob).post(
        reverse("join_match", args=[match.pk]), {"invite_code": match.invite_code}
    )
    assert response.status_code == 302
    assert Seat.objects.filter(match=match, user=bob).exists()


# ----- the Friends page -----


def test_the_friends_page_says_what_to_do_when_empty(alice):
    page = client_for(alice).get(reverse("friends")).content.decode()
    assert "You follow nobody yet." in page and "You block nobody." in page


def test_the_friends_page_lists_matches_to_watch_results_and_who_waits(alice, bob, make_user):
    carol, dave = make_user("carol"), make_user("dave")
    people.follow(alice, bob)
    people.follow(alice, carol)
    people.block(alice, dave)
    public = make_match(bob, people=[carol])
    private = make_match(bob, people=[carol], private=True, seed=8)
    together = make_match(carol, people=[alice], seed=9)  # passing: everyone is to act
    finished = finished_match(bob, hands=1)
    page = client_for(alice).get(reverse("friends")).content.decode()
    assert reverse("match", args=[public.pk]) in page
    assert reverse("match", args=[private.pk]) not in page  # private to its players
    assert reverse("match", args=[finished.pk]) in page  # Bob's recent result
    waiting = page.split('id="waiting-on-you"')[1].split("</section>")[0]
    assert "Carol" in waiting and reverse("match", args=[together.pk]) in waiting
    assert "Bob" not in waiting
    blocked = page.split('id="blocked"')[1]
    assert "Dave" in blocked and reverse("unblock", args=["Dave"]) in blocked


def test_nothing_waits_on_the_viewer_once_they_have_acted(alice, bob):
    people.follow(alice, bob)
    match = make_match(bob, people=[alice])
    Seat.objects.filter(match=match, user=alice).update(to_act=False)
    page = client_for(alice).get(reverse("friends")).content.decode()
    assert 'id="waiting-on-you"' not in page
    assert reverse("match", args=[match.pk]) in page


def test_the_friends_page_costs_the_same_few_queries_for_many_friends(alice, make_user):
    client = client_for(alice)
    client.get(reverse("friends"))  # the first visit of a session also notes when it was seen

    def cost() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("friends")).status_code == 200
        return len(queries)

    first = make_user("friend0")
    people.follow(alice, first)
    make_match(first, people=[alice])
    one = cost()
    for n in range(1, 6):
        friend = make_user(f"friend{n}")
        people.follow(alice, friend)
        make_match(friend, people=[alice], seed=n)
        finished_match(friend, hands=1, seed=n)
        people.block(alice, make_user(f"foe{n}"))
    many = cost()
    assert many <= FRIENDS_PAGE_BOUND and many == one, (one, many)
