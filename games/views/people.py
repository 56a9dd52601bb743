"""Following and blocking players, from their page or the Friends page, and the Friends page."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.forms import BackForm
from games.lib.requests import AuthenticatedHttpRequest
from games.models import display_name_of
from games.presenters import friends as friends_presenter
from games.services import ActionRefused, NotFound, people
from games.views.players import person_page, relation_context

Change = Callable[[User, User], None]


@never_cache
@login_required
@require_GET
def friends(request: AuthenticatedHttpRequest) -> HttpResponse:
    """List whom the player follows (their matches, results, who waits on them) and blocks."""
    context = {"nav": "friends", **friends_presenter.friends_context(request.user)}
    return render(request, "games/friends.html", context)


@login_required
@require_POST
def follow(request: AuthenticatedHttpRequest, name: str) -> HttpResponse:
    """Follow a player."""
    return _change(request, name, people.follow, gettext("You follow %(name)s now."))


@login_required
@require_POST
def unfollow(request: AuthenticatedHttpRequest, name: str) -> HttpResponse:
    """Stop following a player."""
    return _change(request, name, people.unfollow, gettext("You no longer follow %(name)s."))


@login_required
@require_POST
def block(request: AuthenticatedHttpRequest, name: str) -> HttpResponse:
    """Block a player: neither follows the other any more, nor sits down with them by invite."""
    return _change(request, name, people.block, gettext("You have blocked %(name)s."))


@login_required
@require_POST
def unblock(request: AuthenticatedHttpRequest, name: str) -> HttpResponse:
    """Lift one's block of a player."""
    return _change(request, name, people.unblock, gettext("You no longer block %(name)s."))


def _change(
    request: AuthenticatedHttpRequest, name: str, change: Change, done: str
) -> HttpResponse:
    """Make the change; answer htmx with the buttons, a plain form with a page."""
    other = people.person_named(name)
    if other is None:
        return _unknown(request, gettext("There is no player of that name."))
    try:
        change(request.user, other)
    except NotFound as refusal:
        return _unknown(request, refusal.message)
    except ActionRefused as refusal:
        return _answer(request, other, refusal.message, refusal.status)
    message = done % {"name": display_name_of(other)}
    if request.htmx:
        return _buttons(request, other, message, 200)
    messages.success(request, message)
    if BackForm(request.POST).to_friends():
        return redirect("friends")
    return redirect("player", name=display_name_of(other))


def _unknown(request: AuthenticatedHttpRequest, message: str) -> HttpResponse:
    """Say so on the page: the name may have changed since the page showing it was drawn."""
    if request.htmx:
        buttons = {"person": None, "answer": message, "refused": True, "fragment": True}
        return render(request, "games/player.html#relation", buttons, status=404)
    messages.error(request, message)
    page = {"nav": "friends", **friends_presenter.friends_context(request.user)}
    return render(request, "games/friends.html", page, status=404)


def _answer(
    request: AuthenticatedHttpRequest, other: User, message: str, status: int
) -> HttpResponse:
    if request.htmx:
        return _buttons(request, other, message, status, refused=True)
    messages.error(request, message)
    return person_page(request, other, status=status)


def _buttons(
    request: AuthenticatedHttpRequest,
    other: User,
    message: str,
    status: int,
    *,
    refused: bool = False,
) -> HttpResponse:
    """Render the player page's buttons alone, with what just happened beside them."""
    context = {
        "name": display_name_of(other),
        "answer": message,
        "refused": refused,
        "fragment": True,
        **relation_context(request, other),
    }
    return render(request, "games/player.html#relation", context, status=status)
