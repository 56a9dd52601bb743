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
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.models import Match, Seat
from games.models.matches import MAX_BANK_SECONDS, MAX_DECISION_SECONDS, MIN_DECISION_SECONDS
from games.services.errors import BadInput

# The share of an allowance left unused that flows back into the bank.
BANK_REFILL_SHARE = 0.25


# What the lobby offers: an allowance per decision, and a bank in allowances.
DECISION_PRESETS = [
    (60, "1 minute"), (300, "5 minutes"), (3600, "1 hour"), (12 * 3600, "12 hours"),
    (86400, "1 day"), (2 * 86400, "2 days"), (3 * 86400, "3 days"), (7 * 86400, "7 days"),
    (14 * 86400, "14 days"),
]  # fmt: skip
BANK_PRESETS = [(0, "No bank"), (1, "One more allowance"), (3, "Three more allowances")]


def check_time_control(decision_seconds: int | None, bank_seconds: int) -> None:
    """Refuse a time control out of range: 1 minute to 14 days a decision, a bank to 30 days."""
    if decision_seconds is None:
        if bank_seconds:
            raise BadInput("An untimed match has no bank of time: choose a time per decision.")
        return
    if not MIN_DECISION_SECONDS <= decision_seconds <= MAX_DECISION_SECONDS:
        raise BadInput("Allow between 1 minute and 14 days for each decision.")
    if not 0 <= bank_seconds <= MAX_BANK_SECONDS:
        raise BadInput("A bank of time holds at most 30 days.")


def allowance(match: Match) -> timedelta:
    assert match.decision_seconds is not None, "an untimed match has no allowance"
    return timedelta(seconds=match.decision_seconds)


def fill_banks(seats: list[Seat], match: Match) -> None:
    """Give every seat its full bank, as a match starts."""
    for seat in seats:
        seat.bank_left = match.bank_seconds


def start(seat: Seat, match: Match, began: datetime) -> None:
    """Set the deadline of a decision the seat owes from `began` on (timed matches only)."""
    if not match.is_timed or seat.is_bot or seat.resigned:
        seat.deadline = None
        return
    seat.deadline = began + allowance(match) + timedelta(seconds=seat.bank_left)


def settle(seat: Seat, match: Match, now: datetime) -> None:
    """Account for a decision the seat's player made themselves: the bank, the timeout run."""
    seat.timeouts_in_a_row = 0
    if not match.is_timed or seat.waiting_since is None:
        return
    used = (now - seat.waiting_since).total_seconds()
    unused = match.decision_seconds - used  # type: ignore[operator]  # timed, checked above
    if unused >= 0:
        seat.bank_left = min(match.bank_seconds, seat.bank_left + int(unused * BANK_REFILL_SHARE))
    else:
        seat.bank_left = max(0, seat.bank_left + int(unused))
