"""ASGI entry point: daphne serves HTTP and WebSocket from here."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
# Django must be set up before anything imports models (the WebSocket routes do).
django.setup(set_prefix=False)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from hearts_site.http import HttpHandler  # noqa: E402
from hearts_site.sqlite_wal import keep_wal_open  # noqa: E402

keep_wal_open()

application = ProtocolTypeRouter(
    {
        "http": HttpHandler(),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
