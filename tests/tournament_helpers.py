"""Build tournaments and play their matches: the baseline bot decides for each person seat."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games import engine, services
from games.models import Entry, Match, MatchStatus, Tournament
from games.services import tournaments as tours

BOT = engine.BaselineBot()


def make_tournament(**fields) -> Tournament:
    """Create a tournament with small, fast matches unless told otherwise."""
    defaults = {
        "name": "Winter Cup",
        "slug": "winter-cup",
        "variant": "standard",
        "bonus_card": "JD",
        "table_size": 4,
        "round_count": 2,
        "hands": 2,
        "duplicate_deals": True,
    }
    return Tournament.objects.create(**{**defaults, **fields})


def make_players(count: int, prefix: str = "player") -> list:
    """Create `count` players with display names."""
    users = []
    for number in range(1, count + 1):
        user = get_user_model().objects.create_user(f"{prefix}{number}", password="x")
        user.profile.display_name = f"{prefix.title()} {number}"
        user.profile.save()
        users.append(user)
    return users


def enter(tournament: Tournament, users) -> list[Entry]:
    """Enter the users directly, as staff do in the admin."""
    return [Entry.objects.create(tournament=tournament, user=user) for user in users]


def play_person_seats(match: Match, limit: int = 5000) -> Match:
    """Let the baseline bot decide for every person to act, through the match services."""
    for _ in range(limit):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            return match
        state = engine.Match.from_snapshot(match.snapshot)
        seats = [s for s in match.seats.all() if s.to_act and s.user_id and not s.resigned]
        assert seats, "a match in play waits for nobody"
        seat = seats[0]
        decision = BOT.choose(state.view(seat.position)).to_dict()
        if decision["type"] == "pass":
            services.pass_cards(seat.user, match.pk, match.version, decision["cards"])
        elif decision["type"] == "play":
            services.play_card(seat.user, match.pk, match.version, decision["card"])
        else:
            services.choose_moon(seat.user, match.pk, match.version, decision["option"])
    raise AssertionError("the match did not end")


def play_round(tournament: Tournament) -> None:
    """Play every match of the tournament's running round to its end."""
    round_ = tournament.rounds.order_by("-number").first()
    for table in round_.tables.select_related("match"):
        play_person_seats(table.match)


def one_closed_round(staff, player) -> Tournament:
    """Return a tournament whose first round, the player and three others, is played and closed."""
    tournament = make_tournament(hands=1)
    enter(tournament, [player, *make_players(3, prefix="entrant")])
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    play_round(tournament)
    tours.close_round(tournament.pk)
    return tournament
