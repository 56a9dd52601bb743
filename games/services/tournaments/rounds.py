"""Rounds: seat the next one, start its matches, close it, and finish the tournament."""

import secrets
from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext

from games import engine
from games.lib import clock
from games.models import (
    MatchStatus,
    Round,
    RoundStatus,
    Seat,
    Table,
    TableSeat,
    Tournament,
    TournamentStatus,
)
from games.services import records
from games.services.errors import Conflict
from games.services.lobby import start_seated_match
from games.services.match_options import MatchOptions
from games.services.shuffles import Shuffle
from games.services.tournaments.common import last_round, lock, standings_of
from games.services.tournaments.notices import announce_seated
from games.services.writes import write_transaction
from games.tournaments.seating import SeatingError, pairs_at, repeat_meetings, seat_round


@dataclass(frozen=True)
class Seating:
    """What seating did: the round, its table sizes, and the repeat meetings left."""

    round: Round
    sizes: tuple[int, ...]
    repeats: int

    @property
    def message(self) -> str:
        sizes = "+".join(map(str, self.sizes))
        tables = len(self.sizes)
        return (
            f"Seated {sum(self.sizes)} entrants at {tables} table{'s' if tables != 1 else ''} "
            f"({sizes}) for round {self.round.number}; "
            f"{self.repeats} repeat meeting{'s' if self.repeats != 1 else ''}."
        )


def _earlier_meetings(tournament: Tournament) -> Counter[frozenset[int]]:
    seats = TableSeat.objects.filter(table__round__tournament=tournament).order_by(
        "table_id", "position"
    )
    tables: dict[int, list[int]] = {}
    for table_id, entry_id in seats.values_list("table_id", "entry_id"):
        tables.setdefault(table_id, []).append(entry_id)
    return pairs_at(tables.values())


def _refuse_unless_ready_to_seat(tournament: Tournament) -> int:
    """Return the number of the round to seat, or refuse."""
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict(gettext("%(name)s is finished.") % {"name": tournament.name})
    previous = last_round(tournament)
    if previous is not None and previous.status == RoundStatus.SEATED:
        raise Conflict(
            gettext("Round %(number)s is already seated: start it before seating more.")
            % {"number": previous.number}
        )
    if previous is not None and previous.status == RoundStatus.RUNNING:
        raise Conflict(
            gettext("Round %(number)s is still being played: close it first.")
            % {"number": previous.number}
        )
    number = previous.number + 1 if previous else 1
    if number > tournament.round_count:
        raise Conflict(
            gettext("All %(count)s rounds have been played: finish the tournament.")
            % {"count": tournament.round_count}
        )
    return number


@write_transaction()
def seat_next_round(tournament_id: int) -> Seating:
    """Split the active entrants into tables: at random in round one, Swiss after it."""
    tournament = lock(tournament_id)
    number = _refuse_unless_ready_to_seat(tournament)
    entries = list(tournament.entries.filter(withdrawn=False).order_by("pk"))
    entrant_ids = [entry.pk for entry in entries]
    met = _earlier_meetings(tournament)
    ranking = [line.entry.pk for line in standings_of(tournament)] if number > 1 else None
    seed = secrets.randbits(62)
    try:
        tables = seat_round(
            entrant_ids,
            tournament.table_size,
            met=met,
            ranking=ranking,
            seed=seed,
            sizes_allowed=engine.players_allowed(tournament.variant),
        )
    except SeatingError as error:
        raise Conflict(str(error)) from None
    round_ = Round.objects.create(tournament=tournament, number=number, seed=seed)
    for index, entrants in enumerate(tables, start=1):
        group = f"{number}:{len(entrants)}" if tournament.duplicate_deals else ""
        table = Table.objects.create(round=round_, number=index, deal_group=group)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, position=position, entry_id=entry_id)
            for position, entry_id in enumerate(entrants)
        )
    if tournament.status != TournamentStatus.RUNNING:
        tournament.status = TournamentStatus.RUNNING
        tournament.registration_open = False
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["status", "registration_open", "started_at"])
    announce_seated(round_)
    sizes = tuple(len(t) for t in tables)
    return Seating(round_, sizes, repeat_meetings(tables, met))


