"""The live socket in tests: a signed-in connection, and the card text no event may carry."""

import json

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.engine.cards import CARDS, SUIT_NAMES, SUIT_SYMBOLS

# The origin daphne's allowed-hosts check expects from a page of this site.
ORIGIN = (b"origin", b"http://127.0.0.1")
TIMEOUT = 5


def card_texts() -> tuple[list[str], list[str]]:
    """Return every card's code (as written) and words (lower case), suit names and symbols."""
    codes = [str(card) for card in CARDS] + list(SUIT_SYMBOLS.values())
    words = [card.words.lower() for card in CARDS]
    return codes, words + [f"of {name}" for name in SUIT_NAMES.values()]


def card_text_in(payload: dict) -> list[str]:
    """Return the card texts found in an event's JSON: none, for an event that keeps secrets."""
    text = json.dumps(payload, ensure_ascii=False)
    codes, words = card_texts()
    return [c for c in codes if c in text] + [w for w in words if w in text.lower()]


def session_headers(user) -> list[tuple[bytes, bytes]]:
    """Return the handshake headers of a browser signed in as the user."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [ORIGIN, (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]


async def connect(user=None) -> tuple[WebsocketCommunicator, bool]:
    """Open the live socket through the site's whole ASGI stack, signed in as the user if any."""
    from hearts_site.asgi import application

    headers = await sync_to_async(session_headers)(user) if user else [ORIGIN]
    communicator = WebsocketCommunicator(application, "/ws/live/", headers=headers)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    return communicator, connected


async def receive_until(communicator: WebsocketCommunicator, wanted, limit: int = 20) -> list:
    """Receive events until `wanted(events)` holds; return them all."""
    events = []
    for _ in range(limit):
        events.append(await communicator.receive_json_from(timeout=TIMEOUT))
        if wanted(events):
            return events
    raise AssertionError(f"never got what was wanted: {events}")
