"""Every ending of a match, told once: each route reads the result the match stored.

Each scenario plays a match to its end through the services (people's moves, timeouts,
resignation, hand-over, a tournament withdrawal; bots finishing left seats), then asks every
route that tells the result (the table, *Your turn*, the player and bot pages, the
leaderboard, ratings and their history, the exports, tournament standings and
`rebuild_stats`) and checks each says what the stored places say (`games/services/results.py`).
E-mails carry no result at all (`games/notifications/`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta
from html import unescape

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.lib import clock
from games.models import (
    Competitor,
    Match,
    MatchResult,
    MatchStatus,
    Seat,
    TableSizeStats,
    display_name_of,
)
from games.services import bot_turns, rating_math, results, stalled, timeouts
from games.services import tournaments as tours
from games.services.rating_math import NEW_SKILL
from games.templatetags.hearts import ordinal
from tests.factories import client_for, make_match
from tests.service_helpers import MOON_DEAL, act
from tests.test_records import snapshot
from tests.tournament_helpers import enter, make_players, make_tournament

pytestmark = pytest.mark.django_db

# How a person leaves at their first decision of the phase named: by letting the clock run
# out (the match hands the seat to a bot after one timeout), resigning, or being handed over
# by another player after the silence the site allows.
Leave = Callable[[Match, Seat], None]


def by_timeout(match: Match, seat: Seat) -> None:
    assert seat.deadline is not None
    timeouts.time_out(match.pk, seat.position, seat.deadline, now=seat.deadline)


def by_resigning(match: Match, seat: Seat) -> None:
    services.resign(seat.user, match.pk)


def by_hand_over(match: Match, seat: Seat) -> None:
    other = next(s for s in match.seats.all() if s.user_id and s.pk != seat.pk and not s.resigned)
    later = clock.now() + timedelta(days=settings.SILENT_SEAT_DAYS + 1)
    stalled.hand_over(other.user, match.pk, seat.position, now=later)


def play_out(match: Match, leavers: dict[int, tuple[Leave, str]] | None = None) -> Match:
    """Play the match to its end: people by the simplest legal move, bots as the site does.

    `leavers`: seat position → (how, phase): that person leaves at their first decision owed
    in that engine phase.
    """
    leavers = dict(leavers or {})
    for _ in range(3000):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            return match
        if match.bots_due_since is not None:
            bot_turns.play_bots(match.pk)
            continue
        phase = engine.Match.from_snapshot(match.snapshot).phase
        seat = next(
            s
            for s in match.seats.select_related("user")
            if s.to_act and s.user_id and not s.resigned
        )
        leave = leavers.get(seat.position)
        if leave is not None and leave[1] == phase:
            del leavers[seat.position]
            leave[0](match, seat)
        else:
            act(seat.user, match, seat.position)
    raise AssertionError("the match did not end")


def people_match(
    users, *, players: int = 4, deals=None, timeouts_to_leave: int = 2, **options
) -> Match:
    match = make_match(users[0], players=players, people=users[1:], start=False, **options)
    # The lobby leaves it at 2; tournaments choose it, as the admin does here.
    Match.objects.filter(pk=match.pk).update(timeouts_to_leave=timeouts_to_leave)
    if deals:
        Match.objects.filter(pk=match.pk).update(deals=deals)
    if match.status == MatchStatus.OPEN:  # a table full of people has started by itself
        match = services.start_match(users[0], match.pk).match
    return match


def html_text(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))


# ----- what each route says, checked against the stored result -----


def check_the_table(match: Match, seats: list[Seat]) -> None:
    """The table's standings: every seat's stored place in order; the winners named."""
    viewer = next(s.user for s in seats if s.user_id)
    response = client_for(viewer).get(match.get_absolute_url())
    page = response.content.decode()
    standings = re.findall(r'<li( class="is-winner")?><span class="rank">(\d+)', page)
    expected = sorted(seats, key=lambda s: (s.rank, s.position))
    assert [(bool(w), int(rank)) for w, rank in standings] == [(s.won, s.rank) for s in expected]
    text = html_text(response)
    if not any(s.won for s in seats):
        assert "nobody wins" in text
    someone_left = any(s.has_left for s in seats)
    assert ("placed after everyone who stayed" in text) == someone_left
    for seat in seats:
        if seat.has_left and seat.user_id:
            assert f"{display_name_of(seat.user)} wins" not in text


def check_your_turn(seat: Seat) -> None:
    """*Your turn* (the home page) tells the person their stored place, and a win only if won."""
    text = html_text(client_for(seat.user).get(reverse("home")))
    place = f"{ordinal(seat.rank)} of {seat.match.players}"
    assert place in text
    assert ("a win!" in text) == seat.won
    assert ("You left this match" in text) == seat.has_left


def check_player_page(seat: Seat, rated: bool) -> None:
    """The person's page and the rows behind it: the stored place, left or not, wins."""
    result = MatchResult.objects.get(competitor__user=seat.user, match=seat.match)
    assert (result.place, result.left, result.total) == (seat.rank, seat.has_left, seat.final_total)
    assert (result.rating is not None) == rated
    stats = TableSizeStats.objects.get(competitor__user=seat.user, players=seat.match.players)
    assert (stats.matches, stats.wins) == (1, int(seat.won))
    assert stats.places[seat.rank - 1] == 1
    text = html_text(
        client_for(seat.user).get(reverse("player", args=[display_name_of(seat.user)]))
    )
    assert f"{ordinal(seat.rank)} of {seat.match.players}" in text
    assert ("left the match" in text) == seat.has_left


