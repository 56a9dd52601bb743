"""Registration: staff open and close it; players register and withdraw while it is open."""

from django.contrib.auth.models import User
from django.utils.translation import gettext

from games.models import (
    Entry,
    MatchStatus,
    TableSeat,
    Tournament,
    TournamentStatus,
)
from games.services.errors import Conflict, NotFound
from games.services.play import resign_seat
from games.services.table import LockedTable
from games.services.tournaments.common import lock
from games.services.writes import write_transaction


@write_transaction()
def open_registration(tournament_id: int) -> Tournament:
    """Let players register on the site; a draft tournament becomes public."""
    tournament = lock(tournament_id)
    if tournament.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
        raise Conflict(
            gettext(
                "%(name)s is %(status)s: registration can no longer open. Add entrants in the "
                "admin instead."
            )
            % {"name": tournament.name, "status": tournament.get_status_display().lower()}
        )
    if tournament.registration_open:
        raise Conflict(
            gettext("Registration for %(name)s is already open.") % {"name": tournament.name}
        )
    tournament.status = TournamentStatus.REGISTRATION
    tournament.registration_open = True
    tournament.save(update_fields=["status", "registration_open"])
    return tournament


@write_transaction()
def close_registration(tournament_id: int) -> Tournament:
    """Stop players registering or withdrawing on the site."""
    tournament = lock(tournament_id)
    if not tournament.registration_open:
        raise Conflict(
            gettext("Registration for %(name)s is not open.") % {"name": tournament.name}
        )
    tournament.registration_open = False
    tournament.save(update_fields=["registration_open"])
    return tournament


def _open_for_players(tournament_id: int) -> Tournament:
    tournament = lock(tournament_id)
    if tournament.status == TournamentStatus.DRAFT:
        raise NotFound(gettext("There is no such tournament."))
    if not tournament.registration_open:
        raise Conflict(gettext("Registration for %(name)s is closed.") % {"name": tournament.name})
    return tournament


@write_transaction()
def register(user: User, tournament_id: int) -> Entry:
    """Enter the user in the tournament (again, if they had withdrawn)."""
    tournament = _open_for_players(tournament_id)
    entry = Entry.objects.filter(tournament=tournament, user=user).first()
    if entry is not None and not entry.withdrawn:
        raise Conflict(
            gettext("You are already registered for %(name)s.") % {"name": tournament.name}
        )
    if entry is None:
        return Entry.objects.create(tournament=tournament, user=user)
    entry.withdrawn = False
    entry.save(update_fields=["withdrawn"])
    return entry


@write_transaction()
def withdraw(user: User, tournament_id: int) -> Entry:
    """Withdraw the user's entry while registration is open."""
    tournament = _open_for_players(tournament_id)
    entry = Entry.objects.filter(tournament=tournament, user=user, withdrawn=False).first()
    if entry is None:
        raise Conflict(gettext("You are not registered for %(name)s.") % {"name": tournament.name})
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    return entry


def resign_entry_seats(entry: Entry) -> list[int]:
    """Hand the entry's seats in matches still in play to bots; return those matches' ids.

    Runs inside the caller's transaction, which holds the tournament row.
    """
    match_ids = list(
        TableSeat.objects.filter(
            entry=entry,
            table__match__isnull=False,
            table__match__status=MatchStatus.ACTIVE,
        ).values_list("table__match_id", flat=True)
    )
    for match_id in sorted(match_ids):
        table = LockedTable.lock(match_id)
        seat = next((s for s in table.seats if s.user_id == entry.user_id and not s.resigned), None)
        if seat is None or table.match.status != MatchStatus.ACTIVE:
            continue
        resign_seat(table, seat)
        table.save()
    return match_ids


@write_transaction()
def set_withdrawn(entry_id: int, withdrawn: bool) -> Entry:
    """Withdraw an entry (bots take its seats in play) or reinstate it, as staff decide."""
    entry = Entry.objects.select_related("tournament").get(pk=entry_id)
    lock(entry.tournament_id)
    entry.withdrawn = withdrawn
    entry.save(update_fields=["withdrawn"])
    if withdrawn:
        resign_entry_seats(entry)
    return entry
