"""Tournament services: registration, seating, starting and closing rounds, and every refusal."""

import pytest

from games import engine
from games.models import (
    Entry,
    Hand,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
    Seat,
    Table,
    TableSeat,
    TournamentStatus,
)
from games.services import Conflict, NotFound
from games.services import tournaments as tours
from games.services.events import tournament_seated
from tests.tournament_helpers import enter, make_players, make_tournament, play_round


@pytest.fixture
def staff(make_user):
    return make_user("boss", is_staff=True, is_superuser=True)


def everything(tournament) -> tuple:
    """Return what a refused service must leave exactly as it was."""
    tournament.refresh_from_db()
    return (
        tournament.status,
        tournament.registration_open,
        tournament.started_at,
        tournament.finished_at,
        list(Entry.objects.filter(tournament=tournament).values_list("pk", "withdrawn")),
        list(Round.objects.filter(tournament=tournament).values_list("pk", "status")),
        Table.objects.count(),
        list(TableSeat.objects.values_list("pk", "total")),
        Match.objects.count(),
    )


def refused(call, tournament, error=Conflict, match: str | None = None) -> None:
    """Assert the call is refused with the error and words given, changing nothing."""
    before = everything(tournament)
    with pytest.raises(error, match=match):
        call()
    assert everything(tournament) == before


# ----- registration -----


def test_players_register_and_withdraw_while_registration_is_open(db):
    tournament = make_tournament()
    (ann,) = make_players(1)
    tours.open_registration(tournament.pk)
    entry = tours.register(ann, tournament.pk)
    assert not entry.withdrawn
    assert tours.withdraw(ann, tournament.pk).withdrawn
    assert not tours.register(ann, tournament.pk).withdrawn  # back in, same entry
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_it_refuses_registering_after_registration_closed(db):
    tournament = make_tournament()
    (ann,) = make_players(1)
    tours.open_registration(tournament.pk)
    tours.close_registration(tournament.pk)
    refused(lambda: tours.register(ann, tournament.pk), tournament, match="closed")
    assert not Entry.objects.exists()


def test_it_refuses_registering_for_a_draft_as_if_it_did_not_exist(db):
    tournament = make_tournament()
    (ann,) = make_players(1)
    refused(lambda: tours.register(ann, tournament.pk), tournament, NotFound)


def test_it_refuses_registering_twice_and_withdrawing_without_an_entry(db):
    tournament = make_tournament()
    ann, bob = make_players(2)
    tours.open_registration(tournament.pk)
    tours.register(ann, tournament.pk)
    refused(lambda: tours.register(ann, tournament.pk), tournament, match="already registered")
    refused(lambda: tours.withdraw(bob, tournament.pk), tournament, match="not registered")


def test_it_refuses_opening_registration_twice_or_once_running(db, staff):
    tournament = make_tournament()
    enter(tournament, make_players(3))
    tours.open_registration(tournament.pk)
    refused(lambda: tours.open_registration(tournament.pk), tournament, match="already open")
    tours.seat_next_round(tournament.pk)
    refused(lambda: tours.open_registration(tournament.pk), tournament, match="running")
    refused(lambda: tours.close_registration(tournament.pk), tournament, match="not open")


def test_it_refuses_registering_and_withdrawing_once_running(db):
    tournament = make_tournament()
    players = make_players(4)
    tours.open_registration(tournament.pk)
    for user in players[:3]:
        tours.register(user, tournament.pk)
    tours.seat_next_round(tournament.pk)
    refused(lambda: tours.register(players[3], tournament.pk), tournament, match="closed")
    refused(lambda: tours.withdraw(players[0], tournament.pk), tournament, match="closed")


# ----- seating -----


def test_it_seats_ten_entrants_at_tables_of_four_three_and_three(db):
    tournament = make_tournament()
    entries = enter(tournament, make_players(10))
    seating = tours.seat_next_round(tournament.pk)
    assert seating.sizes == (4, 3, 3)
    assert seating.message.startswith("Seated 10 entrants at 3 tables (4+3+3) for round 1")
    seated = TableSeat.objects.filter(table__round=seating.round)
    assert sorted(seated.values_list("entry_id", flat=True)) == sorted(e.pk for e in entries)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING and tournament.started_at
    assert seating.round.status == RoundStatus.SEATED


