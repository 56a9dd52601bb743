"""Player pages, bot-level pages and the leaderboard: what they show, to whom, and how cheaply."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Competitor, Seat
from tests.factories import client_for
from tests.records_helpers import constructed_match, finished_match

pytestmark = pytest.mark.django_db

HAND = [[(3, False, False), (13, False, True), (4, False, False), (6, False, False)]]


def page(client: Client, url: str):
    response = client.get(url)
    return response.status_code, response.content.decode()


def test_a_player_page_shows_the_figures_kept(alice, bob):
    constructed_match([alice, bob, "easy", "normal"], HAND)
    constructed_match([alice, bob, "easy", "normal"], HAND, rated=False)
    status, html = page(client_for(bob), "/players/Alice/")
    assert status == 200
    assert "<dt>Matches played</dt><dd>2</dd>" in html
    assert "<dt>Matches won</dt><dd>2 " in html
    assert "1st: 2 · 2nd: 0 · 3rd: 0 · 4th: 0" in html
    assert "after 1 rated match." in html
    assert "<dt>Q♠ taken</dt><dd>0</dd>" in html


def test_the_rating_chart_is_drawn_with_a_text_alternative(alice, bob):
    for _ in range(3):
        constructed_match([alice, bob, "easy", "normal"], HAND)
    status, html = page(client_for(bob), "/players/Alice/")
    assert status == 200
    assert '<svg class="chart-svg"' in html and "<polyline points=" in html
    assert "Rating after each of 3 rated matches: from 1000 at the start" in html
    assert "<script" not in html.split('<main id="main"')[1].split("</main>")[0]


def test_an_unknown_player_or_bot_level_is_not_found(alice):
    client = client_for(alice)
    assert client.get("/players/Nobody/").status_code == 404
    assert client.get("/bots/grandmaster/").status_code == 404


def test_a_player_with_no_finished_match_has_a_page_saying_so(alice, bob):
    status, html = page(client_for(bob), "/players/Alice/")
    assert status == 200
    assert "No finished match yet." in html


def test_a_bot_level_has_a_page_of_its_own(alice, bob):
    constructed_match([alice, bob, "easy", "strong"], HAND)
    status, html = page(client_for(alice), "/bots/strong/")
    assert status == 200
    assert "Strong bots" in html
    assert "<dt>Matches played</dt><dd>1</dd>" in html


def test_a_private_match_is_listed_only_to_its_players_and_staff(alice, bob, make_user):
    public = constructed_match([alice, "easy", "easy", "easy"], HAND)
    private = constructed_match([alice, bob, "easy", "easy"], HAND, private=True)
    stranger = make_user("carol", "Carol")
    staff = make_user("dave", "Dave", is_staff=True)
    link = 'href="/matches/{}/"'

    _, html = page(client_for(stranger), "/players/Alice/")
    assert link.format(public.pk) in html
    assert link.format(private.pk) not in html
    for viewer in (bob, alice, staff):
        _, html = page(client_for(viewer), "/players/Alice/")
        assert link.format(private.pk) in html, viewer
    # The private match shows nowhere on the bots' page to a stranger either.
    _, html = page(client_for(stranger), "/bots/easy/")
    assert link.format(private.pk) not in html and link.format(public.pk) in html


def test_a_visitor_not_signed_in_sees_the_figures_but_no_match(alice):
    match = constructed_match([alice, "easy", "easy", "easy"], HAND)
    status, html = page(Client(), "/players/Alice/")
    assert status == 200
    assert f'href="/matches/{match.pk}/"' not in html
    assert "to see recent matches" in html


def queries_for(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries.captured_queries)


def test_a_player_page_makes_as_many_queries_for_many_matches_as_for_few(alice, bob):
    client = client_for(bob)
    client.get("/")  # the once-a-minute "last seen" write, out of the way
    for _ in range(2):
        constructed_match([alice, bob, "easy", "normal"], HAND)
    few = queries_for(client, "/players/Alice/"), queries_for(client, "/bots/easy/")
    for index in range(13):
        constructed_match([alice, bob, "easy", "normal"], HAND, private=index % 3 == 0)
    many = queries_for(client, "/players/Alice/"), queries_for(client, "/bots/easy/")
    assert few == many
    assert many[0] <= 12


def test_the_leaderboard_lists_players_with_enough_rated_matches(alice, bob, settings):
    settings.LEADERBOARD_MIN_RATED_MATCHES = 2
    constructed_match([alice, bob, "easy", "normal"], HAND)
    client = client_for(bob)
    status, html = page(client, "/leaderboard/")
    assert status == 200 and 'href="/players/Alice/"' not in html
    constructed_match([alice, bob, "easy", "normal"], HAND)
    _, html = page(client, "/leaderboard/")
    # Alice won both: first. The bots' levels beside them, each with its page.
    assert html.index('href="/players/Alice/"') < html.index('href="/players/Bob/"')
    assert 'href="/bots/easy/"' in html and 'href="/bots/strong/"' in html


def test_the_leaderboard_filters_by_table_size(alice, bob, settings):
    settings.LEADERBOARD_MIN_RATED_MATCHES = 1
    constructed_match([alice, "easy", "easy", "easy"], HAND)
    constructed_match([bob, "easy", "easy"], [row[:3] for row in HAND])
    client = client_for(alice)
    _, html = page(client, "/leaderboard/?players=3")
    assert 'href="/players/Bob/"' in html and 'href="/players/Alice/"' not in html
    _, html = page(client, "/leaderboard/?players=4")
    assert 'href="/players/Alice/"' in html and 'href="/players/Bob/"' not in html


@pytest.mark.parametrize("junk", ["11", "2", "abc", "²", "4x", " 4", "-3", "4" * 40])
def test_a_bad_table_size_is_refused_with_the_reason(alice, junk):
    response = client_for(alice).get("/leaderboard/", {"players": junk})
    assert response.status_code == 400
    assert "Choose a table size from 3 to 10 players" in response.content.decode()


@pytest.mark.parametrize("number", ["0", "-1", "999", "abc", "1e9", "9" * 40])
def test_any_page_number_shows_a_page(alice, number):
    assert client_for(alice).get("/leaderboard/", {"page": number}).status_code == 200


def test_the_navigation_leads_to_the_leaderboard(alice):
    assert 'href="/leaderboard/"' in client_for(alice).get("/lobby/").content.decode()
    assert 'href="/leaderboard/"' in Client().get("/").content.decode()


def test_names_lead_to_their_pages_at_the_table_and_on_the_score_sheet(alice, bob):
    match = finished_match(alice, hands=1)
    for url in (reverse("match", args=[match.pk]), reverse("scores", args=[match.pk])):
        html = client_for(bob).get(url).content.decode()
        assert '<a class="player-link" href="/players/Alice/">Alice</a>' in html, url
        assert 'href="/bots/easy/"' in html, url


def test_names_lead_to_their_pages_on_your_turn_and_in_the_lobby(alice, bob):
    from tests.service_helpers import open_match

    finished_match(alice, hands=1)
    open_match(bob)
    html = client_for(alice).get("/").content.decode()
    assert '<a class="player-link" href="/players/Alice/">Alice</a>' in html
    html = client_for(alice).get("/lobby/").content.decode()
    assert '<a class="player-link" href="/players/Bob/">Bob</a>' in html


def test_a_name_with_a_slash_and_markup_still_leads_to_its_page(alice, make_user):
    odd = make_user("odd", "<b>A/B</b> & co")
    finished_match(odd, hands=1)
    seat = Seat.objects.get(user=odd)
    html = client_for(alice).get(reverse("match", args=[seat.match_id])).content.decode()
    url = reverse("player", args=["<b>A/B</b> & co"])
    assert f'href="{url.replace("&", "&amp;")}"' in html
    assert "<b>A/B</b>" not in html
    assert client_for(alice).get(url).status_code == 200


def test_the_lobby_form_can_make_a_casual_match_unrated(alice):
    from games.models import Match

    client = client_for(alice)
    form = {"players": 4, "target": 100, "moon": "ask", "bots": 3, "bank": 1}
    client.post("/matches/new/", form)
    client.post("/matches/new/", {**form, "rated": "on"})
    assert list(Match.objects.order_by("pk").values_list("rated", flat=True)) == [False, True]
    assert 'name="rated"' in client.get("/lobby/").content.decode()


def test_tournament_standings_link_names_and_its_matches_are_rated(alice, make_user):
    from games.services import tournaments as tours
    from tests.tournament_helpers import enter, make_players, make_tournament, play_round

    staff = make_user("boss", "Boss", is_staff=True)
    tournament = make_tournament(hands=1)
    enter(tournament, [alice, *make_players(3)])
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    play_round(tournament)
    tours.close_round(tournament.pk)
    html = client_for(alice).get(reverse("tournament", args=[tournament.slug])).content.decode()
    standings = html.split('id="standings-table"')[1].split("</table>")[0]
    assert '<a class="player-link" href="/players/Alice/">Alice</a>' in standings
    assert '<a class="player-link" href="/players/Player%201/">Player 1</a>' in standings
    assert Competitor.objects.get(user=alice).rated_matches == 1


@pytest.mark.parametrize(
    "path", ["/players/a%00b/", "/players/a%0Ab/", "/players/" + "x" * 151 + "/"]
)
def test_a_name_no_player_can_have_is_not_found(alice, path):
    assert client_for(alice).get(path).status_code == 404


@pytest.mark.parametrize("size", ["8", "10"])
def test_the_leaderboard_offers_the_table_sizes_of_two_decks(alice, size):
    response = client_for(alice).get("/leaderboard/", {"players": size})
    assert response.status_code == 200
    assert f'href="/leaderboard/?players={size}"' in response.content.decode()
