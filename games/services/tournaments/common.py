"""What every tournament service shares: the locked tournament row, and the standings."""

from dataclasses import dataclass

from django.utils.translation import gettext

from games.models import (
    Entry,
    Round,
    RoundStatus,
    Seat,
    TableSeat,
    Tournament,
)
from games.services.errors import NotFound
from games.tournaments.standings import Standing, TableResult, standings


def lock(tournament_id: int) -> Tournament:
    """Lock the tournament row for the rest of the transaction and return it."""
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound(gettext("There is no such tournament.")) from None


def last_round(tournament: Tournament) -> Round | None:
    """Return the tournament's latest round, if it has one."""
    return tournament.rounds.order_by("-number").first()


def table_results(tournament: Tournament) -> list[TableResult]:
    """Return the results of every closed round's tables, seat by seat."""
    seats = (
        TableSeat.objects.filter(
            table__round__tournament=tournament, table__round__status=RoundStatus.CLOSED
        )
        .select_related("table__round")
        .order_by("table__round__number", "table__number", "position")
    )
    tables: dict[int, list[TableSeat]] = {}
    for seat in seats:
        tables.setdefault(seat.table_id, []).append(seat)
    # Each table's places are the ones its match stored as it finished (leavers last).
    stored: dict[tuple[int | None, int], int | None] = {
        (match_id, position): rank
        for match_id, position, rank in Seat.objects.filter(
            match__tournament_table__in=tables.keys()
        ).values_list("match_id", "position", "rank")
    }
    results = []
    for rows in tables.values():
        table = rows[0].table
        ranks = [stored.get((table.match_id, row.position)) for row in rows]
        known = [rank for rank in ranks if rank is not None]
        results.append(
            TableResult(
                round=table.round.number,
                table=table.number,
                seats=tuple(row.entry_id for row in rows),
                # A closed round has recorded every seat's total and its match every place.
                totals=tuple(row.total or 0 for row in rows),
                deal_group=table.deal_group or None,
                places=tuple(known) if len(known) == len(rows) else (),
            )
        )
    return results


@dataclass(frozen=True)
class Line:
    """One line of the standings: an entry and its record."""

    entry: Entry
    standing: Standing


def standings_of(tournament: Tournament) -> list[Line]:
    """Return the tournament's standings after its closed rounds, best first."""
    entries = {e.pk: e for e in tournament.entries.select_related("user__profile")}
    active = [pk for pk, entry in entries.items() if not entry.withdrawn]
    return [
        Line(entries[row.entrant], row)
        for row in standings(table_results(tournament), entrants=active)
        if row.entrant in entries
    ]
