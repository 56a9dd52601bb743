"""WebSocket routes, served by daphne through Channels."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
