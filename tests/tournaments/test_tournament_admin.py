"""The tournament admin: staff create and run tournaments; everyone else is refused."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games.models import Entry, Round, Seat, Table, Tournament, TournamentStatus
from tests.tournament_helpers import enter, make_players, make_tournament

CHANGELIST = "admin:games_tournament_changelist"


@pytest.fixture
def staff_client(client, make_user):
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    return client


def post_action(client, tournament, action: str):
    """Post an admin action for one tournament to the change list, as the admin's form does."""
    return client.post(
        reverse(CHANGELIST),
        {"action": action, "_selected_action": [tournament.pk]},
        follow=True,
    )


def messages_of(response) -> list[tuple[str, str]]:
    return [(m.level_tag, m.message) for m in response.context["messages"]]


def counts() -> tuple[int, int, int]:
    return Round.objects.count(), Table.objects.count(), Seat.objects.count()


def test_staff_create_a_tournament_with_entrants_in_the_admin(staff_client, db):
    ann, bob = make_players(2)
    data = {
        "name": "Spring Open",
        "slug": "spring-open",
        "description": "",
        "variant": "standard",
        "bonus_card": "JD",
        "table_size": 4,
        "round_count": 3,
        "target": 100,
        "hands": 2,
        "moon": "ask",
        "duplicate_deals": "on",
        "timeouts_to_leave": 2,
        **rounds_form(None),
        "entries-TOTAL_FORMS": 2,
        "entries-INITIAL_FORMS": 0,
        "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000,
        "entries-0-user": ann.pk,
        "entries-1-user": bob.pk,
    }
    response = staff_client.post(reverse("admin:games_tournament_add"), data)
    assert response.status_code == 302, response.content[:2000]
    tournament = Tournament.objects.get(slug="spring-open")
    assert tournament.status == TournamentStatus.DRAFT and tournament.hands == 2
    assert set(tournament.entries.values_list("user_id", flat=True)) == {ann.pk, bob.pk}


