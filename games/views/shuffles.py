"""A match's shuffle checked in the open: the verification page and the record to download.

Both answer only once the match's deals are revealed (`games.access.deals_revealed`: for a
table sharing its deals, once its round is closed, as the seal lifts); before that, or for a
match dealt before secrets, they refuse with the reason (403 while the secret is still kept,
404 when there never was one) and show at most the commitment.
"""

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.access import viewable_match_or_404
from games.lib.requests import HtmxHttpRequest
from games.presenters.shuffle import NotRevealed, record_json, verification

KEPT = 403  # the secret exists and is kept until the deals it gives are over
NONE = 404  # nothing was committed: there is nothing to verify, ever


def _status(refusal: NotRevealed) -> int:
    return KEPT if refusal.committed else NONE


@never_cache
@login_required
@require_GET
def verify_shuffle(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Show the commitment, the secret and, for every hand, whether its deal came from them."""
    match = viewable_match_or_404(request.user, pk)
    try:
        checked = verification(match)
    except NotRevealed as refusal:
        context = {"match": match, "refusal": refusal.message}
        return render(request, "games/verify.html", context, status=_status(refusal))
    return render(request, "games/verify.html", {"match": match, "checked": checked})


@never_cache
@login_required
@require_GET
def shuffle_record(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Download the record `python -m games.engine.verify` checks, as a JSON file."""
    match = viewable_match_or_404(request.user, pk)
    try:
        record = record_json(match)
    except NotRevealed as refusal:
        return JsonResponse({"error": refusal.message}, status=_status(refusal))
    response = HttpResponse(
        json.dumps(record, indent=2) + "\n", content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}-shuffle.json"'
    return response
