"""Tie the game's live events to this site's HTTP handler (games/ never imports hearts_site/)."""

from games import live
from hearts_site import http


def send_through_the_handler() -> None:
    """Send live events through the handler's loop, once the request's answer is out."""
    live.install_server(live.Server(loop=http.server_loop, after_response=http.after_response))