@write_transaction()
def start_round(tournament_id: int, by: User) -> Round:
    """Create and start the seated round's matches, one per table, created by `by`."""
    tournament = lock(tournament_id)
    round_ = last_round(tournament)
    if round_ is None or round_.status != RoundStatus.SEATED:
        if round_ is not None and round_.status == RoundStatus.RUNNING:
            raise Conflict(
                gettext("Round %(number)s has already started.") % {"number": round_.number}
            )
        raise Conflict(gettext("No round is waiting to start: seat the next round first."))
    if round_.deadline is not None and round_.deadline <= clock.now():
        # Started now, the sweep would at once let bots finish every match.
        raise Conflict(
            gettext("Round %(number)s's deadline has passed: set a later one (or none) first.")
            % {"number": round_.number}
        )
    options = MatchOptions.of_tournament(tournament)
    tables = round_.tables.prefetch_related("seats__entry__user").order_by("number")
    # Each table draws its own secret, but tables of one deal group (duplicate deals: every
    # table of a size) share one, so they get the same deals and show the same commitment.
    # The round's seed only seats the players: no deal can be computed from it.
    group_shuffles: dict[str, Shuffle] = {}
    for table in tables:
        seats = list(table.seats.all())
        if table.deal_group:
            shuffle = group_shuffles.setdefault(table.deal_group, Shuffle.draw())
        else:
            shuffle = Shuffle.draw()
        withdrawn = [seat.position for seat in seats if seat.entry.withdrawn]
        table.match = start_seated_match(
            by,
            options,
            [seat.entry.user for seat in seats],
            shuffle,
            resigned=withdrawn,
        )
        table.save(update_fields=["match"])
    round_.status = RoundStatus.RUNNING
    round_.started_at = timezone.now()
    round_.save(update_fields=["status", "started_at"])
    announce_seated(round_)
    return round_


@write_transaction()
def close_round(tournament_id: int, round_id: int | None = None) -> Round:
    """Record every table's final totals; refused while any table's match is unfinished.

    Given `round_id`, close that round only: refused if the round being played is another
    (it closed meanwhile, and the next one began).
    """
    tournament = lock(tournament_id)
    round_ = last_round(tournament)
    if round_ is None or round_.status != RoundStatus.RUNNING:
        raise Conflict(gettext("No round is being played: there is nothing to close."))
    if round_id is not None and round_.pk != round_id:
        raise Conflict(
            gettext("Round %(number)s is being played: the earlier round is closed.")
            % {"number": round_.number}
        )
    tables = list(round_.tables.select_related("match").order_by("number"))
    unfinished = [t for t in tables if t.match is None or t.match.status != MatchStatus.FINISHED]
    if unfinished:
        where = ", ".join(
            gettext("table %(number)s (match %(id)s)") % {"number": t.number, "id": t.match_id}
            for t in unfinished
        )
        raise Conflict(
            gettext("Round %(number)s cannot close yet: still being played at %(where)s.")
            % {"number": round_.number, "where": where}
        )
    totals: dict[tuple[int | None, int], int | None] = {
        (seat.match_id, seat.position): seat.final_total
        for seat in Seat.objects.filter(match__in=[t.match_id for t in tables])
    }
    seats = list(TableSeat.objects.filter(table__round=round_).select_related("table"))
    for seat in seats:
        seat.total = totals[(seat.table.match_id, seat.position)]
    TableSeat.objects.bulk_update(seats, ["total"])
    round_.status = RoundStatus.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    # Tables whose deals others shared waited for the close to count in statistics and ratings.
    records.record_closed_round(t.match_id for t in tables if t.match_id is not None)
    return round_


@write_transaction()
def finish_tournament(tournament_id: int) -> Tournament:
    """End the tournament once its last round is closed."""
    tournament = lock(tournament_id)
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict(gettext("%(name)s is already finished.") % {"name": tournament.name})
    round_ = last_round(tournament)
    last = tournament.round_count
    if round_ is None or round_.number < last or round_.status != RoundStatus.CLOSED:
        played = 0 if round_ is None else round_.number - (round_.status != RoundStatus.CLOSED)
        raise Conflict(
            gettext("%(name)s cannot finish yet: %(played)s of %(last)s rounds are closed.")
            % {"name": tournament.name, "played": played, "last": last}
        )
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    return tournament
