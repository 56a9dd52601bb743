"""Signing in for the moves, whose user is read together with the table they change."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.middleware import get_user
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject

from games.accounts.backends import session_claim
from games.services import kept_tables


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

    When the match's table is kept, the session itself may be taken from this process's
    memory, unread (`hearts_site.sessions`): the move's transaction then checks its row too,
    and if that fails, the move is made again with the session read (`read_again`).
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        use_known = getattr(request.session, "use_known", None)
        if use_known is not None and kept_tables.holds(kwargs["pk"], request.POST.get("version")):
            use_known()
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

    # The session middleware leaves the session unread for this view to decide.
    wrapper.may_use_known_session = True  # type: ignore[attr-defined]
    return wrapper


@contextmanager
def read_again(request: HttpRequest) -> Iterator[None]:
    """Within this block, the request's session and user are found anew, from their rows.

    For a move made again after one started from a kept copy of its table (see
    `games.services.kept_tables`), whose user may have come from that copy and whose
    session from this process's memory.
    """
    read_session = getattr(request.session, "read_again", None)
    if read_session is not None:
        read_session()
    request.__dict__.pop("_cached_user", None)
    request.user = SimpleLazyObject(lambda: get_user(request))
    with session_claim(request.session):
        yield
