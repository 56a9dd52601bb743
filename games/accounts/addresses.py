"""The client address of a request, believing a proxy's header only from a trusted proxy."""

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _ip(text: str) -> str | None:
    """Return the text as an IP address, or None if it is not one (the database wants one)."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str | None:
    """Return the address of the client that sent this request, or None if it has none.

    `REMOTE_ADDR` is the peer that connected to the server. Behind a proxy that is the proxy,
    the same for every client, so the proxy's `X-Forwarded-For` names the client instead; but
    anybody can send that header, so it counts only when the peer is one of the
    `TRUSTED_PROXIES`. The proxy appends the address it saw to whatever the client sent, so
    the client is the right-most address that is not itself a trusted proxy.
    """
    peer = _ip(request.META.get("REMOTE_ADDR") or "")
    trusted = set(settings.TRUSTED_PROXIES)
    if peer is None or peer not in trusted:
        return peer
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    for hop in reversed(forwarded.split(",")):
        address = _ip(hop)
        if address is None:
            return peer  # not what a proxy writes: count the request as the proxy's own
        if address not in trusted:
            return address
    return peer
