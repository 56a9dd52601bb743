"""The rows a move reads: the locked match, its seats with their names, and the hand in play.

Every move reads these three, so they are plain SQL (see `games.rows`), in one query; what
they return is what the querysets they replace returned:
`Match.objects.select_for_update().get(pk=...)`, the seats with
`select_related("user__profile")` (the profile limited to the name), and the hand without its
deal (the snapshot already holds the cards).
"""

from functools import cache

from django.contrib.auth import get_user_model

from games import rows
from games.accounts.backends import offer_users, user_columns
from games.models import Hand, Match, Profile, Seat

SEAT_FIELDS = [
    "match_id", "position", "user_id", "controller", "bot_name", "resigned", "to_act",
    "waiting_since", "final_total", "rank",
]  # fmt: skip
HAND_FIELDS = ["match_id", "number", "next_seq", "finished_at"]


@cache
def _columns() -> tuple[rows.Columns, ...]:
    return (
        rows.Columns(Match, alias="m"),
        rows.Columns(Seat, SEAT_FIELDS, alias="s"),
        # Whole rows: the player making the move is among them (see `offer_users`).
        user_columns(),
        rows.Columns(Profile, ["user_id", "display_name"], alias="p"),
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


def lock_table(match_id: int) -> tuple[Match, list[Seat], Hand | None] | None:
    """Lock the match row until the transaction ends; return it, its seats and its hand.

    One query: the seats (each with its whole user and the name it shows) and the hand in
    play come joined to the locked match row, so that a move reads all it needs, the player
    making it included, in one round trip. The seats come in order; before the first deal
    there is no hand. None if there is no such match.
    """
    match_columns, _, _, _, hand_columns = columns = _columns()
    found = rows.select(
        columns, _from_sql(), [match_id], lock=match_columns, once=[match_columns, hand_columns]
    )
    if not found:
        return None
    match, hand = found[0][0], found[0][4]
    seats, users = [], []
    for _, seat, user, profile, _ in found:
        if seat is None:
            continue  # a match without seats (only ever one made by hand in the admin)
        if user is not None:
            # As select_related caches them: a user without a profile caches "none", so that
            # asking for it raises DoesNotExist instead of querying.
            user.__class__.profile.related.set_cached_value(user, profile)
            users.append(user)
        Seat.user.field.set_cached_value(seat, user)
        Seat.match.field.set_cached_value(seat, match)
        seats.append(seat)
    offer_users(users)
    # A few rows sort faster in Python than an ORDER BY is parsed.
    return match, sorted(seats, key=lambda seat: seat.position), hand