def test_the_admin_refuses_a_match_length_out_of_range(staff_client, db):
    data = {
        "name": "Long",
        "slug": "long",
        "variant": "standard",
        "bonus_card": "JD",
        "table_size": 4,
        "round_count": 1,
        "target": 100,
        "hands": 51,
        "moon": "ask",
        "timeouts_to_leave": 2,
        **rounds_form(None),
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000,
    }
    response = staff_client.post(reverse("admin:games_tournament_add"), data)
    assert response.status_code == 200
    assert "Ensure this value is less than or equal to 50." in response.text
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"table_size": 8}, "table_size", "Hearts is for 3 to 7 players, not 8"),
        (
            {"variant": "omnibus", "table_size": 8},
            "table_size",
            "Omnibus Hearts is for 3 to 7 players, not 8",
        ),
        (
            {"variant": "cancellation", "table_size": 4},
            "table_size",
            "Cancellation Hearts is for 5 to 10 players, not 4",
        ),
        ({"bonus_card": "TD"}, "bonus_card", "Only Omnibus Hearts has a bonus card to choose"),
    ],
)
def test_R5_the_admin_refuses_a_table_size_or_bonus_card_the_game_does_not_allow(
    staff_client, db, fields, field, message
):
    data = {
        "name": "Odd",
        "slug": "odd",
        "variant": "standard",
        "bonus_card": "JD",
        "table_size": 4,
        "round_count": 1,
        "target": 100,
        "hands": 0,
        "moon": "ask",
        "timeouts_to_leave": 2,
        **rounds_form(None),
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000,
        **fields,
    }
    response = staff_client.post(reverse("admin:games_tournament_add"), data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors[field] == [message]
    assert message in response.text
    assert not Tournament.objects.exists()


def test_seating_reports_the_tables_and_repeat_meetings(staff_client, db):
    tournament = make_tournament()
    enter(tournament, make_players(10))
    response = post_action(staff_client, tournament, "seat_next_round")
    assert messages_of(response) == [
        (
            "success",
            "Winter Cup: Seated 10 entrants at 3 tables (4+3+3) for round 1; 0 repeat meetings.",
        )
    ]


def test_it_refuses_seating_fewer_than_three_with_an_error_message(staff_client, db):
    tournament = make_tournament()
    enter(tournament, make_players(2))
    response = post_action(staff_client, tournament, "seat_next_round")
    assert messages_of(response) == [
        (
            "error",
            "Seat next round refused: A round needs at least 3 active entrants; there are 2.",
        )
    ]
    assert counts() == (0, 0, 0)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.DRAFT


def test_it_refuses_seating_twice_with_an_error_message(staff_client, db):
    tournament = make_tournament()
    enter(tournament, make_players(4))
    post_action(staff_client, tournament, "seat_next_round")
    before = counts()
    response = post_action(staff_client, tournament, "seat_next_round")
    level, text = messages_of(response)[0]
    assert level == "error" and "Round 1 is already seated" in text
    assert counts() == before


def test_it_refuses_closing_an_unfinished_round_with_an_error_message(staff_client, db):
    tournament = make_tournament()
    enter(tournament, make_players(4))
    post_action(staff_client, tournament, "seat_next_round")
    response = post_action(staff_client, tournament, "start_round")
    assert messages_of(response)[0][0] == "success"
    response = post_action(staff_client, tournament, "close_round")
    level, text = messages_of(response)[0]
    assert level == "error" and "cannot close yet: still being played at table 1" in text
    assert Round.objects.get().status == "running"


def test_the_buttons_on_a_tournament_page_run_the_same_actions(staff_client, db):
    tournament = make_tournament()
    enter(tournament, make_players(3))
    page = staff_client.get(reverse("admin:games_tournament_change", args=[tournament.pk]))
    run_url = reverse("admin:games_tournament_run", args=[tournament.pk, "seat_next_round"])
    assert run_url in page.text
    response = staff_client.post(run_url, follow=True)
    assert response.redirect_chain[-1][0].endswith(
        f"/admin/games/tournament/{tournament.pk}/change/"
    )
    assert "Seated 3 entrants at 1 table (3) for round 1" in response.text
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert (
        staff_client.post(
            reverse("admin:games_tournament_run", args=[tournament.pk, "nope"])
        ).status_code
        == 403
    )
    assert staff_client.get(run_url).status_code == 405


def test_the_change_page_shows_tables_with_match_links_and_the_standings(staff_client, db):
    tournament = make_tournament()
    entries = enter(tournament, make_players(4))
    post_action(staff_client, tournament, "seat_next_round")
    post_action(staff_client, tournament, "start_round")
    match = Table.objects.get().match
    page = staff_client.get(reverse("admin:games_tournament_change", args=[tournament.pk])).text
    assert f'href="/matches/{match.pk}/"' in page
    assert "In play, hand 1; to act:" in page
    assert 'id="standings-table"' in page
    assert "Placement points, higher first" in page
    for entry in entries:
        assert entry.name in page


def test_withdrawing_an_entrant_in_the_admin_hands_their_seat_to_a_bot(staff_client, db):
    tournament = make_tournament()
    entries = enter(tournament, make_players(4))
    post_action(staff_client, tournament, "seat_next_round")
    post_action(staff_client, tournament, "start_round")
    data = entries_form(tournament, entries, **{"entries-0-withdrawn": "on"})
    url = reverse("admin:games_tournament_change", args=[tournament.pk])
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.content[:3000]
    assert Entry.objects.get(pk=entries[0].pk).withdrawn
    seat = Seat.objects.get(user=entries[0].user)
    assert seat.resigned and not seat.to_act


# ----- who may reach the admin -----


def test_a_player_reaching_an_admin_action_is_sent_to_log_in_and_nothing_changes(client, db):
    tournament = make_tournament()
    enter(tournament, make_players(4))
    (player,) = make_players(1, prefix="visitor")
    client.force_login(player)
    response = client.post(
        reverse(CHANGELIST), {"action": "seat_next_round", "_selected_action": [tournament.pk]}
    )
    assert response.status_code == 302 and "/admin/login/" in response.url
    run_url = reverse("admin:games_tournament_run", args=[tournament.pk, "seat_next_round"])
    response = client.post(run_url)
    assert response.status_code == 302 and "/admin/login/" in response.url
    assert counts() == (0, 0, 0)


def test_staff_without_the_change_permission_are_refused(client, make_user, db):
    tournament = make_tournament()
    enter(tournament, make_players(4))
    clerk = make_user("clerk", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_tournament"))
    client.force_login(clerk)
    response = client.post(
        reverse(CHANGELIST),
        {"action": "seat_next_round", "_selected_action": [tournament.pk]},
        follow=True,
    )
    # Only the download of the results is offered to them: the post runs nothing.
    assert response.status_code == 200
    assert 'value="seat_next_round"' not in response.text
    assert 'value="download_results"' in response.text
    assert [m.message for m in response.context["messages"]] == ["No action selected."]
    run_url = reverse("admin:games_tournament_run", args=[tournament.pk, "seat_next_round"])
    assert client.post(run_url).status_code == 403
    assert counts() == (0, 0, 0)
    assert client.get(reverse("admin:games_tournament_add")).status_code == 403


def rounds_form(tournament) -> dict:
    """Return the change form's data for the tournament's rounds (their deadlines), unchanged."""
    rounds = list(tournament.rounds.order_by("number")) if tournament is not None else []
    data = {
        "rounds-TOTAL_FORMS": len(rounds),
        "rounds-INITIAL_FORMS": len(rounds),
        "rounds-MIN_NUM_FORMS": 0,
        "rounds-MAX_NUM_FORMS": 1000,
    }
    for index, round_ in enumerate(rounds):
        data[f"rounds-{index}-id"] = round_.pk
        data[f"rounds-{index}-tournament"] = tournament.pk
    return data


def entries_form(tournament, entries, **changes) -> dict:
    """Return the change form's data for the tournament, with changes to the entry rows."""
    data = {
        "name": tournament.name,
        "slug": tournament.slug,
        "round_count": tournament.round_count,
        "timeouts_to_leave": tournament.timeouts_to_leave,
        **rounds_form(tournament),
        "entries-TOTAL_FORMS": len(entries),
        "entries-INITIAL_FORMS": len(entries),
        "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000,
    }
    for index, entry in enumerate(entries):
        data[f"entries-{index}-id"] = entry.pk
        data[f"entries-{index}-tournament"] = tournament.pk
        data[f"entries-{index}-user"] = entry.user_id
    data.update(changes)
    return data


def test_a_seated_entrant_can_be_neither_removed_nor_given_to_another_player(staff_client, db):
    tournament = make_tournament()
    entries = enter(tournament, make_players(3))
    (stranger,) = make_players(1, prefix="stranger")
    post_action(staff_client, tournament, "seat_next_round")
    url = reverse("admin:games_tournament_change", args=[tournament.pk])
    response = staff_client.post(
        url, entries_form(tournament, entries, **{"entries-0-DELETE": "on"})
    )
    assert response.status_code == 200
    assert "would require deleting the following protected related objects" in response.text
    swapped = entries_form(tournament, entries, **{"entries-0-user": stranger.pk})
    response = staff_client.post(url, swapped)
    assert response.status_code == 200
    assert "This entrant has been seated" in response.text
    assert list(Entry.objects.order_by("pk").values_list("user_id", flat=True)) == [
        e.user_id for e in entries
    ]
