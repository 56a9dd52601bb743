"""The match page, its partials, and every action taken at the table.

Every view here is `never_cache` (Cache-Control: private, no-store): any answer may show the
viewer's hand, which no cache, shared or the browser's, may keep.

Each action is a plain form POST that redirects back to the match page; sent by htmx, it is
answered with the `hand` region plus out-of-band copies of the other regions it changed. A
refused action answers with the refusal's status (400, 403, 404, 409) and the reason in the page.
"""

from collections.abc import Callable, Iterable
from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games import presenters, services
from games.access import may_view, viewable_match_or_404
from games.forms import (
    BotSeatForm,
    HandOverForm,
    JoinForm,
    MoonForm,
    PassForm,
    PlayForm,
    SeatForm,
    first_error,
)
from games.lib.requests import AuthenticatedHttpRequest
from games.models import Match, MatchStatus, Seat
from games.presenters.chat import chat_view
from games.services import nudges, stalled
from games.services.errors import TooSoon
from games.views.pages import invite_page, invited_outsider_match

TEMPLATE = "games/match.html"
# Regions that change only when a match ends: its heading (the status) and the resign form.
ENDED_REGIONS = ("head", "leave")
BAD_INPUT = 400
NOTHING_NEW = 204
# Names the version an answer's regions show, so a live page knows what it has caught up to.
VERSION_HEADER = "X-Match-Version"


def _watched(request: AuthenticatedHttpRequest, match: Match | None) -> Match:
    """Return the match as read, or 404 if there is none or this user may not look at it.

    A private match is a 404 to anyone but its players and staff, never a 403: its id alone
    must not tell an outsider that it exists.
    """
    if match is None or not may_view(request.user, match):
        raise Http404(gettext("There is no such match."))
    return match