def check_bot_pages(seats: list[Seat]) -> None:
    """Each bot level counts the match once, placed by its best seat."""
    for level in {s.bot_level for s in seats if s.user_id is None}:
        mine = [s for s in seats if s.user_id is None and s.bot_level == level]
        stats = TableSizeStats.objects.get(competitor__bot_level=level, players=len(seats))
        assert stats.matches == 1
        assert stats.wins == int(any(s.won for s in mine))
        assert stats.places[min(s.rank for s in mine) - 1] == 1
        text = html_text(Client().get(reverse("bot_player", args=[level])))
        assert re.search(r"Matches played 1\b", text)


def check_ratings(match: Match, seats: list[Seat], rated: bool) -> None:
    """Ratings moved by the stored places, every leaver as last; not at all when unrated."""
    people = [s for s in seats if s.user_id]
    if not rated:
        assert not Competitor.objects.filter(rated_matches__gt=0).exists()
        return
    expected = rating_math.rate(
        [
            (s.position, NEW_SKILL, place)
            for s, place in zip(seats, results.rating_places(seats), strict=True)
        ]
    )
    for seat in people:
        competitor = Competitor.objects.get(user=seat.user)
        assert competitor.mu == pytest.approx(expected[seat.position].mu)


def check_leaderboard(seats: list[Seat], rated: bool, settings) -> None:
    settings.LEADERBOARD_MIN_RATED_MATCHES = 1
    viewer = next(s.user for s in seats if s.user_id)
    page = client_for(viewer).get(reverse("leaderboard")).content.decode()
    for seat in seats:
        if seat.user_id:
            assert (reverse("player", args=[display_name_of(seat.user)]) in page) == rated


def check_exports(match: Match, seats: list[Seat]) -> None:
    viewer = client_for(next(s.user for s in seats if s.user_id))
    record = json.loads(viewer.get(reverse("match_record", args=[match.pk])).content)
    assert record["result"] == [
        {"seat": s.position, "place": s.rank, "left": s.has_left, "won": s.won} for s in seats
    ]
    rows = viewer.get(reverse("scores_csv", args=[match.pk])).content.decode().splitlines()
    assert rows[-1].split(",")[: 1 + 3 * len(seats)] == [
        "place",
        *[cell for s in seats for cell in ("", "", str(s.rank))],
    ]


def check_rebuild() -> None:
    before = snapshot()
    call_command("rebuild_stats", verbosity=0)
    assert snapshot() == before


def check_every_route(match: Match, settings) -> list[Seat]:
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    seats = list(match.seats.select_related("user__profile", "match").order_by("position"))
    rated = results.is_rated(match, seats)
    check_the_table(match, seats)
    for seat in seats:
        if seat.user_id:
            check_your_turn(seat)
            check_player_page(seat, rated)
    check_bot_pages(seats)
    check_ratings(match, seats, rated)
    check_leaderboard(seats, rated, settings)
    check_exports(match, seats)
    check_rebuild()
    return seats


# ----- the endings -----


@pytest.fixture
def people(alice, bob, make_user):
    return [alice, bob, make_user("carol", "Carol")]


def test_a_normal_ending(people, settings):
    match = play_out(people_match(people, hands=1))
    seats = check_every_route(match, settings)
    assert not any(s.has_left for s in seats)
    assert sorted(s.rank for s in seats)[0] == 1


def test_one_leaver_out_of_time_is_placed_after_everyone_who_stayed(people, settings):
    match = people_match(people, hands=1, decision_seconds=60, timeouts_to_leave=1)
    match = play_out(match, {1: (by_timeout, engine.PLAYING)})
    seats = check_every_route(match, settings)
    assert seats[1].has_left and seats[1].rank == 4
    assert sorted(s.rank for s in seats if not s.has_left)[0] == 1


def test_a_leaver_with_the_lowest_total_never_wins(people, settings):
    # The moon deal: seat 0 takes every trick whoever plays it, so its bot shoots the moon
    # after Alice passed and then let her clock run out.
    match = people_match(
        people, hands=1, deals=[MOON_DEAL], decision_seconds=60, timeouts_to_leave=1
    )
    match = play_out(match, {0: (by_timeout, engine.PLAYING)})
    seats = check_every_route(match, settings)
    assert seats[0].final_total < min(s.final_total for s in seats[1:])
    assert seats[0].has_left and seats[0].rank == 4 and not seats[0].won
    assert [s.won for s in seats[1:]] == [True, True, True]  # the rest share 0 points


