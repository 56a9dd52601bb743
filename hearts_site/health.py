"""A trivial endpoint for load balancers and uptime checks (and the HTTP benchmark's baseline)."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@never_cache
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Answer "ok" without touching the database."""
    return HttpResponse("ok", content_type="text/plain")
