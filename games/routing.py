"""WebSocket routes, served by daphne through Channels."""

from django.urls import URLPattern, path

from games.consumers import LiveConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/live/", LiveConsumer.as_asgi()),
]
