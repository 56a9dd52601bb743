"""Signing in with a username and password, and finding the signed-in user on each request."""

from functools import cache

from django.contrib.auth import backends, get_user_model

from games import rows

# Sessions record the path of the backend that signed them in; `settings` lists this one.
PATH = "games.accounts.backends.ModelBackend"


@cache
def _user_columns() -> rows.Columns:
    return rows.Columns(get_user_model(), alias="u")


class ModelBackend(backends.ModelBackend):
    """Django's model backend, reading the signed-in user of each request in plain SQL.

    Every signed-in request loads its user; through the ORM that costs a query built anew each
    time, several times the cost of the query itself (see `games.rows`). Passwords, permissions
    and the checks on inactive users are Django's own.
    """

    def get_user(self, user_id):
        user = rows.by_pk(_user_columns(), user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
