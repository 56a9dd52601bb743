"""A whole two-round tournament run through the admin actions, every seat played by its bot."""

import pytest
from django.urls import reverse

from games import engine
from games.models import Hand, MatchStatus, Round, RoundStatus, Table, TableSeat, TournamentStatus
from games.services import log_matches_snapshot
from games.services import tournaments as tours
from games.tournaments.standings import placement_points
from tests.tournament_helpers import enter, make_players, make_tournament, play_round

CHANGELIST = "admin:games_tournament_changelist"


@pytest.fixture
def staff_client(client, make_user):
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    return client


def run(client, tournament, action: str) -> str:
    """Run an admin action on the tournament; return its one message, which is no error."""
    response = client.post(
        reverse(CHANGELIST), {"action": action, "_selected_action": [tournament.pk]}, follow=True
    )
    (message,) = response.context["messages"]
    assert message.level_tag == "success", message.message
    return message.message


def test_a_two_round_tournament_of_ten_runs_to_a_final_standing(staff_client, db):
    tournament = make_tournament(table_size=4, round_count=2, hands=2, duplicate_deals=True)
    entries = enter(tournament, make_players(10))
    ids = {e.pk for e in entries}

    for number in (1, 2):
        said = run(staff_client, tournament, "seat_next_round")
        assert f"Seated 10 entrants at 3 tables (4+3+3) for round {number}" in said
        said = run(staff_client, tournament, "start_round")
        assert f"started round {number} with 3 matches" in said
        play_round(tournament)
        round_ = tournament.rounds.get(number=number)
        for table in round_.tables.select_related("match"):
            assert table.match.status == MatchStatus.FINISHED
            assert Hand.objects.filter(match=table.match).count() == 2
            assert log_matches_snapshot(table.match)
        tables = {t.number: t for t in round_.tables.select_related("match")}
        first_deals = {
            n: Hand.objects.get(match=t.match, number=1).deal["hands"] for n, t in tables.items()
        }
        assert first_deals[2] == first_deals[3]  # the two tables of three share their deals
        said = run(staff_client, tournament, "close_round")
        assert f"closed round {number}, results of 3 tables recorded" in said
        assert Round.objects.get(pk=round_.pk).status == RoundStatus.CLOSED

    said = run(staff_client, tournament, "finish_tournament")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert said.startswith("Winter Cup is finished. Winner: ")

    lines = tours.standings_of(tournament)
    assert {line.entry.pk for line in lines} == ids
    assert all(line.standing.rounds == 2 for line in lines)
    # Placement points add up table by table: recompute them from the recorded totals.
    expected = dict.fromkeys(ids, 0.0)
    for table in {s.table for s in TableSeat.objects.select_related("table")}:
        seats = list(table.seats.order_by("position"))
        for seat, share in zip(seats, placement_points([s.total for s in seats]), strict=True):
            expected[seat.entry_id] += share
    for line in lines:
        assert line.standing.placement == pytest.approx(expected[line.entry.pk])
    # Each recorded total is what the engine's state says the seat ended on.
    for seat in TableSeat.objects.select_related("table__match"):
        state = engine.Match.from_snapshot(seat.table.match.snapshot)
        assert seat.total == state.totals[seat.position]
    ranks = [line.standing.rank for line in lines]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    # With duplicate deals, everyone at a table of three was compared with the other table.
    three = [
        line
        for line in lines
        if TableSeat.objects.filter(entry_id=line.entry.pk, table__round__number=1)
        .get()
        .table.seats.count()
        == 3
    ]
    assert all(line.standing.available >= 1 for line in three)

    page = staff_client.get(reverse("tournament", args=[tournament.slug])).text
    assert "Standings: final" in page
    winner = lines[0].entry.name
    assert winner in page
    assert all(f'href="/matches/{t.match_id}/"' in page for t in Table.objects.all())
