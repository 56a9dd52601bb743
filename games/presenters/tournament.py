"""A tournament as its pages and the admin show it: entrants, rounds, tables and standings.

Only public facts: who sits where, who must act, final totals. No card ever comes from here.
"""

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch
from django.utils.translation import gettext

from games.access import Viewer, sees_sealed_cards, shared_deal_groups
from games.models import (
    Match,
    MatchStatus,
    Round,
    Seat,
    Table,
    TableSeat,
    Tournament,
)
from games.services.tournaments import standings_of
from games.services.tournaments.common import Line
from games.tournaments.standings import TIE_BREAKS


@dataclass(frozen=True)
class TableLine:
    """One table of a round: its number, players in seat order, match and what it waits for."""

    table: Table
    players: tuple[str, ...]
    match: Match | None
    status: str
    # The players whose last decisions bots made so that the round could close.
    finished_by_bots: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoundLine:
    """One round with its tables."""

    round: Round
    tables: tuple[TableLine, ...]


def table_status(match: Match | None, seats: list[Seat], *, sealed: bool = False) -> str:
    """Say where a table's match stands: not started, who is to act, or who won.

    A sealed table (see `games.access.is_sealed`) does not say who is to act: on a first trick
    that names the holder of the 2♣ in deals other tables are playing. Nor, once over, who won
    with what total: both come from deals the round's other tables play, or have played.
    """
    if match is None:
        return gettext("Not started")
    if sealed and match.is_over:
        return match.get_status_display()
    if match.status == MatchStatus.FINISHED:
        winners = [s for s in seats if s.won]
        if not winners:
            return gettext("Finished, hand %(hand)s: everyone left, nobody wins") % {
                "hand": match.hand_no
            }
        names = gettext(" and ").join(f"{s.name} ({s.final_total})" for s in winners)
        return gettext("Finished, hand %(hand)s: won by %(names)s") % {
            "hand": match.hand_no,
            "names": names,
        }
    if match.status == MatchStatus.ABANDONED:
        return gettext("Abandoned")
    if sealed:
        return gettext("In play, hand %(hand)s") % {"hand": match.hand_no}
    to_act = [s.name for s in seats if s.to_act]
    if to_act:
        return gettext("In play, hand %(hand)s; to act: %(names)s") % {
            "hand": match.hand_no,
            "names": ", ".join(to_act),
        }
    return gettext("In play, hand %(hand)s; bots to move") % {"hand": match.hand_no}


def round_lines(tournament: Tournament, viewer: Viewer = None) -> list[RoundLine]:
    """Return every round with its tables, players and live status, in a few queries.

    Without a viewer (the admin's staff) every table says who is to act; for a viewer, only
    the tables whose cards they may see (`games.access.is_sealed`).
    """
    sees_all = viewer is None or viewer.is_staff
    seats = Prefetch(
        "match__seats", queryset=Seat.objects.select_related("user__profile").order_by("position")
    )
    table_seats = Prefetch(
        "seats", queryset=TableSeat.objects.select_related("entry__user__profile")
    )
    tables = Prefetch(
        "tables",
        queryset=Table.objects.select_related("match")
        .prefetch_related(table_seats, seats)
        .order_by("number"),
    )
    rounds = tournament.rounds.prefetch_related(tables).order_by("number")
    lines = []
    for round_ in rounds:
        rows = []
        round_tables = list(round_.tables.all())
        shared = set() if sees_all else shared_deal_groups(round_, round_tables)
        for table in round_tables:
            match_seats = list(table.match.seats.all()) if table.match else []
            sealed = table.deal_group in shared and not sees_sealed_cards(viewer, match_seats)
            rows.append(
                TableLine(
                    table=table,
                    players=tuple(seat.entry.name for seat in table.seats.all()),
                    match=table.match,
                    status=table_status(table.match, match_seats, sealed=sealed),
                    finished_by_bots=tuple(s.name for s in match_seats if s.finished_by_bot),
                )
            )
        lines.append(RoundLine(round_, tuple(rows)))
    return lines


def standings_context(tournament: Tournament) -> dict[str, object]:
    """Return the standings and the tie-breaks that order them."""
    lines: list[Line] = standings_of(tournament)
    return {
        "standings": lines,
        "tie_breaks": [gettext(rule) for rule in TIE_BREAKS],
        "duplicate": tournament.duplicate_deals,
    }


def tournament_context(tournament: Tournament, user: User | AnonymousUser) -> dict[str, object]:
    """Return everything the tournament page shows to this user."""
    entries = list(tournament.entries.select_related("user__profile").order_by("joined_at", "pk"))
    mine = next((e for e in entries if user.is_authenticated and e.user_id == user.pk), None)
    return {
        "tournament": tournament,
        "entries": [e for e in entries if not e.withdrawn],
        "withdrawn": [e for e in entries if e.withdrawn],
        "my_entry": mine if mine is not None and not mine.withdrawn else None,
        "rounds": round_lines(tournament, user),
        **standings_context(tournament),
    }
