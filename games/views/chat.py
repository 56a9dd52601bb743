"""The match's chat: its region, or only the messages a page lacks (fetched by htmx when the
socket says a room has news), and the posts that send a message and mute or unmute its author.

Each answers the chat region for htmx, or goes back to the match page without it. A refusal
answers its status (400, 403, 429) with the reason in the region, or on the page; a match the
viewer may not see is a 404, as the match page is.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap

from games import services
from games.access import viewable_match_or_404
from games.forms import ChatForm, MuteForm, ReportForm, first_error
from games.lib.requests import AuthenticatedHttpRequest
from games.presenters.chat import chat_news, chat_view
from games.services import chat
from games.services.errors import TooSoon
from games.views.matches import TEMPLATE, match_page_context

REGION = "games/_chat.html"
NEWS = "games/_chat_news.html"
# The largest message id taken from `?after=`: a bigger one is no message's (and no database's).
MOST_ID = 2**63 - 1


def _region(
    request: AuthenticatedHttpRequest,
    pk: int,
    *,
    error: str = "",
    done: str = "",
    status: int = 200,
) -> HttpResponse:
    match = viewable_match_or_404(request.user, pk)
    context = {
        "chat": chat_view(match, request.user),
        "chat_error": error,
        "chat_done": done,
        "fragment": True,
    }
    return render(request, REGION, context, status=status)


@never_cache
@login_required
@require_GET
def chat_region(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The chat region as this viewer may read it (empty for a table with no chat for them).

    Asked by htmx for what came `after` the newest message a page shows (its id): only the
    newer messages this viewer reads, appended to their rooms out of band, the region left as
    it is; the whole region when more came than a page shows, or `after` is no message id.
    """
    after = _after(request)
    if after is None or not request.htmx:
        return _region(request, pk)
    match = viewable_match_or_404(request.user, pk)
    news = chat_news(match, request.user, after)
    if news is None:
        return _region(request, pk)
    return reswap(render(request, NEWS, {"news": news, "fragment": True}), "none")


def _after(request: HttpRequest) -> int | None:
    """The message id in `?after=`; None if missing or none (not digits, zero, too big)."""
    raw = request.GET.get("after", "")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(MOST_ID)):
        return None
    after = int(raw)
    return after if 0 < after <= MOST_ID else None


def _refused(
    request: AuthenticatedHttpRequest, pk: int, refusal: services.ActionRefused
) -> HttpResponse:
    if isinstance(refusal, services.NotFound):
        raise Http404(refusal.message)
    if request.htmx:
        response = _region(request, pk, error=refusal.message, status=refusal.status)
    else:
        match = viewable_match_or_404(request.user, pk)
        messages.error(request, refusal.message)
        response = render(
            request, TEMPLATE, match_page_context(request, match), status=refusal.status
        )
    if isinstance(refusal, TooSoon):
        response["Retry-After"] = str(refusal.retry_after)
    return response


def _done(request: AuthenticatedHttpRequest, pk: int, said: str = "") -> HttpResponse:
    if request.htmx:
        return _region(request, pk, done=said)
    if said:
        messages.success(request, said)
    return redirect(reverse("match", args=[pk]) + "#chat")


@never_cache
@login_required
@require_POST
def say(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Send a phrase or free text to the room the viewer writes in."""
    form = ChatForm(request.POST)
    try:
        if not form.is_valid():
            viewable_match_or_404(request.user, pk)  # an outsider hears "not found" first
            raise services.BadInput(first_error(form))
        data = form.cleaned_data
        chat.send(request.user, pk, preset=data["preset"], text=data["text"])
    except services.ActionRefused as refusal:
        return _refused(request, pk, refusal)
    return _done(request, pk)


def _mute_or_unmute(request: AuthenticatedHttpRequest, pk: int, *, mute: bool) -> HttpResponse:
    viewable_match_or_404(request.user, pk)
    form = MuteForm(request.POST)
    try:
        if not form.is_valid():
            raise services.BadInput(first_error(form))
        (chat.mute if mute else chat.unmute)(request.user, form.cleaned_data["name"])
    except services.ActionRefused as refusal:
        return _refused(request, pk, refusal)
    return _done(request, pk)


@never_cache
@login_required
@require_POST
def mute(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Hide a person's messages from the viewer, in every match."""
    return _mute_or_unmute(request, pk, mute=True)


@never_cache
@login_required
@require_POST
def unmute(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Show a muted person's messages again."""
    return _mute_or_unmute(request, pk, mute=False)


@never_cache
@login_required
@require_POST
def report(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Tell staff about a message."""
    viewable_match_or_404(request.user, pk)
    form = ReportForm(request.POST)
    try:
        if not form.is_valid():
            raise services.BadInput(first_error(form))
        chat.report(request.user, pk, form.cleaned_data["message"])
    except services.ActionRefused as refusal:
        return _refused(request, pk, refusal)
    return _done(request, pk, gettext("Thank you: staff will read that message."))
