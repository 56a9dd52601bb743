"""Spare daphne's event loop work whose result nobody reads.

Daphne builds each HTTP request on Twisted's `Request`, which by default decodes every form
POST into `request.args` before the application sees it. Daphne never reads them: it hands the
raw body to Django, which parses the form itself. Twisted's decoding goes through the `email`
package's header parser for the Content-Type (about 40 µs warm, several times that when a
request finds the interpreter's caches cold), on the event loop that every other request and
live event waits for. Every move is a form POST, so every move paid it.
"""

from __future__ import annotations

from daphne import http_protocol


class WebRequest(http_protocol.WebRequest):
    """Daphne's request, leaving the body to the application."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["parsePOSTFormSubmission"] = False
        super().__init__(*args, **kwargs)


def leave_bodies_to_django() -> None:
    """Have daphne's HTTP factory build requests that leave their bodies to Django.

    Daphne's factory names its request class at each new connection (`buildProtocol`), so
    setting it here, before the server accepts any, covers every request.
    """
    if not issubclass(http_protocol.WebRequest, WebRequest):
        http_protocol.WebRequest = WebRequest
