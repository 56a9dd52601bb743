"""A match to take away: its record (JSON) and its score sheet (CSV), for the viewer asking.

Both answer as the score sheet does: 404 for a match that does not exist or is private to
others, and then only what this viewer may see (`games/presenters/exports.py`).
"""

import csv
import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.access import viewable_match_or_404
from games.lib.requests import HtmxHttpRequest
from games.presenters import exports


def _attachment(response: HttpResponse, filename: str) -> HttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@never_cache
@login_required
@require_GET
def match_record(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Download the match's record, which `python -m games.engine.replay_check` replays."""
    match = viewable_match_or_404(request.user, pk)
    record = exports.match_record(match, request.user)
    text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    return _attachment(response, f"match-{match.pk}.json")


@never_cache
@login_required
@require_GET
def scores_csv(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Download the score sheet as CSV: a row per hand, three columns per seat."""
    match = viewable_match_or_404(request.user, pk)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    csv.writer(response).writerows(exports.score_rows(match, request.user))
    return _attachment(response, f"match-{match.pk}-scores.csv")
