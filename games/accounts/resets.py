"""Asking for a password reset: counted, then left to the background worker.

The request does the same whether or not an account uses the address: it counts the address
and queues one task with it. The worker finds the accounts, counts each, and sends the links
(`games.notifications.tasks.send_password_reset`). So neither the answer nor its timing says
whether the address has an account, and a slow mail server never holds up the page.
"""

from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.db import transaction
from django.http import HttpRequest

from games.accounts.addresses import client_address
from games.lib.limits import within_limit
from games.notifications import tasks


def client_within_limit(request: HttpRequest) -> bool:
    """Count a reset request from this client; say whether it may be served."""
    return within_limit(
        "reset-client",
        client_address(request) or "unknown",
        settings.PASSWORD_RESET_CLIENT_LIMIT,
        settings.PASSWORD_RESET_WINDOW_SECONDS,
    )


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's reset form, queueing the e-mail for the worker instead of sending it."""

    # Django's form takes how to send the mail; the worker decides that, so it takes none.
    def save(self, **kwargs: Any) -> None:  # type: ignore[override]
        """Queue the links for the address, unless it has been asked for too often lately."""
        email = self.cleaned_data["email"].strip()
        allowed = within_limit(
            "reset-address",
            email.lower(),
            settings.PASSWORD_RESET_LIMIT,
            settings.PASSWORD_RESET_WINDOW_SECONDS,
        )
        if allowed:
            transaction.on_commit(lambda: tasks.send_password_reset.enqueue(email))
