"""The site's main pages: the welcome page, a player's matches, and the lobby."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Show visitors what the site is, and players the matches that wait for them."""
    if not request.user.is_authenticated:
        return render(request, "pages/welcome.html")
    return render(request, "pages/your_turn.html", {"nav": "your-turn"})


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """List open matches to join."""
    return render(request, "pages/lobby.html", {"nav": "lobby"})
