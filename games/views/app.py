"""The site as an installable app: its web app manifest, its service worker, its offline page.

The manifest names the site, its icons (drawn by `games/icons.py`) and where it opens (the
player's "Your turn"). The service worker is served from the site's root, so that it may
serve every page: when the network is gone, a page asked for is answered with the offline
page it keeps. Nothing it keeps holds a card or a name: only that page, the style sheet and
the icons.
"""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from games.icons import ICONS

THEME = "#0f5132"  # site.css --felt: the bar above the app
BACKGROUND = "#f3f1ec"  # site.css --page: the screen while it opens


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the reader's language."""
    icons = [
        {
            "src": static(f"games/icons/{icon.name}"),
            "sizes": f"{icon.size}x{icon.size}",
            "type": "image/png",
            "purpose": "maskable" if icon.maskable else "any",
        }
        for icon in ICONS
        if icon.name != "apple-touch-icon.png"  # for iOS, named in the page's head instead
    ]
    data = {
        "id": reverse("home"),
        "name": "Hearts",
        "short_name": "Hearts",
        "description": gettext("Hearts for 3 to 10 players, at your own pace."),
        "lang": get_language(),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker's script, from the root so that its scope is the whole site; never
    kept stale, so that a new version takes over at the next visit."""
    return render(
        request,
        "app/service-worker.js",
        {"offline_url": reverse("offline")},
        content_type="text/javascript; charset=utf-8",
    )


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when the network is gone (kept by it at install)."""
    return render(request, "app/offline.html")
