"""Active matches kept in this process as their last move left them, so a move need not read.

On PostgreSQL every move used to begin with a round trip: lock the match row and read it, its
seats, their people and the hand in play. A person's next card nearly always comes to the
process that answered their last one, and the rows are then exactly as that move wrote them.
So each committed move (or start, or resignation) keeps a copy of them here, and the next
move on that match, if it was made on the version kept, starts from a copy of the copy
instead of the read. Nothing is trusted blindly: the move's first statement, sent with its
writes and its COMMIT in one exchange, is `games_expect_table` (migration 0006). It locks the
match row and refuses the whole transaction unless the row (version, status, the options a
move obeys) and the people at its seats (their user and profile rows, by the transaction
that last wrote them) are still as kept. Every change to a match's seats, hand or game bumps
its version; a change to a user or a profile changes its row's `xmin`.

The move's session may also come from this process's memory, unread (`hearts_site.sessions`):
then the same statement also checks its row (`games_expect_session`, migration 0007).

A refused copy, or a kept move that a service refuses, is a `Retry`: the view makes the move
again, from the rows themselves (`unused()`), with its session read afresh, and answers that.
The copy is dropped.

SQLite reads the rows in process, with no round trip to save: it always reads them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, connections, models

from games import engine, rows
from games.models import Hand, Match, Profile, Seat
from games.services import table_rows
from hearts_site.recent import Recent

# As for kept engine states (`games.services.states`): more than a busy site has in play.
LIMIT = 5000
GUARD = (
    "SELECT games_expect_table(%s::bigint, %s::integer, %s::text, %s::boolean, %s::boolean, "
    "%s::text)"
)
# Added when the move's session was taken from memory, unread (`hearts_site.sessions`).
SESSION_GUARD = ", games_expect_session(%s::text, %s::text)"
SQLSTATE = "HT409"  # what both functions raise (migrations 0006 and 0007)


class Retry(Exception):  # noqa: N818 (an instruction, not an error)
    """Make the move again from the rows themselves: the kept copy could not decide it."""


# One instance's loaded values, as (model, attnames, values): a copy that nothing changes.
Frozen = tuple[type[models.Model], tuple[str, ...], tuple[Any, ...]]


def _freeze(instance: models.Model) -> Frozen:
    loaded = [
        field.attname
        for field in instance._meta.concrete_fields
        if field.attname in instance.__dict__  # never a deferred field: that would query
    ]
    return type(instance), tuple(loaded), tuple(instance.__dict__[name] for name in loaded)


def _thaw(frozen: Frozen) -> models.Model:
    return rows.from_db(*frozen)


@dataclass(frozen=True)
class _Copy:
    match_id: int
    version: int
    match: Frozen
    seats: tuple[tuple[Frozen, Frozen | None, Frozen | None], ...]  # seat, user, profile
    hand: Frozen | None
    state: engine.Match
    people: str | None


@dataclass
class KeptTable:
    """Fresh instances of the kept rows, for one move to change as it likes."""

    match: Match
    seats: list[Seat]
    users: list[models.Model]
    hand: Hand | None
    state: engine.Match
    people: str | None
    # The move's session as known, unread: (its key, its row's session_data); None if read.
    session: tuple[str, str] | None = None

    def guard(self) -> rows.Statement:
        """Return the statement that refuses the transaction unless the rows are as kept."""
        match = self.match
        values = [match.pk, match.version, match.status, match.auto_play_forced]
        values += [match.auto_finish, self.people]
        if self.session is None:
            return GUARD, values
        return GUARD + SESSION_GUARD, [*values, *self.session]


_kept: Recent[int, _Copy] = Recent()
_unused: ContextVar[bool] = ContextVar("kept_tables_unused", default=False)


def in_use() -> bool:
    """Say whether moves here may start from kept copies: on PostgreSQL, outside `unused()`."""
    return connections[rows.DB].vendor == "postgresql" and not _unused.get()


@contextmanager
def unused() -> Iterator[None]:
    """Within this block, moves read their rows (a move made again after a `Retry`)."""
    token = _unused.set(True)
    try:
        yield
    finally:
        _unused.reset(token)


def freeze(
    match: Match, seats: list[Seat], hand: Hand | None, state: engine.Match, people: str
) -> _Copy:
    """Copy the rows a change leaves, to `keep` once it is committed.

    `state` must never change afterwards. Values are shared, not copied: a move assigns new
    ones (a new snapshot, say) and never changes one in place.
    """
    return _Copy(
        match_id=match.pk,
        version=match.version,
        match=_freeze(match),
        seats=tuple(
            (
                _freeze(seat),
                _freeze(seat.user) if seat.user_id else None,
                _profile_of(seat.user) if seat.user_id else None,
            )
            for seat in seats
        ),
        hand=_freeze(hand) if hand is not None else None,
        state=state,
        people=people,
    )


def keep(copy: _Copy) -> None:
    """Keep a committed change's rows (`freeze`) for the next move on its match."""
    _kept.put(copy.match_id, copy, LIMIT)


def _profile_of(user) -> Frozen | None:
    try:
        return _freeze(user.profile)
    except Profile.DoesNotExist:
        return None


def holds(match_id: int, version: str | None) -> bool:
    """Say whether a move made on this version of the match (as posted) may start from a copy."""
    if not in_use() or version is None or not version.isdigit():
        return False
    copy = _kept.get(match_id)
    return copy is not None and copy.version == int(version)


def take(match_id: int, version: int) -> KeptTable | None:
    """Return fresh instances of the match kept at this version, if it is kept at all."""
    if not in_use():
        return None
    copy = _kept.get(match_id)
    if copy is None or copy.version != version:
        return None
    match = _thaw(copy.match)
    seats, users = [], []
    for frozen_seat, frozen_user, frozen_profile in copy.seats:
        seat = _thaw(frozen_seat)
        user = _thaw(frozen_user) if frozen_user is not None else None
        profile = _thaw(frozen_profile) if frozen_profile is not None else None
        table_rows.seat_at_table(seat, match, user, profile)  # as the locked read does
        if user is not None:
            users.append(user)
        seats.append(seat)
    hand = _thaw(copy.hand) if copy.hand is not None else None
    return KeptTable(match, seats, users, hand, copy.state.copy(), copy.people)


def forget(match_id: int | None = None) -> None:
    """Forget the kept copy of one match, or of every match."""
    if match_id is None:
        _kept.clear()
    else:
        _kept.pop(match_id)


def is_refusal(error: DatabaseError) -> bool:
    """Say whether the database refused a kept copy (the error `games_expect_table` raises)."""
    return getattr(error.__cause__, "sqlstate", None) == SQLSTATE  # psycopg's, wrapped by Django