def test_it_refuses_seating_fewer_than_three_active_entrants(db):
    tournament = make_tournament()
    entries = enter(tournament, make_players(3))
    Entry.objects.filter(pk=entries[0].pk).update(withdrawn=True)
    refused(
        lambda: tours.seat_next_round(tournament.pk),
        tournament,
        match="at least 3 active entrants; there are 2",
    )


def test_it_refuses_seating_twice(db):
    tournament = make_tournament()
    enter(tournament, make_players(5))
    tours.seat_next_round(tournament.pk)
    refused(lambda: tours.seat_next_round(tournament.pk), tournament, match="already seated")


def test_it_refuses_seating_while_a_round_is_running(db, staff):
    tournament = make_tournament()
    enter(tournament, make_players(4))
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    refused(lambda: tours.seat_next_round(tournament.pk), tournament, match="close it first")


def test_it_refuses_seating_past_the_last_round(db, staff):
    tournament = make_tournament(round_count=1, hands=1)
    enter(tournament, make_players(3))
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    play_round(tournament)
    tours.close_round(tournament.pk)
    refused(lambda: tours.seat_next_round(tournament.pk), tournament, match="All 1 rounds")


def test_round_two_avoids_repeat_meetings_where_it_can(db, staff):
    tournament = make_tournament(hands=1)
    enter(tournament, make_players(8))
    first = tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    play_round(tournament)
    tours.close_round(tournament.pk)
    second = tours.seat_next_round(tournament.pk)
    # 8 at two tables of 4, twice: two from each first-round table can always be split up,
    # but each table of round two must hold two who met: 2 tables x 2 pairs.
    assert second.sizes == (4, 4)
    assert second.repeats == 4 == first.repeats + 4


# ----- starting rounds and duplicate deals -----


def deals_by_table(round_) -> dict[int, list]:
    """Return each table's dealt hands, in hand order."""
    return {
        table.number: [
            hand.deal["hands"] for hand in Hand.objects.filter(match=table.match).order_by("number")
        ]
        for table in round_.tables.select_related("match")
    }


def test_start_round_gives_every_table_of_a_size_the_same_deals(db, staff):
    tournament = make_tournament(duplicate_deals=True)
    enter(tournament, make_players(10))
    tours.seat_next_round(tournament.pk)
    round_ = tours.start_round(tournament.pk, staff)
    assert round_.status == RoundStatus.RUNNING
    play_round(tournament)
    deals = deals_by_table(round_)
    assert len(deals[1]) == len(deals[2]) == 2  # two hands each
    assert deals[2] == deals[3]  # the two tables of three: the same cards, seat for seat
    assert len(deals[1][0]) == 4 and len(deals[2][0]) == 3
    tables = list(round_.tables.order_by("number"))
    assert tables[1].deal_group == tables[2].deal_group == "1:3"
    assert tables[0].deal_group == "1:4"


def test_without_duplicate_deals_tables_of_a_size_get_different_deals(db, staff):
    tournament = make_tournament(duplicate_deals=False)
    enter(tournament, make_players(10))
    tours.seat_next_round(tournament.pk)
    round_ = tours.start_round(tournament.pk, staff)
    deals = deals_by_table(round_)
    assert deals[2][0] != deals[3][0]
    assert {t.deal_group for t in round_.tables.all()} == {""}


def test_start_round_seats_the_entrants_in_their_matches_with_the_tournament_length(db, staff):
    tournament = make_tournament(hands=3, moon="add")
    entries = enter(tournament, make_players(4))
    tours.seat_next_round(tournament.pk)
    round_ = tours.start_round(tournament.pk, staff)
    (table,) = round_.tables.all()
    match = table.match
    assert match.status == MatchStatus.ACTIVE
    assert match.rules == {"players": 4, "target": 100, "moon": "add", "hands": 3}
    by_position = {s.position: s.entry.user_id for s in table.seats.select_related("entry")}
    assert {s.position: s.user_id for s in match.seats.all()} == by_position
    assert set(by_position.values()) == {e.user_id for e in entries}
    assert all(not s.is_bot for s in match.seats.all())


def test_it_refuses_starting_a_round_twice_or_before_seating(db, staff):
    tournament = make_tournament()
    enter(tournament, make_players(3))
    refused(lambda: tours.start_round(tournament.pk, staff), tournament, match="seat the next")
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    refused(lambda: tours.start_round(tournament.pk, staff), tournament, match="already started")


