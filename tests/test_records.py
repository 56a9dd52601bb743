"""Statistics and ratings kept as matches end (games/services/records.py), and rebuilt from the
stored matches by `manage.py rebuild_stats` with exactly the same figures."""

import pytest
from django.core.management import call_command

from games import services
from games.models import Competitor, MatchResult, MatchStatus, ScoreLine, TableSizeStats
from games.services import bot_turns, records
from tests.records_helpers import constructed_match, finished_match
from tests.service_helpers import act

pytestmark = pytest.mark.django_db

NEW_MU = 25.0


def stats_of(holder, players: int = 4) -> TableSizeStats:
    if isinstance(holder, str):
        return TableSizeStats.objects.get(competitor__bot_level=holder, players=players)
    return TableSizeStats.objects.get(competitor__user=holder, players=players)


def competitor_of(holder) -> Competitor:
    if isinstance(holder, str):
        return Competitor.objects.get(bot_level=holder)
    return Competitor.objects.get(user=holder)


# Two hands: Bob takes the Q♠ in the first, Alice shoots the moon in the second. Totals:
# Alice 4, the two easy bots 29 each, Bob 42.
TWO_HANDS = [
    [(4, False, False), (16, False, True), (3, False, False), (3, False, False)],
    [(0, True, True), (26, False, False), (26, False, False), (26, False, False)],
]


def test_each_players_figures_are_added_up_as_the_match_ends(alice, bob):
    constructed_match([alice, bob, "easy", "easy"], TWO_HANDS)
    mine = stats_of(alice)
    assert (mine.matches, mine.wins, mine.places) == (1, 1, [1, 0, 0, 0])
    assert (mine.hands, mine.points, mine.queens) == (2, 4, 1)
    assert (mine.moons_shot, mine.moons_suffered) == (1, 0)
    bobs = stats_of(bob)
    assert (bobs.matches, bobs.wins, bobs.places) == (1, 0, [0, 0, 0, 1])
    assert (bobs.points, bobs.queens, bobs.moons_shot, bobs.moons_suffered) == (42, 1, 0, 1)


def test_every_bot_of_a_level_counts_for_that_level(alice, bob):
    constructed_match([alice, bob, "easy", "easy"], TWO_HANDS)
    easy = stats_of("easy")
    # Two seats, sharing second place: one match played at that level, placed by its best
    # seat; its seats' hands and points all count, so points per hand stays per seat.
    assert (easy.matches, easy.wins, easy.places) == (1, 0, [0, 1, 0, 0])
    assert (easy.hands, easy.points, easy.moons_suffered, easy.queens) == (4, 58, 2, 0)
    # One rating update and one result for the level, however many seats it held.
    assert competitor_of("easy").rated_matches == 1
    assert MatchResult.objects.filter(competitor__bot_level="easy").get().place == 2


def test_the_winner_is_rated_up_and_the_last_down(alice, bob):
    constructed_match([alice, bob, "easy", "easy"], TWO_HANDS)
    assert competitor_of(alice).mu > NEW_MU > competitor_of(bob).mu
    assert competitor_of(alice).rating > competitor_of(bob).rating
    result = MatchResult.objects.get(competitor__user=alice)
    assert (result.place, result.total, result.rated_no) == (1, 4, 1)
    assert result.rating == competitor_of(alice).rating


def test_co_winners_both_count_a_win_and_are_rated_alike(alice, bob, make_user):
    carol = make_user("carol", "Carol")
    hand = [[(5, False, False), (5, False, False), (3, False, False), (13, False, True)]]
    constructed_match([alice, bob, carol, "normal"], hand)
    # Carol alone is lowest; Alice and Bob share second.
    hand = [[(2, False, False), (2, False, False), (9, False, False), (13, False, True)]]
    constructed_match([alice, bob, carol, "normal"], hand)
    assert stats_of(alice).wins == stats_of(bob).wins == 1
    assert stats_of(alice).places == [1, 1, 0, 0]
    assert competitor_of(alice).mu == competitor_of(bob).mu


def test_a_player_who_left_is_placed_last_and_loses_rating_whatever_their_bot_scored(
    alice, bob, make_user
):
    carol = make_user("carol", "Carol")
    hand = [[(0, False, False), (6, False, False), (7, False, True), (13, False, False)]]
    constructed_match([alice, bob, carol, "strong"], hand, left=(0,))
    mine = stats_of(alice)
    assert (mine.wins, mine.places) == (0, [0, 0, 0, 1])
    assert competitor_of(alice).mu < NEW_MU
    assert stats_of(bob).wins == 1 and competitor_of(bob).mu > NEW_MU
    # The seat counts for the person who left, not for the bot that finished it.
    assert stats_of("strong").matches == 1


def test_several_leavers_are_placed_after_those_who_stayed_and_rated_as_last(alice, bob, make_user):
    carol = make_user("carol", "Carol")
    hand = [[(0, False, False), (1, False, False), (12, False, True), (13, False, False)]]
    constructed_match([alice, bob, carol, "easy"], hand, left=(0, 1))
    # Carol and the bot stayed: 1st and 2nd; the leavers follow by total.
    assert stats_of(carol).places == [1, 0, 0, 0]
    assert stats_of(alice).places == [0, 0, 1, 0]
    assert stats_of(bob).places == [0, 0, 0, 1]
    assert competitor_of(alice).mu == competitor_of(bob).mu < NEW_MU


