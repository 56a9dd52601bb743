"""The client address of a request, believing a proxy's header only from a trusted proxy."""

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """Return the address of the client that sent this request.

    `REMOTE_ADDR` is the peer that connected to the server. Behind a proxy that is the proxy,
    the same for every client, so the proxy's `X-Forwarded-For` names the client instead; but
    anybody can send that header, so it counts only when the peer is one of the
    `TRUSTED_PROXIES`. The proxy appends the address it saw to whatever the client sent, so
    the client is the right-most address that is not itself a trusted proxy.
    """
    peer = request.META.get("REMOTE_ADDR", "") or "unknown"
    trusted = set(settings.TRUSTED_PROXIES)
    if peer not in trusted:
        return peer
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    for hop in reversed([part.strip() for part in forwarded.split(",")]):
        if hop and hop not in trusted:
            return hop
    return peer