def test_seated_players_are_told_where_to_go_once_committed(
    db, staff, django_capture_on_commit_callbacks
):
    tournament = make_tournament()
    entries = enter(tournament, make_players(3))
    heard = []

    def listen(sender, **notice):
        heard.append(notice)

    tournament_seated.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            tours.seat_next_round(tournament.pk)
        assert sorted(n["user_id"] for n in heard) == sorted(e.user_id for e in entries)
        assert {n["url"] for n in heard} == {"/tournaments/winter-cup/"}
        heard.clear()
        with django_capture_on_commit_callbacks(execute=True):
            round_ = tours.start_round(tournament.pk, staff)
        match_id = round_.tables.get().match_id
        assert {n["url"] for n in heard} == {f"/matches/{match_id}/"}
        assert {(n["round"], n["table"], n["tournament"]) for n in heard} == {(1, 1, "Winter Cup")}
    finally:
        tournament_seated.disconnect(listen)


# ----- closing rounds, withdrawing, finishing -----


def test_it_refuses_closing_an_unfinished_round(db, staff):
    tournament = make_tournament()
    enter(tournament, make_players(4))
    tours.seat_next_round(tournament.pk)
    round_ = tours.start_round(tournament.pk, staff)
    match_id = round_.tables.get().match_id
    refused(
        lambda: tours.close_round(tournament.pk),
        tournament,
        match=f"still being played at table 1 \\(match {match_id}\\)",
    )


def test_closing_a_round_records_every_final_total(db, staff):
    tournament = make_tournament()
    enter(tournament, make_players(7))
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    play_round(tournament)
    round_ = tours.close_round(tournament.pk)
    assert round_.status == RoundStatus.CLOSED
    for seat in TableSeat.objects.filter(table__round=round_).select_related("table__match"):
        state = engine.Match.from_snapshot(seat.table.match.snapshot)
        assert seat.total == state.totals[seat.position]
    lines = tours.standings_of(tournament)
    assert len(lines) == 7 and lines[0].standing.rank == 1
    assert all(line.standing.rounds == 1 for line in lines)


def test_a_withdrawn_player_in_play_is_replaced_by_a_bot_and_the_match_goes_on(
    db, staff, django_capture_on_commit_callbacks
):
    tournament = make_tournament()
    entries = enter(tournament, make_players(3))
    tours.seat_next_round(tournament.pk)
    round_ = tours.start_round(tournament.pk, staff)
    match = round_.tables.get().match
    # The leavers' seats are played by searching bots, once each withdrawal commits.
    with django_capture_on_commit_callbacks(execute=True):
        for entry in entries:
            tours.set_withdrawn(entry.pk, True)
    match.refresh_from_db()
    # With every person gone the bots play it out: a tournament table is never abandoned.
    assert match.status == MatchStatus.FINISHED
    assert Seat.objects.filter(match=match, resigned=True).count() == 3
    assert tours.close_round(tournament.pk).status == RoundStatus.CLOSED


def test_a_player_withdrawn_before_the_start_is_seated_but_played_by_a_bot(db, staff):
    tournament = make_tournament()
    entries = enter(tournament, make_players(4))
    tours.seat_next_round(tournament.pk)
    tours.set_withdrawn(entries[0].pk, True)
    round_ = tours.start_round(tournament.pk, staff)
    seat = Seat.objects.get(match=round_.tables.get().match, user=entries[0].user)
    assert seat.resigned and not seat.to_act


def test_it_refuses_finishing_before_the_last_round_is_closed(db, staff):
    tournament = make_tournament(round_count=2, hands=1)
    enter(tournament, make_players(3))
    refused(lambda: tours.finish_tournament(tournament.pk), tournament, match="0 of 2 rounds")
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    play_round(tournament)
    tours.close_round(tournament.pk)
    refused(lambda: tours.finish_tournament(tournament.pk), tournament, match="1 of 2 rounds")
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    play_round(tournament)
    tours.close_round(tournament.pk)
    assert tours.finish_tournament(tournament.pk).status == TournamentStatus.FINISHED
    refused(lambda: tours.finish_tournament(tournament.pk), tournament, match="already finished")
