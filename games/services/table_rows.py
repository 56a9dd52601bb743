"""The rows a move reads: the locked match, its seats with their names, and the hand in play.

Every move reads these three, so they are plain SQL (see `games.rows`), in one query; what
they return is what the querysets they replace returned:
`Match.objects.select_for_update().get(pk=...)`, the seats with
`select_related("user__profile")` (the profile limited to the name), and the hand without its
deal (the snapshot already holds the cards).
"""

from functools import cache
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import connections

from games import rows
from games.accounts.backends import offer_users, user_columns
from games.models import Hand, Match, Profile, Seat

SEAT_FIELDS = [
    "match_id", "position", "user_id", "controller", "bot_name", "resigned", "to_act",
    "waiting_since", "final_total", "rank",
]  # fmt: skip
HAND_FIELDS = ["match_id", "number", "next_seq", "finished_at"]
# Each seat's person as their rows stand: on PostgreSQL, where moves may start from a kept
# copy of the table, the transaction ids that last wrote the user's and the profile's rows
# (`xmin`), which any change to either changes. The migration `0006_expect_table` computes
# the same text to check a kept copy against.
PEOPLE_MARK = "concat_ws(':', s.user_id, u.xmin, p.xmin)"


class Locked(NamedTuple):
    """What the locked read found."""

    match: Match
    seats: list[Seat]
    hand: Hand | None
    people: str | None  # the seats' people marks, in seat order, on PostgreSQL; else None


@cache
def _columns() -> tuple[rows.Columns, ...]:
    return (
        rows.Columns(Match, alias="m"),
        rows.Columns(Seat, SEAT_FIELDS, alias="s"),
        # Whole rows: the player making the move is among them (see `offer_users`).
        user_columns(),
        rows.Columns(Profile, ["user_id", "display_name", "auto_play_forced"], alias="p"),
        rows.Columns(Hand, HAND_FIELDS, alias="h"),
    )


@cache
def _from_sql() -> str:
    """Return the joins and the condition of the locked read, put together once."""
    User = get_user_model()  # noqa: N806 (a model class)
    match_pk = f"m.{rows.pk_column(Match)}"
    return (
        f"FROM {rows.table(Match)} m "
        f"LEFT JOIN {rows.table(Seat)} s ON s.match_id = {match_pk} "
        f"LEFT JOIN {rows.table(User)} u ON u.{rows.pk_column(User)} = s.user_id "
        f"LEFT JOIN {rows.table(Profile)} p ON p.user_id = s.user_id "
        f"LEFT JOIN {rows.table(Hand)} h ON h.match_id = {match_pk} AND h.number = m.hand_no "
        f"WHERE {match_pk} = %s"
    )


def lock_table(match_id: int) -> Locked | None:
    """Lock the match row until the transaction ends; return it, its seats and its hand.

    One query: the seats (each with its whole user and the name it shows) and the hand in
    play come joined to the locked match row, so that a move reads all it needs, the player
    making it included, in one round trip. The seats come in order; before the first deal
    there is no hand. None if there is no such match.
    """
    match_columns, _, _, _, hand_columns = columns = _columns()
    marked = connections[rows.DB].vendor == "postgresql"
    found = rows.select(
        columns,
        _from_sql(),
        [match_id],
        lock=match_columns,
        once=[match_columns, hand_columns],
        extra=[PEOPLE_MARK] if marked else (),
    )
    if not found:
        return None
    match, hand = found[0][0], found[0][4]
    seats, users, marks = [], [], {}
    for _, seat, user, profile, _, *mark in found:
        if seat is None:
            continue  # a match without seats (only ever one made by hand in the admin)
        if mark:
            marks[seat.position] = mark[0][0]
        if user is not None:
            users.append(user)
        seat_at_table(seat, match, user, profile)
        seats.append(seat)
    offer_users(users)
    # A few rows sort faster in Python than an ORDER BY is parsed.
    seats.sort(key=lambda seat: seat.position)
    people = ",".join(marks[seat.position] for seat in seats) if marks else None
    return Locked(match, seats, hand, people)


def seat_at_table(seat: Seat, match: Match, user, profile: Profile | None) -> None:
    """Tie a seat to its match and user, and the user to its profile, as select_related does.

    A user without a profile caches "none", so that asking for it raises DoesNotExist
    instead of querying.
    """
    if user is not None:
        user.__class__.profile.related.set_cached_value(user, profile)
    Seat.user.field.set_cached_value(seat, user)
    Seat.match.field.set_cached_value(seat, match)
