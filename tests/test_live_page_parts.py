"""What pages give the live script: the turn count in the navigation, the match and its version."""

import pytest
from django.test import Client

from games.context_processors import YourTurn
from games.models import Match, MatchStatus, Seat
from tests.factories import HTMX, make_match


@pytest.fixture
def alice_client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def test_the_navigation_counts_the_matches_waiting_for_the_player(alice_client, alice):
    first, second, _ = make_match(alice, seed=1), make_match(alice, seed=2), make_match(alice)
    Seat.objects.filter(match__in=[first, second], user=alice).update(to_act=True)
    Seat.objects.exclude(match__in=[first, second]).update(to_act=False)
    html = alice_client.get("/lobby/").text
    assert "<title>(2) Lobby · Hearts</title>" in html
    assert f'data-matches="{first.pk} {second.pk}"' in html
    assert "<span data-turn-number>2</span>" in html


def test_no_count_shows_when_nothing_waits(alice_client, alice):
    html = alice_client.get("/lobby/").text
    assert "<title>Lobby · Hearts</title>" in html
    assert 'data-matches="" hidden' in html


def test_the_count_is_one_query_and_only_when_a_page_shows_it(alice, django_assert_num_queries):
    make_match(alice)
    with django_assert_num_queries(0):
        your_turn = YourTurn(alice)
    with django_assert_num_queries(1):
        assert (your_turn.count, your_turn.ids_text) == (1, str(your_turn.match_ids[0]))


def test_a_resigned_seat_or_a_finished_match_is_not_counted(alice):
    resigned, finished = make_match(alice, seed=1), make_match(alice, seed=2)
    Seat.objects.filter(match=resigned, user=alice).update(resigned=True)
    Match.objects.filter(pk=finished.pk).update(status=MatchStatus.FINISHED)
    assert YourTurn(alice).count == 0


def test_the_match_page_names_its_match_and_version_for_the_live_script(alice_client, alice):
    match = make_match(alice)
    response = alice_client.get(match.get_absolute_url())
    main = (
        f'<main id="main" class="page page-match" data-match="{match.pk}" '
        f'data-version="{match.version}"'
    )
    assert main in response.text and 'data-status="active"' in response.text
    assert response["X-Match-Version"] == str(match.version)
    assert '<script src="/static/games/live.js" defer></script>' in response.text


@pytest.mark.parametrize("since", ["", "?since=current"])
def test_htmx_answers_name_the_version_their_regions_show(alice_client, alice, since):
    match = make_match(alice)
    url = match.get_absolute_url() + since.replace("current", str(match.version))
    response = alice_client.get(url, **HTMX)
    assert response.status_code == (204 if since else 200)
    assert response["X-Match-Version"] == str(match.version)


def test_visitors_get_no_live_script(client):
    html = client.get("/").text
    assert "live.js" not in html and "data-live" not in html
