"""Challenges by name: the Challenges page, answering and cancelling, and the name suggestions.

The challenge itself is made by the lobby's form (`views.pages.create_match`).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.challenge_form import NameQueryForm
from games.lib.requests import AuthenticatedHttpRequest
from games.models import MatchStatus
from games.presenters import challenges as challenges_presenter
from games.services import ActionRefused, Changed, challenges

NO_SUGGESTIONS: list[str] = []


@never_cache
@login_required
@require_GET
def challenge_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """List the challenges received (to accept or decline) and sent (each answer, to cancel)."""
    return _list_page(request)


def _list_page(request: AuthenticatedHttpRequest, status: int = 200) -> HttpResponse:
    context = {
        "nav": "challenges",
        "received": challenges_presenter.received(request.user),
        "sent": challenges_presenter.sent(request.user),
    }
    return render(request, "games/challenges.html", context, status=status)


@login_required
@require_POST
def accept(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Take the seat kept for the player; to the match if it started, else back to the list."""
    try:
        changed = challenges.accept(request.user, pk)
    except ActionRefused as refusal:
        return _refused(request, refusal)
    return _after_accepting(request, changed)


@login_required
@require_POST
def decline(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Decline a challenge."""
    try:
        challenges.decline(request.user, pk)
    except ActionRefused as refusal:
        return _refused(request, refusal)
    messages.success(request, gettext("You declined the challenge."))
    return redirect("challenges")


@login_required
@require_POST
def cancel(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Call off a challenge one sent, before its match starts."""
    try:
        challenges.cancel(request.user, pk)
    except ActionRefused as refusal:
        return _refused(request, refusal)
    messages.success(request, gettext("You called the challenge off."))
    return redirect("challenges")


@never_cache
@login_required
@require_GET
def name_suggestions(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Answer the name inputs' htmx request with the options of their shared suggestions list."""
    typed = NameQueryForm.of_query(request.GET).typed()
    names = challenges_presenter.name_suggestions(request.user, typed) if typed else NO_SUGGESTIONS
    return render(request, "games/_name_suggestions.html", {"names": names})


def _after_accepting(request: AuthenticatedHttpRequest, changed: Changed) -> HttpResponse:
    if changed.match.status == MatchStatus.OPEN:
        messages.success(
            request, gettext("You accepted: the match starts when every seat is taken.")
        )
    return redirect(changed.match)


def _refused(request: AuthenticatedHttpRequest, refusal: ActionRefused) -> HttpResponse:
    """Say why on the Challenges page, with the refusal's status."""
    messages.error(request, refusal.message)
    return _list_page(request, status=refusal.status)
