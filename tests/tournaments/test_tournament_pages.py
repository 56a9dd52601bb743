"""Tournament pages: the list, one tournament, registering and withdrawing, and no hidden card."""

import pytest
from django.urls import reverse

from games import engine
from games.models import Entry, Table
from games.services import tournaments as tours
from tests.tournament_helpers import enter, make_players, make_tournament, play_round


@pytest.fixture
def player(make_user):
    return make_user("pat", "Pat")


@pytest.fixture
def staff(make_user):
    return make_user("boss", "Boss", is_staff=True, is_superuser=True)


def test_the_list_groups_tournaments_by_status_and_hides_drafts_from_players(client, player):
    make_tournament(name="Hidden Draft", slug="hidden")
    open_one = make_tournament(name="Spring Open", slug="spring")
    tours.open_registration(open_one.pk)
    client.force_login(player)
    page = client.get(reverse("tournament_list")).text
    assert "Open for registration" in page and "Spring Open" in page
    assert "Hidden Draft" not in page
    assert client.get(reverse("tournament", args=["hidden"])).status_code == 404


def test_staff_see_drafts(client, staff):
    make_tournament(name="Hidden Draft", slug="hidden")
    client.force_login(staff)
    assert "Hidden Draft" in client.get(reverse("tournament_list")).text
    assert client.get(reverse("tournament", args=["hidden"])).status_code == 200


def test_the_navigation_links_to_the_tournaments(client, player):
    client.force_login(player)
    assert f'href="{reverse("tournament_list")}"' in client.get(reverse("lobby")).text


def test_a_player_registers_and_withdraws_with_plain_forms(client, player):
    tournament = make_tournament()
    tours.open_registration(tournament.pk)
    client.force_login(player)
    page = client.get(reverse("tournament", args=[tournament.slug])).text
    assert reverse("tournament_register", args=[tournament.slug]) in page
    response = client.post(reverse("tournament_register", args=[tournament.slug]), follow=True)
    assert response.redirect_chain[0] == (f"/tournaments/{tournament.slug}/", 302)
    assert "You are registered for Winter Cup." in response.text
    assert Entry.objects.get(user=player, tournament=tournament).withdrawn is False
    assert reverse("tournament_withdraw", args=[tournament.slug]) in response.text
    response = client.post(reverse("tournament_withdraw", args=[tournament.slug]), follow=True)
    assert "You have withdrawn from Winter Cup." in response.text
    assert Entry.objects.get(user=player).withdrawn is True


def test_registering_after_registration_closed_is_refused_with_409(client, player):
    tournament = make_tournament()
    tours.open_registration(tournament.pk)
    tours.close_registration(tournament.pk)
    client.force_login(player)
    response = client.post(reverse("tournament_register", args=[tournament.slug]))
    assert response.status_code == 409
    assert "Registration for Winter Cup is closed." in response.text
    assert not Entry.objects.exists()


def test_registering_for_a_draft_is_a_404_and_a_visitor_must_log_in(client, player):
    tournament = make_tournament()
    response = client.post(reverse("tournament_register", args=[tournament.slug]))
    assert response.status_code == 302 and "/accounts/login/" in response.url
    client.force_login(player)
    assert client.post(reverse("tournament_register", args=[tournament.slug])).status_code == 404
    assert client.get(reverse("tournament_register", args=[tournament.slug])).status_code == 405
    assert not Entry.objects.exists()


def test_the_page_shows_entrants_tables_with_match_links_and_standings(client, staff, player):
    tournament = make_tournament(hands=1)
    entries = enter(tournament, [player, *make_players(3)])
    tours.seat_next_round(tournament.pk)
    round_ = tours.start_round(tournament.pk, staff)
    match = round_.tables.get().match
    client.force_login(player)
    page = client.get(reverse("tournament", args=[tournament.slug])).text
    for entry in entries:
        assert entry.name in page
    assert f'href="/matches/{match.pk}/"' in page
    assert "In play, hand 1; to act:" in page
    assert "Placement points, higher first" in page
    play_round(tournament)
    tours.close_round(tournament.pk)
    page = client.get(reverse("tournament", args=[tournament.slug])).text
    assert "Finished, hand 1: won by" in page
    assert 'id="standings-table"' in page
    assert page.count("<tr>") == 1 + 4  # a heading row and a row per entrant


def test_your_turn_page_labels_a_tournament_match(client, staff, player):
    tournament = make_tournament()
    enter(tournament, [player, *make_players(2)])
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    client.force_login(player)
    page = client.get(reverse("home")).text
    assert "Winter Cup, round 1, table 1" in page
    assert f'href="{reverse("tournament", args=[tournament.slug])}"' in page


def test_no_tournament_page_shows_a_card_of_a_hand_in_play(client, staff, player):
    tournament = make_tournament(hands=3)
    enter(tournament, [player, *make_players(6)])
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    client.force_login(player)
    pages = [
        client.get(reverse("tournament", args=[tournament.slug])).text,
        client.get(reverse("tournament_list")).text,
        client.get(reverse("home")).text,
    ]
    for table in Table.objects.select_related("match"):
        state = engine.Match.from_snapshot(table.match.snapshot)
        for seat in range(state.n):
            for card in state.hand(seat):
                for marker in (f'data-card="{card}"', f'value="{card}"', card.words, card.symbol):
                    assert all(marker not in html for html in pages), marker


def test_a_visitor_sees_a_tournament_and_is_asked_to_log_in_to_register(client, db):
    tournament = make_tournament()
    tours.open_registration(tournament.pk)
    assert "Winter Cup" in client.get(reverse("tournament_list")).text
    page = client.get(reverse("tournament", args=[tournament.slug])).text
    assert "Log in</a> to register." in page
    assert reverse("tournament_register", args=[tournament.slug]) not in page
