"""Nudges: a player waiting in a match reminds the players it waits for.

Each player may nudge once per `NUDGE_INTERVAL` (24 hours) in each match; a nudge too soon is
refused (429) with the time it will be allowed. The players nudged are those to act, people
(not bots, not seats handed to one) other than the nudger, and not away on a vacation that
stops their clock here. Each hears of it on any page of the site and, if they asked for turn
e-mails, by e-mail (`games/notifications/notices.py`). A nudge changes nothing in the match:
the match's row is locked only so that the check and the record are made on the table as it
stands, and its version is not moved.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.utils.translation import gettext

from games.lib import clock
from games.lib.zones import shown
from games.models import MatchStatus, Nudge, Seat, display_name_of
from games.services import clocks
from games.services.errors import Conflict, TooSoon
from games.services.events import announce_notice_after_commit
from games.services.table import LockedTable
from games.services.writes import write_transaction

NUDGE_INTERVAL = timedelta(hours=24)


@dataclass(frozen=True)
class Nudged:
    """Who a nudge reached, by name, and when the nudger may nudge again in the match."""

    names: tuple[str, ...]
    next_allowed: datetime


def _targets(table: LockedTable, nudger: Seat, now: datetime) -> list[Seat]:
    """The people the match waits for, other than the nudger; refuse if there are none."""
    waiting = [
        seat
        for seat in table.seats
        if seat.to_act and not seat.is_bot and not seat.resigned and seat.user_id
        if seat.pk != nudger.pk
    ]
    if not waiting:
        if nudger.to_act:
            raise Conflict(gettext("The match waits only for you: there is nobody to nudge."))
        raise Conflict(gettext("The match waits for no player now: there is nobody to nudge."))
    present = [seat for seat in waiting if not clocks.is_paused_for(seat, table.match, now)]
    if not present:
        raise Conflict(
            gettext(
                "Every player the match waits for is on vacation, their clock stopped: "
                "there is nobody to nudge."
            )
        )
    return present


def next_nudge_allowed(user_id: int, match_id: int, now: datetime) -> datetime | None:
    """When the player may nudge again in the match, if their last nudge was too recent."""
    last = (
        Nudge.objects.filter(match_id=match_id, nudger_id=user_id)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    if last is None or now - last >= NUDGE_INTERVAL:
        return None
    return last + NUDGE_INTERVAL


def nudge(user: User, match_id: int, now: datetime | None = None) -> Nudged:
    """Nudge the players a match waits for; refuse if the nudger did so in the last 24 hours."""
    with write_transaction():
        table = LockedTable.lock(match_id)
        seat = table.require_seat(user)
        table.require_in_play()
        now = now or clock.now()
        allowed = next_nudge_allowed(user.pk, match_id, now)
        if allowed is not None:
            wait = max(1, int((allowed - now).total_seconds()))
            raise TooSoon(
                gettext(
                    "You have nudged in this match in the last 24 hours: you may nudge again "
                    "from %(when)s."
                )
                % {"when": shown(allowed, "j F, H:i")},
                retry_after=wait,
            )
        targets = _targets(table, seat, now)
        assert table.match.status == MatchStatus.ACTIVE
        Nudge.objects.create(match_id=match_id, nudger=user, created_at=now, nudged=len(targets))
        by = display_name_of(user)
        text = f"{by} nudged you: match {match_id} waits for your move."
        user_ids = [target.user_id for target in targets if target.user_id]
        announce_notice_after_commit(match_id, user_ids, "nudge", text, by=by)
        return Nudged(tuple(target.name for target in targets), now + NUDGE_INTERVAL)
