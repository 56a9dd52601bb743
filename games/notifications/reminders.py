"""Reminders of near deadlines: one e-mail per decision, at most one e-mail per gap, batched.

A decision whose clock has more than its lead left when it starts is owed a reminder at
`Seat.remind_at`, when its deadline becomes near and the table starts to warn: a fifth of the
allowance before the deadline, sent only where that is at least an hour (`services.clocks`). The
worker's sweep (`games/background/deadlines.py`) finds those due with one range read on the partial
index `seat_remind_at`, and for each player who asked for reminders (the profile page):

- every reminder due for them goes in one e-mail;
- no more than one such e-mail per `REMINDER_GAP_SECONDS`: a reminder falling due within the
  gap after the last waits for it to end (if its decision is still owed by then);
- each reminder is claimed on its seat (`remind_at` emptied, `reminded` set) by a conditional
  UPDATE, so a decision gets at most one, even with several workers.

A player who has not asked for reminders (or has no address) has theirs dropped at once, so the
sweep does not meet them again. Reminders are bookkeeping beside the match, like the e-mail
settings: they are written without the match's lock, and the condition on `remind_at` keeps a
reminder from being claimed for a decision that has since been replaced by another.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet

from games.lib import clock
from games.models import MatchStatus, NotificationSettings, Seat
from games.notifications import mail

logger = logging.getLogger(__name__)


def _due(now: datetime, limit: int) -> list[tuple[int, int, datetime]]:
    """Return the (seat, user, remind_at) of reminders due by now, the earliest first."""
    rows = (
        Seat.objects.filter(remind_at__lte=now)
        .order_by("remind_at")
        .values_list("pk", "user_id", "remind_at")[:limit]
    )
    return [(pk, user_id, at) for pk, user_id, at in rows if at is not None]


def _claim_seats(due: list[tuple[int, int, datetime]]) -> list[int]:
    """Mark each seat's decision reminded, if its reminder is still the one read; return those."""
    claimed = []
    for pk, _, remind_at in due:
        if Seat.objects.filter(pk=pk, remind_at=remind_at).update(remind_at=None, reminded=True):
            claimed.append(pk)
    return claimed


def _waiting_seats(pks: list[int]) -> QuerySet[Seat]:
    """The claimed seats whose decision is still owed, with what the e-mail names."""
    return (
        Seat.objects.filter(pk__in=pks, to_act=True, resigned=False)
        .filter(match__status=MatchStatus.ACTIVE)
        .select_related("match", "user__profile")
        .prefetch_related("match__seats__user__profile")
        .order_by("deadline", "match_id")
    )


def send_due_reminders(now: datetime | None = None, limit: int | None = None) -> int:
    """Send every reminder that is due, one e-mail per player at most; return how many e-mails."""
    now = now or clock.now()
    due = _due(now, limit or settings.SWEEP_BATCH)
    if not due:
        return 0
    by_user: dict[int, list[tuple[int, int, datetime]]] = {}
    for row in due:
        by_user.setdefault(row[1], []).append(row)
    wanted = Q(deadline_reminders=True, user__is_active=True) & ~Q(user__email="")
    opted = dict(
        NotificationSettings.objects.filter(wanted, user_id__in=by_user).values_list(
            "user_id", "last_reminder_at"
        )
    )
    # Nobody will be told: drop the reminders, so the sweep does not read them again.
    _claim_seats([row for user_id, rows in by_user.items() if user_id not in opted for row in rows])
    gap = timedelta(seconds=settings.REMINDER_GAP_SECONDS)
    sent = 0
    for user_id, previous in opted.items():
        if previous is not None and now - previous < gap:
            continue  # told within the gap: these wait for it to end
        if not NotificationSettings.objects.filter(
            user_id=user_id, last_reminder_at=previous
        ).update(last_reminder_at=now):
            continue  # another worker is telling them
        seats = list(_waiting_seats(_claim_seats(by_user[user_id])))
        if not seats:
            # Every one was decided meanwhile: nothing was sent, so the gap does not start.
            NotificationSettings.objects.filter(user_id=user_id, last_reminder_at=now).update(
                last_reminder_at=previous
            )
            continue
        try:
            user = seats[0].user
            assert user is not None  # the seats were found by their player's id
            mail.send_reminder(user, seats)
            sent += 1
        except Exception:
            # One bad address must not cost the others their reminders.
            logger.exception("Could not send the reminder to user %s", user_id)
    return sent