def test_when_everyone_left_nobody_wins_and_nothing_is_rated(people, settings):
    match = people_match(people, players=3, hands=1, decision_seconds=60, timeouts_to_leave=1)
    phase = engine.PASSING
    match = play_out(match, {p: (by_timeout, phase) for p in range(3)})
    seats = check_every_route(match, settings)
    assert all(s.has_left for s in seats) and not any(s.won for s in seats)
    assert sorted(s.rank for s in seats)[0] == 1  # placed among themselves by total
    assert not results.is_rated(match, seats)


def test_a_tie_shares_the_place(people, settings):
    # The moon deal with everyone staying: the shooter wins, the three others tie.
    match = play_out(people_match(people, hands=1, deals=[MOON_DEAL]))
    seats = check_every_route(match, settings)
    assert seats[0].won and [s.rank for s in seats[1:]] == [2, 2, 2]


def test_a_resignation(people, settings):
    match = play_out(people_match(people, hands=1), {1: (by_resigning, engine.PASSING)})
    seats = check_every_route(match, settings)
    assert seats[1].has_left and seats[1].rank == 4 and not seats[1].won


def test_a_seat_handed_over(people, settings):
    match = play_out(people_match(people, hands=1), {2: (by_hand_over, engine.PLAYING)})
    seats = check_every_route(match, settings)
    assert seats[2].has_left and seats[2].rank == 4


def test_a_withdrawal_in_a_tournament(admin_user, settings):
    tournament = make_tournament(hands=1, round_count=1, duplicate_deals=False)
    entries = enter(tournament, make_players(4))
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, admin_user)
    tours.set_withdrawn(entries[1].pk, True)
    match = Match.objects.get(tournament_table__round__tournament=tournament)
    play_out(match)
    tours.close_round(tournament.pk)
    seats = check_every_route(match, settings)
    gone = next(s for s in seats if s.user_id == entries[1].user_id)
    assert gone.has_left and gone.rank == 4
    # The standings' placement points are those of the stored places.
    points = {
        line.entry.user_id: line.standing.placement for line in tours.standings_of(tournament)
    }
    n = len(seats)
    for seat in seats:
        shared = [s for s in seats if s.rank == seat.rank]
        spanned = range(seat.rank, seat.rank + len(shared))
        assert points[seat.user_id] == pytest.approx(
            sum((n - k) / (n - 1) for k in spanned) / len(shared)
        )


def test_a_private_match_counts_in_no_public_figure(people, settings):
    match = play_out(people_match(people, hands=1, private=True))
    match.refresh_from_db()
    assert not match.rated  # the lobby never rates a private match
    assert not TableSizeStats.objects.filter(matches__gt=0).exists()
    assert not Competitor.objects.filter(rated_matches__gt=0).exists()
    alice = people[0]
    # Its players see it among their recent matches; an outsider and a visitor do not.
    page = reverse("player", args=["Alice"])
    assert f"Match {match.pk}" in html_text(client_for(alice).get(page))
    outsider = client_for(type(alice).objects.create_user("eve", password="x"))
    assert f"Match {match.pk}" not in html_text(outsider.get(page))
    settings.LEADERBOARD_MIN_RATED_MATCHES = 1
    assert (
        reverse("player", args=["Alice"])
        not in outsider.get(reverse("leaderboard")).content.decode()
    )


# ----- tables sharing deals count when their round closes -----


def test_a_table_sharing_its_deals_counts_nowhere_until_its_round_closes(admin_user, settings):
    tournament = make_tournament(hands=1)
    users = make_players(8)
    enter(tournament, users)
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, admin_user)
    first, second = Match.objects.filter(tournament_table__round__tournament=tournament).order_by(
        "tournament_table__number"
    )
    play_out(first)
    first.refresh_from_db()
    assert first.status == MatchStatus.FINISHED and first.recorded_at is None
    # Its players' pages, the bot pages, ratings and the leaderboard know nothing of it yet:
    # the other table is playing the same deal.
    assert not MatchResult.objects.exists()
    assert not TableSizeStats.objects.filter(matches__gt=0).exists()
    assert not Competitor.objects.filter(rated_matches__gt=0).exists()
    player = first.seats.filter(user__isnull=False).first().user
    text = html_text(client_for(player).get(reverse("player", args=[display_name_of(player)])))
    assert "No finished match yet" in text
    play_out(second)
    assert not MatchResult.objects.exists()  # both over, but the round is still open
    tours.close_round(tournament.pk)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.recorded_at is not None and second.recorded_at is not None
    assert MatchResult.objects.filter(match=first).count() == 4
    assert Competitor.objects.filter(user=player, rated_matches=1).exists()
    check_every_route(first, settings)
