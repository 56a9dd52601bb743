"""Tournament pages: the list, one tournament, and registering or withdrawing on the site."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from games.lib.requests import AuthenticatedHttpRequest
from games.models import Entry, Tournament, TournamentStatus
from games.presenters.tournament import tournament_context
from games.services import ActionRefused
from games.services import tournaments as tours

SHOWN_STATUSES = (
    TournamentStatus.REGISTRATION,
    TournamentStatus.RUNNING,
    TournamentStatus.FINISHED,
)


def _visible(request: HttpRequest, slug: str) -> Tournament:
    """Return the tournament; a draft is shown to staff only, and is a 404 to anyone else."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if tournament.status == TournamentStatus.DRAFT and not request.user.is_staff:
        raise Http404(gettext("There is no such tournament."))
    return tournament


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    """List tournaments by status: open for registration, running, finished."""
    tournaments = Tournament.objects.order_by("-created_at")
    groups = [
        (label, [t for t in tournaments if t.status == status])
        for status, label in (
            (TournamentStatus.REGISTRATION, gettext("Open for registration")),
            (TournamentStatus.RUNNING, gettext("Running")),
            (TournamentStatus.FINISHED, gettext("Finished")),
        )
    ]
    if request.user.is_staff:
        drafts = [t for t in tournaments if t.status == "draft"]
        groups.insert(0, (gettext("Drafts (staff only)"), drafts))
    return render(request, "games/tournament_list.html", {"nav": "tournaments", "groups": groups})


def _page(
    request: HttpRequest, tournament: Tournament, status: int = 200, error: str = ""
) -> HttpResponse:
    context = tournament_context(tournament, request.user)
    context.update(nav="tournaments", error=error)
    return render(request, "games/tournament.html", context, status=status)


@require_GET
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Show a tournament: entrants, rounds and tables with their matches, and the standings."""
    return _page(request, _visible(request, slug))


def _act(
    request: AuthenticatedHttpRequest,
    slug: str,
    service: Callable[[User, int], Entry],
    done: str,
) -> HttpResponse:
    tournament = _visible(request, slug)
    try:
        service(request.user, tournament.pk)
    except ActionRefused as refusal:
        tournament.refresh_from_db()
        return _page(request, tournament, status=refusal.status, error=refusal.message)
    messages.success(request, done % {"name": tournament.name})
    return redirect(tournament)


@login_required
@require_POST
def register(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Enter the signed-in player in the tournament while registration is open."""
    return _act(request, slug, tours.register, gettext("You are registered for %(name)s."))


@login_required
@require_POST
def withdraw(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Withdraw the signed-in player while registration is open."""
    return _act(request, slug, tours.withdraw, gettext("You have withdrawn from %(name)s."))
