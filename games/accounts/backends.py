"""Signing in with a username and password, and finding the signed-in user on each request."""

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

from django.contrib import auth
from django.contrib.auth import backends, get_user_model
from django.utils.crypto import constant_time_compare

from games import rows

# Sessions record the path of the backend that signed them in; `settings` lists this one.
PATH = "games.accounts.backends.ModelBackend"

# Full user rows that a move's locked read brought along (the seated players), by id, while
# that move's block is open (`users_read_with_table`); None outside any such block.
_read_with_table: ContextVar[dict[int, object] | None] = ContextVar(
    "users_read_with_table", default=None
)


@cache
def user_columns() -> rows.Columns:
    """Return every column of the user model, under the alias `u`."""
    return rows.Columns(get_user_model(), alias="u")


@contextmanager
def users_read_with_table() -> Iterator[None]:
    """Within this block, find the signed-in user among the users read with the table.

    A move reads its seats' users in the query that locks the match; the player making the
    move is one of them, so their request need not read their row again. Outside the block
    (and in the next request, which may run in the same thread and context) users are read
    as usual, so a row is never used beyond the transaction that read it.
    """
    token = _read_with_table.set({})
    try:
        yield
    finally:
        _read_with_table.reset(token)


def offer_users(users: Iterable) -> None:
    """Note users read in full inside a `users_read_with_table` block (ignored elsewhere)."""
    known = _read_with_table.get()
    if known is not None:
        known.update((user.pk, user) for user in users)


class ModelBackend(backends.ModelBackend):
    """Django's model backend, reading the signed-in user of each request in plain SQL.

    Every signed-in request loads its user; through the ORM that costs a query built anew each
    time, several times the cost of the query itself (see `games.rows`). Inside a move, the
    row comes from the move's own locked read instead (`users_read_with_table`). Passwords,
    permissions, the session's check against the password and the checks on inactive users
    are Django's own, whichever way the row was read.
    """

    def get_user(self, user_id):
        known = _read_with_table.get()
        user = known.get(user_id) if known else None
        if user is None:
            user = rows.by_pk(user_columns(), user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


# What the session of the move being made says, while its view runs (`session_claim`):
# the user's id as stored, the hash of their password it was signed in with, the backend;
# and, if its data was taken from this process's memory unread, (its key, its row's data).
_claim: ContextVar[tuple | None] = ContextVar("move_session_claim", default=None)


@contextmanager
def session_claim(session) -> Iterator[None]:
    """Within this block, `session_accepts` checks users against this session."""
    known_row = getattr(session, "known_row", None)
    claim = (
        session.get(auth.SESSION_KEY),
        session.get(auth.HASH_SESSION_KEY),
        session.get(auth.BACKEND_SESSION_KEY),
        (session.session_key, known_row) if known_row is not None else None,
    )
    token = _claim.set(claim)
    try:
        yield
    finally:
        _claim.reset(token)


def session_accepts(users: Iterable) -> bool:
    """Say whether the session's user is among these, and Django's check would pass on them.

    For users copied from an earlier transaction (`games.services.kept_tables`), before
    they are offered (`offer_users`). Django checks the session against the user it finds,
    and on failure flushes it, signing the person out. A copy may be out of date (a
    password changed since): it must never be the one that fails. So it stands for the user
    only when the check passes on it; the move's transaction then checks that the rows are
    still the ones copied.
    """
    claim = _claim.get()
    if claim is None or claim[2] != PATH or not claim[1]:
        return False
    user_id, session_hash, _, _ = claim
    found = next((user for user in users if str(user.pk) == str(user_id)), None)
    if found is None or not ModelBackend().user_can_authenticate(found):
        return False
    return constant_time_compare(session_hash, found.get_session_auth_hash())


def unread_session() -> tuple[str, str] | None:
    """Return the claiming session's key and row data if it was taken from memory, unread.

    Such a session stands only in a transaction that checks its row (`games_expect_session`).
    """
    claim = _claim.get()
    return claim[3] if claim is not None else None
