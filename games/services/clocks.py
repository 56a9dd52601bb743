"""Clocks for asynchronous play: deadlines, the bank of extra time, and timeouts.

A timed match allows each decision `Match.decision_seconds`. A seat that owes a decision has a
deadline: when its turn began, plus the allowance, plus what is left of its bank. Deciding
within the allowance tops the bank up by a quarter of the time left unused (never above
`Match.bank_seconds`, where every bank starts); deciding later draws the overrun from it.
Passing is one decision for each seat, and all the passers' clocks run at once.

When a deadline passes, the strongest bot available makes that one decision for the seat,
through the same lock and the same table as a person's move; after `Match.timeouts_to_leave`
timeouts in a row the seat passes to a bot for the rest of the match and its player is shown as
having left. A person's move and a timeout that meet are ordered by the match's lock: whichever
comes second finds its decision made and is refused (`games/services/timeouts.py`).

A player on vacation (`vacations.py`) has their clock stopped in every match that allows it: the
seconds left are kept in `Seat.paused_left` and the deadline is emptied, so no sweep meets it;
when the vacation ends the deadline is set again, that many seconds on.

A deadline is near in the last fifth of the allowance (`reminder_lead`, always a part of the
time a decision has, never all of it): from then on the table warns the seat's player
(`deadline_near`), and that is when its reminder e-mail goes (`Seat.remind_at`), only where that
fifth is at least an hour (an allowance of 5 hours or more), so that a reminder held back by the
gap between reminder e-mails (an hour by default) still comes before the deadline. A clock that
(re)starts with no more than the lead left is owed no reminder: none is ever due at or before
its start.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Match, Seat
from games.models.profiles import away_until
from games.models.time_control import MAX_BANK_SECONDS, MAX_DECISION_SECONDS, MIN_DECISION_SECONDS
from games.services.errors import BadInput

# The share of an allowance left unused that flows back into the bank.
BANK_REFILL_SHARE = 0.25
# A deadline is near when a fifth of the allowance is left; an e-mail says so only where that
# fifth is at least this long.
REMINDER_SHARE = 0.2
MIN_REMINDER_LEAD = timedelta(hours=1)


# What the lobby offers: an allowance per decision, and a bank in allowances.
DECISION_PRESETS = [
    (60, _("1 minute")), (300, _("5 minutes")), (3600, _("1 hour")), (12 * 3600, _("12 hours")),
    (86400, _("1 day")), (2 * 86400, _("2 days")), (3 * 86400, _("3 days")),
    (7 * 86400, _("7 days")), (14 * 86400, _("14 days")),
]  # fmt: skip
BANK_PRESETS = [
    (0, _("No bank")), (1, _("One more allowance")), (3, _("Three more allowances")),
]  # fmt: skip


def check_time_control(decision_seconds: int | None, bank_seconds: int) -> None:
    """Refuse a time control out of range: 1 minute to 14 days a decision, a bank to 30 days."""
    if decision_seconds is None:
        if bank_seconds:
            raise BadInput(
                gettext("An untimed match has no bank of time: choose a time per decision.")
            )
        return
    if not MIN_DECISION_SECONDS <= decision_seconds <= MAX_DECISION_SECONDS:
        raise BadInput(gettext("Allow between 1 minute and 14 days for each decision."))
    if not 0 <= bank_seconds <= MAX_BANK_SECONDS:
        raise BadInput(gettext("A bank of time holds at most 30 days."))


def allowance(match: Match) -> timedelta:
    assert match.decision_seconds is not None, "an untimed match has no allowance"
    return timedelta(seconds=match.decision_seconds)


def fill_banks(seats: list[Seat], match: Match) -> None:
    """Give every seat its full bank, as a match starts."""
    for seat in seats:
        seat.bank_left = match.bank_seconds


def is_paused_for(seat: Seat, match: Match, now: datetime) -> bool:
    """Say whether the seat's clock stands still now: its player is away, the match allows it."""
    if not match.allow_vacation or seat.user_id is None:
        return False
    user = seat.user
    assert user is not None  # its id is set
    until = away_until(user)
    return until is not None and until > now


def start(seat: Seat, match: Match, began: datetime) -> None:
    """Set the deadline of a decision the seat owes from `began` on (timed matches only)."""
    stop(seat)
    seat.reminded = False
    if not match.is_timed or seat.is_bot or seat.resigned:
        return
    left = allowance(match) + timedelta(seconds=seat.bank_left)
    if is_paused_for(seat, match, began):
        seat.paused_left = int(left.total_seconds())
        return
    seat.deadline = began + left
    schedule_reminder(seat, match, began)


def stop(seat: Seat) -> None:
    """Clear the clock of a seat that owes no decision now."""
    seat.deadline = None
    seat.paused_left = None
    seat.remind_at = None


def pause(seat: Seat, now: datetime) -> bool:
    """Stop a running clock, keeping the seconds it has left; say whether it was running.

    A deadline already past is left for the sweep to meet: a vacation does not undo it.
    """
    if seat.deadline is None or seat.deadline <= now:
        return False
    seat.paused_left = int((seat.deadline - now).total_seconds())
    seat.deadline = None
    seat.remind_at = None
    return True


def resume(seat: Seat, match: Match, now: datetime) -> bool:
    """Start a stopped clock again with the seconds it had left; say whether one was stopped."""
    if seat.paused_left is None:
        return False
    seat.deadline = now + timedelta(seconds=seat.paused_left)
    seat.paused_left = None
    schedule_reminder(seat, match, now)
    return True


def reminder_lead(match: Match) -> timedelta:
    """How long before the deadline it is near: a fifth of the allowance, for the page and e-mail.

    Always less than the allowance, so never the whole of the time a decision has.
    """
    return allowance(match) * REMINDER_SHARE


def schedule_reminder(seat: Seat, match: Match, now: datetime) -> None:
    """Owe the seat its reminder e-mail, due when its deadline becomes near (`reminder_lead`).

    None where the lead is under `MIN_REMINDER_LEAD` (an allowance under 5 hours: the table's
    warning alone), where one went for this decision already, or where that moment is not
    after `now` (the clock's start): a reminder is never due at or before its clock starts.
    """
    seat.remind_at = None
    lead = reminder_lead(match)
    if seat.reminded or seat.deadline is None or lead < MIN_REMINDER_LEAD:
        return
    remind_at = seat.deadline - lead
    if remind_at > now:
        seat.remind_at = remind_at


def deadline_near(seat: Seat, match: Match, now: datetime) -> bool:
    """Say whether the seat's deadline is near: no more than `reminder_lead` left (a warning)."""
    return seat.deadline is not None and seat.deadline - now <= reminder_lead(match)


def time_left(seat: Seat, now: datetime) -> float | None:
    """Return the seconds left on the seat's clock, running or stopped, or None without one."""
    if seat.paused_left is not None:
        return float(seat.paused_left)
    if seat.deadline is None:
        return None
    return (seat.deadline - now).total_seconds()


def settle(seat: Seat, match: Match, now: datetime) -> None:
    """Account for a decision the seat's player made themselves: the bank, the timeout run.

    What was used is the allowance and the bank less the time left on the clock, so days the
    clock stood still for a vacation count for nothing.
    """
    seat.timeouts_in_a_row = 0
    left = time_left(seat, now)
    if not match.is_timed or left is None:
        return
    unused = left - seat.bank_left
    if unused >= 0:
        seat.bank_left = min(match.bank_seconds, seat.bank_left + int(unused * BANK_REFILL_SHARE))
    else:
        seat.bank_left = max(0, seat.bank_left + int(unused))
