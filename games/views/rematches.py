"""Playing again: the answers to a finished match's "Play again", and *Your turn*'s "Play now".

Plain form posts from full pages (never from a region htmx swaps), each calling one service and
redirecting: to the new match once it has started, else back to the finished one.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import presenters, services
from games.access import viewable_match_or_404
from games.lib.requests import AuthenticatedHttpRequest
from games.models import Match
from games.services import play_now as play_now_service
from games.services import rematches


def _refused(
    request: AuthenticatedHttpRequest, pk: int, refusal: services.ActionRefused
) -> HttpResponse:
    """Answer a refusal on the finished match's page, with its status and reason."""
    if isinstance(refusal, services.NotFound):
        raise Http404(refusal.message)
    match = viewable_match_or_404(request.user, pk)  # an outsider of a private match: 404
    messages.error(request, refusal.message)
    context = presenters.match_context(match, request.user)
    return render(request, "games/match.html", context, status=refusal.status)


def _started(request: AuthenticatedHttpRequest, rematch: Match) -> HttpResponse:
    messages.success(request, gettext("The rematch has started."))
    return redirect(rematch)


@never_cache
@login_required
@require_POST
def play_again(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Accept the offer to play the finished match again; the last yes starts it."""
    try:
        rematch = rematches.accept(request.user, pk)
    except services.ActionRefused as refusal:
        return _refused(request, pk, refusal)
    if rematch is not None:
        return _started(request, rematch)
    messages.success(request, gettext("You will play again: waiting for the others."))
    return redirect("match", pk=pk)


@never_cache
@login_required
@require_POST
def no_thanks(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Decline the offer: a bot takes the seat if the others play again."""
    try:
        rematches.decline(request.user, pk)
    except services.ActionRefused as refusal:
        return _refused(request, pk, refusal)
    messages.success(request, gettext("You will not play again; a bot can take your seat."))
    return redirect("match", pk=pk)


@never_cache
@login_required
@require_POST
def rematch_with_bots(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Start the rematch now, bots in the seats of those who have not accepted."""
    try:
        rematch = rematches.start_with_bots(request.user, pk)
    except services.ActionRefused as refusal:
        return _refused(request, pk, refusal)
    return _started(request, rematch)


@never_cache
@login_required
@require_POST
def play_now(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Start a match against bots like the player's last one, and go to it."""
    try:
        match = play_now_service.play_now(request.user)
    except services.ActionRefused as refusal:
        messages.error(request, refusal.message)
        return redirect("home")
    return redirect(match)
