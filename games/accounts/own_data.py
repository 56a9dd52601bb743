"""A player's own data: download all of it, or delete the account.

The file holds what `games/presenters/player_data.py` gathers, each match as the player may
download it from the match itself; deleting is `games/accounts/deletion.py`, confirmed by the
account's password.
"""

from __future__ import annotations

import json
import re

from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from games.accounts.deletion import delete_account as delete
from games.accounts.forms import DeleteAccountForm
from games.lib import clock
from games.lib.requests import AuthenticatedHttpRequest
from games.presenters.player_data import player_data

# A form sent back with errors is a client error, as on the profile page.
BAD_INPUT = 400
UNSAFE_IN_FILENAME = re.compile(r"[^A-Za-z0-9@.+_-]")


@never_cache
@login_required
@require_GET
def download_data(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Download everything the site keeps of the player, as one JSON file."""
    text = json.dumps(player_data(request.user), indent=2, ensure_ascii=False) + "\n"
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    # A username may hold any letter: the header keeps to ASCII, the rest becomes "_".
    username = UNSAFE_IN_FILENAME.sub("_", request.user.get_username())
    filename = f"hearts-data-{username}-{clock.now():%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Ask for the password, then delete the account and sign out everywhere."""
    form = DeleteAccountForm(request.user, request, request.POST or None)
    if request.method != "POST":
        return render(request, "accounts/delete_account.html", {"form": form})
    if not form.is_valid():
        return render(request, "accounts/delete_account.html", {"form": form}, status=BAD_INPUT)
    delete(request.user)
    logout(request)
    return render(request, "accounts/account_deleted.html")