def test_an_unrated_match_counts_in_the_statistics_only(alice, bob):
    constructed_match([alice, bob, "easy", "easy"], TWO_HANDS, rated=False)
    assert stats_of(alice).matches == 1 and stats_of(alice).rated_matches == 0
    assert competitor_of(alice).mu == NEW_MU and competitor_of(alice).rated_matches == 0
    assert MatchResult.objects.get(competitor__user=alice).rating is None


def test_a_match_played_to_its_end_records_its_figures_and_who_took_the_queen(alice):
    match = finished_match(alice, hands=2)
    lines = ScoreLine.objects.filter(match=match)
    for number in (1, 2):
        assert [line.took_queen for line in lines.filter(hand_number=number)].count(True) == 1
    mine = stats_of(alice)
    assert (mine.matches, mine.hands) == (1, 2)
    assert mine.queens == lines.filter(seat=0, took_queen=True).count()
    assert mine.points == sum(line.score for line in lines.filter(seat=0))
    assert stats_of("easy").matches == 1  # one match, however many seats the level held
    assert records.queen_takers_from_log(match) == {
        line.hand_number: line.seat for line in lines.filter(took_queen=True)
    }


def test_an_unrated_match_from_the_lobby_leaves_ratings_alone(alice):
    finished_match(alice, hands=1, rated=False)
    assert competitor_of(alice).rated_matches == 0
    assert stats_of(alice).matches == 1


def test_a_seat_its_player_resigned_counts_for_them_not_for_the_bot(alice, bob):
    match = services.create_match(alice, services.MatchOptions(players=3, bots=1, hands=1))
    match = services.join_match(bob, match.pk, match.invite_code).match
    services.resign(bob, match.pk)
    for _ in range(500):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        if match.bots_due_since is not None:
            bot_turns.play_bots(match.pk)
        else:
            act(alice, match, 0)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert stats_of(bob, 3).places == [0, 0, 1]
    assert not Competitor.objects.filter(bot_level="strong").exists()


def snapshot() -> dict:
    """Every figure kept, by competitor (not by row id, which a rebuild renumbers)."""

    def key(competitor: Competitor):
        return competitor.user_id or competitor.bot_level

    competitors = {
        key(c): (c.mu, c.sigma, c.rating, c.rated_matches) for c in Competitor.objects.all()
    }
    stats = {
        (key(s.competitor), s.players): (
            s.matches,
            s.rated_matches,
            s.wins,
            s.places,
            s.hands,
            s.points,
            s.moons_shot,
            s.moons_suffered,
            s.queens,
        )  # fmt: skip
        for s in TableSizeStats.objects.select_related("competitor")
    }
    results = {
        (key(r.competitor), r.match_id): (
            r.players,
            r.place,
            r.total,
            r.ended_at,
            r.rating,
            r.mu,
            r.sigma,
            r.rated_no,
        )
        for r in MatchResult.objects.select_related("competitor")
    }
    return {"competitors": competitors, "stats": stats, "results": results}


def test_the_rebuild_command_gives_exactly_the_figures_kept_as_the_matches_ended(
    alice, bob, capsys
):
    played = [
        finished_match(alice, players=4, hands=2, seed=3),
        finished_match(alice, players=3, hands=1, seed=4, bot_levels=("easy", "easy")),
        finished_match(bob, players=5, hands=1, seed=5, rated=False),
        finished_match(alice, players=4, hands=1, seed=6),
    ]
    constructed_match([alice, bob, "easy", "easy"], TWO_HANDS, left=(1,))
    kept = snapshot()
    queens = list(ScoreLine.objects.order_by("pk").values_list("took_queen", flat=True))
    # Score lines written before the Q♠ was recorded: the rebuild reads it from the log.
    ScoreLine.objects.filter(match=played[0]).update(took_queen=None)
    Competitor.objects.update(mu=1.0, rating=0)  # whatever is there is forgotten

    call_command("rebuild_stats")

    assert "Counted 5 finished matches" in capsys.readouterr().out
    assert snapshot() == kept
    assert list(ScoreLine.objects.order_by("pk").values_list("took_queen", flat=True)) == queens


def test_a_match_whose_first_hands_predate_the_queen_record_reads_them_from_the_log(alice):
    match = services.create_match(alice, services.MatchOptions(players=4, bots=3, hands=2))
    for _ in range(500):
        match.refresh_from_db()
        if match.hand_no == 2:
            break
        match = act(alice, match, 0)
    ScoreLine.objects.filter(match=match).update(took_queen=None)  # as if from before
    for _ in range(500):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        match = act(alice, match, 0)
    lines = ScoreLine.objects.filter(match=match)
    assert not lines.filter(took_queen__isnull=True).exists()
    assert stats_of(alice).queens == lines.filter(seat=0, took_queen=True).count()
    kept = snapshot()
    records.rebuild()
    assert snapshot() == kept
