"""The types of the requests the views receive, as django-stubs and django-htmx advise."""

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request seen by django-htmx's middleware: `htmx` says whether htmx sent it."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request whose user is signed in (checked by `login_required`, not by this class)."""

    user: User
