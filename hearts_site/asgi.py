"""ASGI entry point: daphne serves HTTP and WebSocket from here."""

import os
import sys

import django

# The event loop (every socket) shares the GIL with the threads that run views. By default a
# thread keeps it for 5 ms before the loop may take a turn, so a live event waiting behind a page
# being rendered could wait that long at each step; 1 ms keeps the deliveries' tail short.
SWITCH_INTERVAL = 0.001
sys.setswitchinterval(SWITCH_INTERVAL)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
# Django must be set up before anything imports models (the WebSocket routes do).
django.setup(set_prefix=False)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games import live  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from hearts_site import http  # noqa: E402
from hearts_site.collector import tune_for_serving  # noqa: E402

# Live events about a committed move go out through this server's loop, after its answer.
live.install_server(live.Server(loop=http.server_loop, after_response=http.after_response))

application = ProtocolTypeRouter(
    {
        "http": http.HttpHandler(),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# Last: everything the site loads at startup is loaded by now.
tune_for_serving()
