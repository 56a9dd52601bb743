"""ASGI entry point: daphne serves HTTP and WebSocket from here.

Three serving shortcuts are set up here (see ARCHITECTURE.md); `STOCK_SERVING=1` in the
environment turns all three off, for a side-by-side measurement or to rule them out.
"""

import os
import sys

import django

STOCK = os.environ.get("STOCK_SERVING", "").strip().lower() in {"1", "true", "yes", "on"}

# The event loop (every socket) shares the GIL with the threads that run views. By default a
# thread keeps it for 5 ms before the loop may take a turn, so a live event waiting behind a page
# being rendered could wait that long at each step; 1 ms keeps the deliveries' tail short.
SWITCH_INTERVAL = 0.001
if not STOCK:
    sys.setswitchinterval(SWITCH_INTERVAL)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
# Django must be set up before anything imports models (the WebSocket routes do).
django.setup(set_prefix=False)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from hearts_site import http  # noqa: E402
from hearts_site.collector import tune_for_serving  # noqa: E402
from hearts_site.live_events import send_through_the_handler  # noqa: E402

if STOCK:
    http_application: ASGIHandler = ASGIHandler()
else:
    # One worker thread runs each request's middleware and view (hearts_site/http.py).
    http_application = http.HttpHandler()
    # Live events about a committed move go out through its loop, after the mover's answer.
    send_through_the_handler()

application = ProtocolTypeRouter(
    {
        "http": http_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

if not STOCK:
    # Last: everything the site loads at startup is loaded by now.
    tune_for_serving()
