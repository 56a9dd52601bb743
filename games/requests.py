"""The type of a request that `login_required` let through, as django-stubs advises."""

from django.contrib.auth.models import User
from django.http import HttpRequest


class AuthenticatedHttpRequest(HttpRequest):
    """A request whose user is signed in (checked by `login_required`, not by this class)."""

    user: User
