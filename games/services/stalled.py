"""Matches that stall: open matches that never fill, and untimed seats that fall silent.

- An open match (not started) that has not filled `OPEN_MATCH_EXPIRY_DAYS` after it was
  created is given up by the worker's sweep: marked abandoned, with `Match.expired_at` set,
  and each player seated is told (on any page of the site, and by e-mail if they asked for
  turn e-mails).
- In an untimed match, a seat the match has waited on for `SILENT_SEAT_DAYS` without a move
  may be handed to a bot by any other player: the seat is shown as having left, as after
  timeouts, and a bot of the strongest level plays it for the rest of the match. Timed matches
  need no such thing: their clocks hand a silent seat to a bot by themselves.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.utils.translation import gettext, ngettext

from games.lib import clock
from games.lib.zones import shown
from games.models import Match, MatchStatus
from games.services.errors import BadInput, Conflict, NotFound
from games.services.events import announce_notice_after_commit
from games.services.table import Changed, LockedTable
from games.services.writes import write_transaction


def _open_match_cutoff(now: datetime) -> datetime:
    return now - timedelta(days=settings.OPEN_MATCH_EXPIRY_DAYS)


def expire_open_match(match_id: int, now: datetime | None = None) -> Changed:
    """Give up an open match that has waited too long to fill; refuse any other."""
    now = now or clock.now()
    with write_transaction():
        table = LockedTable.lock(match_id)
        match = table.match
        if match.status != MatchStatus.OPEN or match.created_at > _open_match_cutoff(now):
            raise Conflict(gettext("This match is not an open match left unfilled too long."))
        match.status = MatchStatus.ABANDONED
        match.expired_at = now
        Match.objects.filter(pk=match.pk).update(expired_at=now)
        changed = table.save()
        days = settings.OPEN_MATCH_EXPIRY_DAYS
        text = (
            f"Match {match.pk} did not fill within {days} day{'s' if days != 1 else ''} "
            "and has been closed."
        )
        players = [seat.user_id for seat in table.seats if seat.user_id]
        announce_notice_after_commit(match.pk, players, "expired", text)
        return changed


def expire_open_matches(now: datetime | None = None, limit: int | None = None) -> int:
    """Give up every open match left unfilled too long; return how many.

    One range read on the index `match_status_created`.
    """
    now = now or clock.now()
    stale = (
        Match.objects.filter(status=MatchStatus.OPEN, created_at__lte=_open_match_cutoff(now))
        .order_by("created_at")
        .values_list("pk", flat=True)[: limit or settings.SWEEP_BATCH]
    )
    expired = 0
    for match_id in list(stale):
        try:
            expire_open_match(match_id, now)
            expired += 1
        except (Conflict, NotFound):
            pass  # started, or cancelled, meanwhile
    return expired


def silent_since_limit(now: datetime) -> datetime:
    """A seat waited on since before this moment is silent long enough to hand over."""
    return now - timedelta(days=settings.SILENT_SEAT_DAYS)


def hand_over(user: User, match_id: int, position: int, now: datetime | None = None) -> Changed:
    """Hand a silent seat of an untimed match to a bot, at another player's request."""
    with write_transaction():
        table = LockedTable.lock(match_id)
        mine = table.require_seat(user)
        table.require_in_play()
        now = now or clock.now()
        if table.match.is_timed:
            raise Conflict(
                gettext("This match is timed: its clock hands a silent seat to a bot by itself.")
            )
        seat = next((s for s in table.seats if s.position == position), None)
        if seat is None:
            raise BadInput(gettext("There is no such seat at this table."))
        if seat.pk == mine.pk:
            raise BadInput(gettext("That is your own seat: to leave the match, resign instead."))
        if seat.is_bot or seat.resigned or seat.user_id is None:
            raise Conflict(gettext("A bot already plays that seat."))
        if not seat.to_act or seat.waiting_since is None:
            raise Conflict(
                gettext(
                    "The match is not waiting for %(name)s: only a seat the match waits on "
                    "can be handed over."
                )
                % {"name": seat.name}
            )
        allowed = seat.waiting_since + timedelta(days=settings.SILENT_SEAT_DAYS)
        if allowed > now:
            silent = (now - seat.waiting_since).days
            raise Conflict(
                ngettext(
                    "%(name)s has been silent for %(silent)d day: a seat can be handed to a bot "
                    "after %(days)d days without a move, from %(when)s.",
                    "%(name)s has been silent for %(silent)d days: a seat can be handed to a bot "
                    "after %(days)d days without a move, from %(when)s.",
                    silent,
                )
                % {
                    "name": seat.name,
                    "silent": silent,
                    "days": settings.SILENT_SEAT_DAYS,
                    "when": shown(allowed),
                }
            )
        # Marked as a seat left on time: its player is shown as gone, a strong bot plays it.
        seat.resigned = True
        seat.left_on_time = True
        table.advance()
        return table.save()
