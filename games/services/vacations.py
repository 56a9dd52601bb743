"""Vacation: days away during which a player's clocks stand still.

The rule, as the profile page tells it:

- Every player starts with `STARTING_DAYS` (7) days of vacation.
- Each full week since the days were last counted (at first, since the account was created)
  adds one day, up to `MOST_DAYS` (30); weeks past the cap add nothing.
- Taking a vacation spends its whole days at once (1 to the days available). While it lasts,
  the player's clocks stop in every match that allows vacation (`Match.allow_vacation`, chosen
  when the match is created): each keeps the seconds it had left, and starts again with them
  when the vacation ends. Clocks in matches that do not allow it keep running.
- A vacation ends when its last day is over (the worker's sweep ends it), or earlier when the
  player ends it: each whole day not yet begun is given back (a vacation of 5 days ended after
  1 day and 3 hours gives back 3), never above the cap.

A decision whose deadline had already passed when the vacation began is not saved by it: the
sweep times it out as usual. The others at the table see that the seat is away, and until when.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.utils.translation import gettext, ngettext

from games.lib import clock
from games.lib.zones import shown
from games.models import Match, MatchStatus, Profile, Seat
from games.services import clocks
from games.services.errors import BadInput, Conflict
from games.services.table import LockedTable
from games.services.writes import write_transaction

STARTING_DAYS = 7
MOST_DAYS = 30
WEEK = timedelta(days=7)
DAY = timedelta(days=1)


@dataclass(frozen=True)
class VacationState:
    """What the profile page shows: days left to take, and the vacation under way, if any."""

    days: int
    away_since: datetime | None
    away_until: datetime | None

    @property
    def is_away(self) -> bool:
        return self.away_until is not None


def _count(profile: Profile, now: datetime) -> None:
    """Add the days earned by the full weeks since the days were last counted (in memory)."""
    since = profile.vacation_counted_at or profile.user.date_joined
    weeks = int((now - since) / WEEK) if now > since else 0
    if weeks:
        profile.vacation_days = min(MOST_DAYS, profile.vacation_days + weeks)
        since += weeks * WEEK
    profile.vacation_counted_at = since


def state_of(user: User, now: datetime | None = None) -> VacationState:
    """Return the player's vacation as it stands now, its days counted up (nothing is written)."""
    profile = Profile.objects.select_related("user").get(user=user)
    _count(profile, now or clock.now())
    return VacationState(profile.vacation_days, profile.away_since, profile.away_until)


def _locked_profile(user: User) -> Profile:
    found = Profile.objects.select_for_update().select_related("user").filter(user=user).first()
    if found is None:
        raise Conflict(
            gettext("Your account has no profile yet: open your profile page once first.")
        )
    return found


def _vacation_matches(user: User) -> list[int]:
    """The matches in play where the player holds a seat and vacation stops clocks, by id.

    Locked in this order by every vacation change, so two never wait on each other.
    """
    rows = Seat.objects.filter(
        user=user,
        resigned=False,
        match__status=MatchStatus.ACTIVE,
        match__allow_vacation=True,
    ).values_list("match_id", flat=True)
    return sorted(set(rows))


def _redraw(user: User, change: Callable[[Seat, Match, datetime], bool]) -> int:
    """Apply `change` to the player's seat in each of their vacation matches, under its lock.

    Every such table is saved, a new version, so the others see the seat's mark change even
    where no clock was running. Return how many clocks the change stopped or started.
    """
    changed = 0
    for match_id in _vacation_matches(user):
        table = LockedTable.lock(match_id)
        seat = table.seat_of(user)
        if seat is None or table.match.status != MatchStatus.ACTIVE:
            continue
        if change(seat, table.match, table.now):
            changed += 1
        table.save()
    return changed


def take_vacation(user: User, days: int, now: datetime | None = None) -> VacationState:
    """Go away for `days` whole days: spend them, and stop the player's clocks where allowed.

    Refused, with nothing changed, for fewer than one day, more than the days available, or
    while a vacation is already under way.
    """
    if days < 1:
        raise BadInput(gettext("Take at least one day of vacation."))
    with write_transaction():
        profile = _locked_profile(user)
        now = now or clock.now()
        _count(profile, now)
        if profile.away_until is not None:
            raise Conflict(
                gettext("You are already on vacation until %(when)s: end it before taking another.")
                % {"when": shown(profile.away_until)}
            )
        if days > profile.vacation_days:
            have = profile.vacation_days
            raise BadInput(
                ngettext(
                    "You have %(have)d day of vacation left: you cannot take %(days)d.",
                    "You have %(have)d days of vacation left: you cannot take %(days)d.",
                    have,
                )
                % {"have": have, "days": days}
            )
        profile.vacation_days -= days
        profile.away_since = now
        profile.away_until = now + days * DAY
        profile.save(update_fields=_VACATION_FIELDS)
        _redraw(user, lambda seat, match, at: clocks.pause(seat, at))
        return VacationState(profile.vacation_days, profile.away_since, profile.away_until)


def end_vacation(user: User, now: datetime | None = None, *, early: bool = True) -> VacationState:
    """End the player's vacation, start their stopped clocks again, and give back unused days.

    `early`: the player ends it; each whole day not yet begun is given back. The sweep ends a
    vacation whose time is over with `early=False`.
    """
    with write_transaction():
        profile = _locked_profile(user)
        now = now or clock.now()
        _count(profile, now)
        if profile.away_until is None:
            raise Conflict(gettext("You are not on vacation."))
        if early and profile.away_until > now:
            unused = int((profile.away_until - now) / DAY)
            profile.vacation_days = min(MOST_DAYS, profile.vacation_days + unused)
        profile.away_since = None
        profile.away_until = None
        profile.save(update_fields=_VACATION_FIELDS)
        _redraw(user, clocks.resume)
        return VacationState(profile.vacation_days, None, None)


_VACATION_FIELDS = ["vacation_days", "vacation_counted_at", "away_since", "away_until"]


def sweep(now: datetime | None = None, limit: int | None = None) -> int:
    """End every vacation whose time is over; return how many were ended.

    One range read on the partial index `profile_away_until`: only players away have the mark.
    """
    now = now or clock.now()
    users = (
        Profile.objects.filter(away_until__lte=now)
        .select_related("user")
        .order_by("away_until")[: limit or settings.SWEEP_BATCH]
    )
    ended = 0
    for profile in list(users):
        try:
            end_vacation(profile.user, now, early=False)
            ended += 1
        except Conflict:
            pass  # ended meanwhile by the player
    return ended
