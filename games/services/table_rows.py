"""The rows a move reads: the locked match, its seats with their names, and the hand in play.

Every move reads these three, so they are plain SQL (see `games.rows`); what they return is
what the querysets they replace returned: `Match.objects.select_for_update().get(pk=...)`,
the seats with `select_related("user__profile")` limited to the names, and the hand without
its deal (the snapshot already holds the cards).
"""

from functools import cache

from django.contrib.auth import get_user_model

from games import rows
from games.models import Hand, Match, Profile, Seat

SEAT_FIELDS = [
    "match_id", "position", "user_id", "controller", "bot_name", "resigned", "to_act",
    "waiting_since", "final_total", "rank",
]  # fmt: skip
HAND_FIELDS = ["match_id", "number", "next_seq", "finished_at"]


@cache
def _match() -> rows.Columns:
    return rows.Columns(Match, alias="m")


@cache
def _seats() -> tuple[rows.Columns, rows.Columns, rows.Columns]:
    return (
        rows.Columns(Seat, SEAT_FIELDS, alias="s"),
        rows.Columns(get_user_model(), ["username"], alias="u"),
        rows.Columns(Profile, ["user_id", "display_name"], alias="p"),
    )


@cache
def _hand() -> rows.Columns:
    return rows.Columns(Hand, HAND_FIELDS, alias="h")


def lock_match(match_id: int) -> Match | None:
    """Lock the match row until the transaction ends and return it (None if there is none)."""
    return rows.by_pk(_match(), match_id, lock=True)


def seats_and_hand(match: Match) -> tuple[list[Seat], Hand | None]:
    """Return the seats in order, each with what its name needs, and the hand in play.

    One query: the hand comes joined to every seat's row (a move reads both once it holds
    the lock, so one round trip serves where two did). Before the first deal there is no hand.
    """
    with_hand = match.hand_no > 0
    seat_columns, user_columns, profile_columns = _seats()
    User = get_user_model()  # noqa: N806 (a model class)
    columns = [seat_columns, user_columns, profile_columns]
    joins = (
        f"FROM {rows.table(Seat)} s "
        f"LEFT JOIN {rows.table(User)} u ON u.{rows.pk_column(User)} = s.user_id "
        f"LEFT JOIN {rows.table(Profile)} p ON p.user_id = s.user_id "
    )
    params: list = []
    if with_hand:
        columns.append(_hand())
        joins += f"LEFT JOIN {rows.table(Hand)} h ON h.match_id = s.match_id AND h.number = %s "
        params.append(match.hand_no)
    found = rows.select(columns, joins + "WHERE s.match_id = %s", [*params, match.pk])
    seats = []
    for seat, user, profile, *_ in found:
        if user is not None:
            # As select_related caches them: a user without a profile caches "none", so that
            # asking for it raises DoesNotExist instead of querying.
            user.__class__.profile.related.set_cached_value(user, profile)
        Seat.user.field.set_cached_value(seat, user)
        Seat.match.field.set_cached_value(seat, match)
        seats.append(seat)
    hand = found[0][3] if with_hand and found else None
    # A few rows sort faster in Python than an ORDER BY is parsed.
    return sorted(seats, key=lambda seat: seat.position), hand
