"""Looking back at a match: this hand's tricks so far, and a finished hand's record and replay.

Who may see what is `games.access`'s to say: the tricks of the hand in play are public to
whoever may look at the match (R6.3), unless the table is sealed to them (`is_sealed`); a
hand's whole record, and every step of its replay, is for its players once it is over and for
everyone once the match's deals are revealed, never for anyone the table is sealed to
(`may_see_hand_record`). Anything else is a 404, as for a match that does not exist.
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games import engine
from games.access import is_sealed, may_see_hand_record, viewable_match_or_404
from games.forms import ReplayStepForm
from games.lib.requests import HtmxHttpRequest
from games.models import Hand, MatchStatus
from games.presenters.review import hand_record, hand_so_far, replay_frame
from games.presenters.table import engine_view, load_seats, viewer_seat


@never_cache
@login_required
@require_GET
def tricks_so_far(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Show every trick of the hand in play: who led, each card, who won, the points (R6.3)."""
    match = viewable_match_or_404(request.user, pk)
    seats = load_seats(match)
    me = viewer_seat(seats, request.user)
    view = engine_view(match, me)
    if view is None or match.status == MatchStatus.OPEN:
        raise Http404(gettext("This match has not started: no card has been played yet."))
    if me is None and is_sealed(request.user, match, seats):
        raise Http404(
            gettext("Other tables are playing the same deals: its tricks are hidden for now.")
        )
    context = {"match": match, "view": view, **hand_so_far(seats, me, view)}
    return render(request, "games/tricks.html", context)


@never_cache
@login_required
@require_GET
def hand_review(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Show a hand's whole record and one step of its replay (`?step=`), every hand face up."""
    match = viewable_match_or_404(request.user, pk)
    hand = Hand.objects.filter(match=match, number=number).first()
    seats = load_seats(match)
    if hand is None or not may_see_hand_record(request.user, match, hand, seats):
        raise Http404(gettext("There is no such hand to look at, or not yet."))
    me = viewer_seat(seats, request.user)
    try:
        frame = replay_frame(match, hand, seats, me, ReplayStepForm(request.GET).step_or_start())
    except engine.EngineError as exc:  # a log that breaks the rules cannot be shown as played
        raise Http404(
            gettext("This hand's record cannot be replayed: %(reason)s") % {"reason": exc}
        ) from exc
    context = {"match": match, "hand": hand, **frame}
    if request.htmx:
        return render(request, "games/hand_review.html#replay", context)
    hands = list(
        Hand.objects.filter(match=match, number__in=(number - 1, number + 1)).values_list(
            "number", "finished_at"
        )
    )
    context.update(
        record=hand_record(match, hand, seats, me),
        previous_hand=number - 1 if any(n == number - 1 for n, _ in hands) else None,
        next_hand=number + 1 if any(n == number + 1 and f for n, f in hands) else None,
    )
    return render(request, "games/hand_review.html", context)
