"""Turn notification e-mails off from the link in any of them, without logging in."""

from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.models import NotificationSettings
from games.models.notifications import EMAILS_OFF
from games.notifications.mail import user_id_from_token

BAD_INPUT = 400
NOT_FOUND = 404


# The signed token is the credential, and mail clients' one-click POST (RFC 8058) carries
# no CSRF token: a forged request would need the token, which only the e-mail holds.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Ask to confirm on GET; turn every notification e-mail off on POST."""
    try:
        user_id = user_id_from_token(token)
    except signing.BadSignature:
        return render(request, "notifications/unsubscribe_invalid.html", status=BAD_INPUT)
    rows = NotificationSettings.objects.filter(user_id=user_id)
    if not rows.exists():
        return render(request, "notifications/unsubscribe_invalid.html", status=NOT_FOUND)
    if request.method == "POST":
        rows.update(**EMAILS_OFF)
        return render(request, "notifications/unsubscribed.html")
    return render(request, "notifications/unsubscribe.html", {"token": token})