def _unchanged(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse | None:
    """Answer a page's "anything new?" with 204 if the match is at the version it shows.

    Open tabs ask every few seconds, and nearly always hear "nothing": the answer reads the
    version alone, not the whole row, whose snapshot and deals (JSON) it would never show.
    """
    since = request.GET.get("since")
    if since is None:
        return None
    match = _watched(request, Match.objects.only("version", "is_private").filter(pk=pk).first())
    if since != str(match.version):
        return None
    return HttpResponse(status=NOTHING_NEW, headers={VERSION_HEADER: str(match.version)})


def _seats(request: AuthenticatedHttpRequest, pk: int) -> int:
    """Return how many seats the match has, which bound a seat's position in its forms.

    Read before the form, so that a seat beyond this table is the form's refusal (400), and
    a match this user may not see is a 404 whatever the form holds.
    """
    return viewable_match_or_404(request.user, pk).players


def _context(
    request: AuthenticatedHttpRequest,
    match: Match,
    **extra: Any,  # presenters.match_context's keyword arguments
) -> dict[str, object]:
    context = presenters.match_context(match, request.user, **extra)
    if context["is_player"] and match.status == MatchStatus.OPEN:  # shown while seats are open
        path = reverse("invite", args=[match.invite_code])
        context["invite_url"] = request.build_absolute_uri(path)
    return context


def _regions(
    context: dict[str, object],
    *,
    main: str | None = "hand",
    also: Iterable[str] = ("table", "status"),
    status: int = 200,
) -> HttpResponse:
    """Render one region for htmx to swap, and out-of-band copies of the others.

    The regions need nothing from the request (no context processor's values, and no CSRF
    field: see `games/_csrf_field.html`), so they are rendered from the match's context alone.
    """
    if cast(Match, context["match"]).is_over:
        # An answer showing the match over can be the first the page hears of it (the last
        # card's own answer, say): the heading and the resign form must not say "in play".
        also = (*also, *ENDED_REGIONS)
    parts = []
    if main:
        parts.append(render_region(main, context, oob=False))
    for name in also:
        parts.append(render_region(name, context, oob=True))
    return HttpResponse(
        "".join(parts), status=status, headers={VERSION_HEADER: str(context["version"])}
    )


def render_region(name: str, context: dict[str, object], *, oob: bool) -> str:
    """Render one region of the match page (a partial of its template) for htmx to swap.

    `fragment` leaves the forms' CSRF fields out; `oob` marks a copy htmx swaps by its id.
    """
    return render_to_string(f"{TEMPLATE}#{name}", {**context, "fragment": True, "oob": oob})


def match_page_context(
    request: AuthenticatedHttpRequest, match: Match, **extra: Any
) -> dict[str, object]:
    """The whole page's context: its regions', and the chat (a region fetched on its own)."""
    context = _context(request, match, **extra)
    seats = cast(list[Seat], context["seats"])
    return {**context, "chat": chat_view(match, request.user, seats)}


def _page(
    request: AuthenticatedHttpRequest, match: Match, status: int = 200, **extra: Any
) -> HttpResponse:
    return render(request, TEMPLATE, match_page_context(request, match, **extra), status=status)


def _refused(
    request: AuthenticatedHttpRequest,
    match: Match,
    message: str,
    status: int,
    selected: Iterable[str] = (),
) -> HttpResponse:
    """Answer a refused action with its status, the reason, and the table as it stands.

    `match` is read after the refusal: the table shown is the one that refused.
    """
    if request.htmx and match.status != MatchStatus.OPEN:
        context = _context(request, match, selected=selected, error=message)
        return _regions(context, status=status)
    messages.error(request, message)
    return _page(request, match, status=status, selected=selected)


def _act(
    request: AuthenticatedHttpRequest,
    pk: int,
    form: forms.Form,
    action: Callable[[dict[str, Any]], services.Changed],  # the form's cleaned_data
    *,
    selected: Iterable[str] = (),
    done: str = "",
) -> HttpResponse:
    """Validate the form, call one service, then redirect or render the changed regions."""
    if not form.is_valid():
        match = viewable_match_or_404(request.user, pk)
        return _refused(request, match, first_error(form), BAD_INPUT, selected)
    return _answer(request, pk, lambda: action(form.cleaned_data), selected, done)


def _answer(
    request: AuthenticatedHttpRequest,
    pk: int,
    action: Callable[[], services.Changed],
    selected: Iterable[str],
    done: str,
) -> HttpResponse:
    try:
        changed = action()
    except services.NotFound as refusal:
        raise Http404(refusal.message) from None
    except services.ActionRefused as refusal:
        # Refused to an outsider of a private match, the match does not exist.
        match = viewable_match_or_404(request.user, pk)
        return _refused(request, match, refusal.message, refusal.status, selected)
    match = changed.match
    response: HttpResponseBase
    if not request.htmx or match.status == MatchStatus.OPEN:
        response = redirect(match)
    else:
        regions: tuple[str, ...] = ("table", "status")
        # A finished hand (or match) adds to the score sheet.
        if changed.sheet_changed:
            regions += ("scores",)
        response = _regions(_context(request, match, changed=changed), also=regions)
    if done and response.status_code == 302:
        messages.success(request, done)  # once stored: a change made again would say it twice
    return response


@never_cache
@login_required
@require_GET
def match_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Show the table to a player (with their hand) or a spectator (without any hand).

    Asked by htmx, answer every region out of band, for a page catching up after a change;
    with `since` naming the version it shows, answer 204 while nothing has changed.
    """
    if request.htmx and (unchanged := _unchanged(request, pk)) is not None:
        return unchanged
    match = viewable_match_or_404(request.user, pk)
    if request.htmx and match.status != MatchStatus.OPEN:
        context = _context(request, match)
        return _regions(context, main=None, also=("table", "hand", "scores", "status"))
    response = _page(request, match)
    response[VERSION_HEADER] = str(match.version)
    return response


@never_cache
@login_required
@require_GET
def scores(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Show the score sheet and the chart of running totals (R4.1)."""
    match = viewable_match_or_404(request.user, pk)
    context = presenters.match_context(match, request.user)
    if request.htmx:
        return render(request, f"{TEMPLATE}#scores", {**context, "oob": False})
    return render(request, "games/scores.html", context)


@never_cache
@login_required
@require_POST
def play_card(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Play one card (R3)."""
    form = PlayForm(request.POST)
    return _act(
        request,
        pk,
        form,
        lambda data: services.play_card(request.user, pk, data["version"], data["card"]),
    )


@never_cache
@login_required
@require_POST
def pass_cards(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Pass three cards (R2); a refusal keeps the cards the player had ticked."""
    form = PassForm(request.POST)
    return _act(
        request,
        pk,
        form,
        lambda data: services.pass_cards(request.user, pk, data["version"], data["cards"]),
        selected=request.POST.getlist("cards"),
    )


@never_cache
@login_required
@require_POST
def choose_moon(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Choose what shooting the moon does (R4.3)."""
    form = MoonForm(request.POST)
    return _act(
        request,
        pk,
        form,
        lambda data: services.choose_moon(request.user, pk, data["version"], data["option"]),
    )


@never_cache
@login_required
@require_POST
def resign(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Leave a match in play; a bot takes over the seat."""
    return _act(
        request,
        pk,
        forms.Form(request.POST),
        lambda data: services.resign(request.user, pk),
        done=gettext("You have left this match; a bot plays your seat from now on."),
    )


@never_cache
@login_required
@require_POST
def join(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Take an empty seat in an open match."""
    form = JoinForm(request.POST)
    code = form.cleaned_data["invite_code"] if form.is_valid() else ""
    if code and (invited := invited_outsider_match(request, pk, code)) is not None:
        try:
            services.join_match(request.user, pk, code)
        except services.ActionRefused as refusal:
            return invite_page(request, invited, refusal=refusal.message, status=refusal.status)
        messages.success(request, gettext("You have joined this match."))
        return redirect(invited)
    return _act(
        request,
        pk,
        form,
        lambda data: services.join_match(request.user, pk, data["invite_code"]),
        done=gettext("You have joined this match."),
    )


@never_cache
@login_required
@require_POST
def leave(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Give up a seat before the start; the creator leaving cancels the match."""
    match = viewable_match_or_404(request.user, pk)
    try:
        services.leave_match(request.user, pk)
    except services.ActionRefused as refusal:
        return _refused(
            request, viewable_match_or_404(request.user, pk), refusal.message, refusal.status
        )
    gone = (
        gettext("You have cancelled the match.") if match.created_by_id == request.user.pk else None
    )
    messages.success(request, gone or gettext("You have left the match."))
    return redirect("lobby")


@never_cache
@login_required
@require_POST
def add_bot(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Seat a bot of the chosen level in an empty seat."""
    form = BotSeatForm(request.POST, seats=_seats(request, pk))
    return _act(
        request,
        pk,
        form,
        lambda data: services.add_bot(request.user, pk, data["position"], data["level"]),
    )


@never_cache
@login_required
@require_POST
def remove_bot(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Free a bot's seat for a person."""
    form = SeatForm(request.POST, seats=_seats(request, pk))
    return _act(
        request,
        pk,
        form,
        lambda data: services.remove_bot(request.user, pk, data["position"]),
    )


@never_cache
@login_required
@require_POST
def start(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Fill the empty seats with bots and deal the first hand."""
    return _act(
        request,
        pk,
        forms.Form(request.POST),
        lambda data: services.start_match(request.user, pk),
    )


@never_cache
@login_required
@require_POST
def nudge(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Nudge the players the match waits for (once a day per match); htmx gets a short answer."""
    try:
        nudged = nudges.nudge(request.user, pk)
    except services.NotFound as refusal:
        raise Http404(refusal.message) from None
    except services.ActionRefused as refusal:
        # A private match's outsider hears "not found".
        match = viewable_match_or_404(request.user, pk)
        if request.htmx:
            response = _nudge_answer(refusal.message, refusal.status, refused=True)
        else:
            messages.error(request, refusal.message)
            response = _page(request, match, status=refusal.status)
        if isinstance(refusal, TooSoon):
            response["Retry-After"] = str(refusal.retry_after)
        return response
    done = gettext("You nudged %(names)s.") % {"names": gettext(" and ").join(nudged.names)}
    if request.htmx:
        return _nudge_answer(done, 200)
    messages.success(request, done)
    return redirect("match", pk=pk)


def _nudge_answer(message: str, status: int, *, refused: bool = False) -> HttpResponse:
    html = render_to_string("games/_nudge_answer.html", {"message": message, "refused": refused})
    return HttpResponse(html, status=status)


@never_cache
@login_required
@require_POST
def hand_over(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Hand a seat silent for SILENT_SEAT_DAYS in an untimed match to a bot."""
    form = HandOverForm(request.POST, seats=_seats(request, pk))
    return _act(
        request,
        pk,
        form,
        lambda data: stalled.hand_over(request.user, pk, data["position"]),
        done=gettext("A bot plays that seat from now on."),
    )
