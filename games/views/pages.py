"""The site's main pages: the welcome page, a player's matches, the lobby and invite links."""

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.access import holds_seat, may_view
from games.challenge_form import NameQueryForm
from games.forms import CreateMatchForm, JoinForm
from games.lib.requests import AuthenticatedHttpRequest
from games.models import Match, MatchStatus, Seat
from games.presenters import challenges as challenges_presenter
from games.services import people

# A form sent back with errors is a client error: say so with 400, not 200.
BAD_INPUT = 400
RECENTLY_FINISHED = 10
IN_PLAY_LISTED = 20  # the lobby's matches to watch, the latest moved first


def _seats_in_order(lookup: str) -> Prefetch[str, QuerySet[Seat]]:
    """Prefetch a match's seats in order, with what their names need."""
    return Prefetch(
        lookup, queryset=Seat.objects.select_related("user__profile").order_by("position")
    )


def _my_seats(user: User) -> QuerySet[Seat]:
    return (
        Seat.objects.filter(user=user)
        .select_related("match__tournament_table__round__tournament")
        .prefetch_related(_seats_in_order("match__seats"))
    )


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Show visitors what the site is, and players the matches that wait for them."""
    if not request.user.is_authenticated:
        return render(request, "pages/welcome.html")
    seats = _my_seats(request.user)
    active = seats.filter(match__status=MatchStatus.ACTIVE, resigned=False)
    context = {
        "nav": "your-turn",
        # The nearest deadline first; untimed matches after them, the longest waiting first.
        "waiting": active.filter(to_act=True).order_by(
            F("deadline").asc(nulls_last=True), "waiting_since", "match_id"
        ),
        "playing": active.filter(to_act=False).order_by("-match__updated_at"),
        "finished": seats.filter(match__status=MatchStatus.FINISHED).order_by(
            "-match__finished_at"
        )[:RECENTLY_FINISHED],
        "open": seats.filter(match__status=MatchStatus.OPEN).order_by("-match__created_at"),
        "challenges": challenges_presenter.received(request.user, waiting_only=True),
    }
    return render(request, "pages/your_turn.html", context)


def _lobby(
    request: AuthenticatedHttpRequest, form: CreateMatchForm, status: int = 200
) -> HttpResponse:
    empty = Q(seats__user__isnull=True, seats__controller=Seat.Controller.PERSON)
    open_matches = (
        Match.objects.filter(status=MatchStatus.OPEN, is_private=False)
        .annotate(
            free_seats=Count("seats", filter=empty),
            is_mine=Exists(Seat.objects.filter(match=OuterRef("pk"), user=request.user)),
        )
        .select_related("created_by__profile")
        .prefetch_related(_seats_in_order("seats"))
        .order_by("-created_at")
    )
    in_play = (
        Match.objects.filter(status=MatchStatus.ACTIVE, is_private=False)
        .select_related("tournament_table__round__tournament")
        .prefetch_related(_seats_in_order("seats"))
        .order_by("-updated_at")[:IN_PLAY_LISTED]
    )
    context = {"nav": "lobby", "open_matches": open_matches, "in_play": in_play, "form": form}
    # The live script asks for the lists alone when they change (`?part=lists`).
    template = (
        "pages/lobby.html#lists" if request.GET.get("part") == "lists" else "pages/lobby.html"
    )
    return render(request, template, context, status=status)


@login_required
@require_GET
def lobby(request: AuthenticatedHttpRequest) -> HttpResponse:
    """List open matches to join and matches in play to watch, and offer a form to create one.

    A player page's Challenge button comes here with `?name=`, filling in the first name.
    """
    name = NameQueryForm(request.GET).typed()
    return _lobby(request, CreateMatchForm(initial={"invite": [name] if name else []}))


@login_required
@require_POST
def create_match(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Create a match from the lobby form, with the creator in the first seat."""
    form = CreateMatchForm(request.POST)
    if not form.is_valid():
        return _lobby(request, form, status=BAD_INPUT)
    invitees = form.cleaned_data["invite"]
    try:
        if invitees:
            match = services.challenges.create_challenge(
                request.user,
                form.options(),
                invitees,
                form.wait(),
                form.cleaned_data["unanswered"],
            )
        else:
            match = services.create_match(request.user, form.options())
    except services.ActionRefused as refusal:
        form.add_error(None, refusal.message)
        return _lobby(request, form, status=refusal.status)
    if invitees:
        messages.success(
            request, gettext("Your challenge is sent: the match starts when all accept.")
        )
    elif match.status == MatchStatus.OPEN:
        messages.success(
            request, gettext("Your match is open: invite players, add bots, or start it.")
        )
    return redirect(match)


@login_required
@require_GET
def invite(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """Show a private (or public) match reached by its invite link, with a button to join."""
    match = get_object_or_404(Match, invite_code=code)
    if match.status != MatchStatus.OPEN or holds_seat(request.user, match):
        if not may_view(request.user, match):
            # An invite opens a private match only until it starts.
            raise Http404(
                gettext("This match has already started: its invite link no longer opens it.")
            )
        return redirect(match)
    seats = list(match.seats.select_related("user__profile").order_by("position"))
    try:
        people.check_may_sit_with(request.user, [s.user_id for s in seats if s.user_id is not None])
    except services.ActionRefused as refusal:
        return invite_page(request, match, seats, refusal.message, refusal.status)
    return invite_page(request, match, seats)


def invite_page(
    request: HttpRequest,
    match: Match,
    seats: list[Seat] | None = None,
    refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    """Render a match's invite page; with a refusal, say why the player cannot join instead."""
    if seats is None:
        seats = list(match.seats.select_related("user__profile").order_by("position"))
    context = {
        "match": match,
        "seats": seats,
        "form": JoinForm(initial={"invite_code": match.invite_code}),
        "refusal": refusal,
    }
    return render(request, "games/invite.html", context, status=status)


def invited_outsider_match(request: HttpRequest, pk: int, code: str) -> Match | None:
    """Return the private match this invite code opens, if the user may not see it otherwise.

    Such a player knows of the match through its link: a refused join is told to them on its
    invite page, where a match they may not see would otherwise answer "not found".
    """
    # Open only: as on the invite page, the link stops opening the match once it starts.
    match = Match.objects.filter(pk=pk, is_private=True, status=MatchStatus.OPEN).first()
    if match is None or may_view(request.user, match):
        return None
    if not secrets.compare_digest(code.encode(), match.invite_code.encode()):
        return None
    return match
