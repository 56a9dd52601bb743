"""Signing in for the moves, whose user is read together with the table they change."""

from collections.abc import Callable
from functools import wraps

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.middleware import get_user
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject

from games.accounts.backends import session_claim


def login_required_for_move(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Require a signed-in player, as `login_required` does, without reading the user first.

    A session that names no user is sent to sign in at once. Otherwise the view runs, and the
    user is read (and checked against the session, as Django always checks it) when the move
    first asks who is playing: from the rows its locked read brought along
    (`games.accounts.backends.users_read_with_table`), saving a query on every card. A user
    who fails that check (an account deactivated, a password changed since this session
    signed in) has moved nothing, since nobody signed in holds a seat; their session is
    flushed, as Django does it, and the answer is the sign-in page. A move that starts from
    a kept copy of its table checks the session against the copy first (`session_claim`).
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if SESSION_KEY not in request.session:
            return redirect_to_login(request.get_full_path())
        try:
            with session_claim(request.session):
                response = view(request, *args, **kwargs)
        except Http404:
            # No such match: still, someone who is not signed in learns nothing but that.
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return response

    return wrapper


def read_user_again(request: HttpRequest) -> None:
    """Forget who the request's user was found to be: the next use finds them anew.

    For a move made again after one started from a kept copy of its table (see
    `games.services.kept_tables`), whose user may have come from that copy.
    """
    request.__dict__.pop("_cached_user", None)
    request.user = SimpleLazyObject(lambda: get_user(request))
