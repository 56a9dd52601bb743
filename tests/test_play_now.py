"""Play now: one click from Your turn to a match against bots, set up like the player's last."""

import pytest
from django.urls import reverse

from games import services
from games.models import Match, MatchStatus
from games.services.play_now import DEFAULT_LEVEL, options_for, play_now
from tests.factories import client_for
from tests.records_helpers import constructed_match
from tests.service_helpers import open_match

HANDS = [[(10, False, False), (6, False, False), (10, False, False)]]


def bot_levels(match: Match) -> set[str]:
    return set(match.seats.filter(user__isnull=True).values_list("bot_level", flat=True))


def test_a_new_player_gets_the_lobbys_first_choices_against_bots(alice):
    match = play_now(alice)
    assert match.status == MatchStatus.ACTIVE
    assert match.players == 4 and bot_levels(match) == {DEFAULT_LEVEL}
    assert match.seats.get(position=0).user == alice
    assert (match.rated, match.is_private) == (True, False)


def test_it_takes_the_size_of_the_last_match_the_level_of_its_bots_and_the_settings_created(
    alice, bob
):
    services.create_match(
        alice,
        services.MatchOptions(
            players=5, bots=4, bot_levels=("easy",) * 4, target=50, moon="add",
            decision_seconds=3600, rated=False,
        ),
    )  # fmt: skip
    constructed_match([bob, alice, "strong"], HANDS)  # Bob's match of three, the newest
    match = play_now(alice)
    assert match.players == 3
    assert bot_levels(match) == {"strong"}
    assert (match.target, match.moon_option, match.decision_seconds) == (50, "add", 3600)
    assert match.rated  # the lobby's first choice, not the last match's


def test_a_size_the_last_variant_does_not_seat_gives_way_to_the_variants_own(alice, bob):
    services.create_match(alice, services.MatchOptions(players=6, bots=5, variant="cancellation"))
    constructed_match([bob, alice, "easy"], HANDS)  # three: no table for two decks
    options = options_for(alice)
    assert (options.players, options.variant) == (6, "cancellation")


def test_the_button_on_your_turn_starts_it_and_goes_there(alice):
    client = client_for(alice)
    page = client.get(reverse("home")).text
    assert f'action="{reverse("play_now")}"' in page
    response = client.post(reverse("play_now"))
    match = Match.objects.get(created_by=alice)
    assert response.status_code == 302 and response.url == match.get_absolute_url()
    assert match.status == MatchStatus.ACTIVE


def test_a_player_with_every_open_match_allowed_may_still_play_now(alice, settings):
    # As the lobby's match against bots alone, it starts at once: it is never open.
    settings.MAX_OPEN_MATCHES_PER_PLAYER = 1
    open_match(alice)
    response = client_for(alice).post(reverse("play_now"))
    assert response.status_code == 302
    assert Match.objects.filter(created_by=alice, status=MatchStatus.ACTIVE).count() == 1


def test_a_refusal_comes_back_to_your_turn_with_its_reason(alice, monkeypatch):
    def refuse(options):
        raise services.TooManyOpen("You may have at most 1 open matches at once.")

    monkeypatch.setattr(
        "games.services.play_now.create_match", lambda user, options: refuse(options)
    )
    response = client_for(alice).post(reverse("play_now"), follow=True)
    assert response.status_code == 200
    assert "at most 1 open matches" in response.text


def test_it_is_a_post(alice):
    assert client_for(alice).get(reverse("play_now")).status_code == 405


def test_signed_out_it_asks_to_sign_in(client, db):
    response = client.post(reverse("play_now"))
    assert response.status_code == 302 and reverse("login") in response.url
    assert not Match.objects.exists()


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_the_level_follows_the_last_bots(alice, level):
    services.create_match(alice, services.MatchOptions(players=4, bots=3, bot_levels=(level,) * 3))
    assert bot_levels(play_now(alice)) == {level}
