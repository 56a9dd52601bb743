"""Relay committed match changes to the channel layer, for live tables and turn notices.

Events carry no cards, only the match, its version, its status and who must act: each page
then fetches its own regions over HTTP, rendered for its own viewer. Each also says when it was
sent (`sent`, seconds since the epoch, taken once the change is committed), so a client on the
same clock can time its delivery (`bench/ws_bench.py` does).

The worker's events (timeouts, bots' cards, rounds finished by bots) must reach the serving
process's sockets too. With Redis every process shares one layer. With the default in-memory
layer a worker writes its events to the database (`RelayedEvent`), and the serving process
reads them in order and sends them to its own layer (`start_relay`, "the relay").
"""

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Protocol

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.dispatch import receiver
from django.urls import reverse
from django.utils.translation import override

from games.lib import clock
from games.lib.db_threads import in_db_thread
from games.lib.languages import supported
from games.lib.process_role import is_worker
from games.models import Challenge, Profile, RelayedEvent
from games.notifications.notices import CHALLENGE_KINDS, WORDED_KINDS, notice_words
from games.services.events import (
    chat_posted,
    lobby_changed,
    match_changed,
    match_notice,
    rematch_answered,
    tournament_seated,
)

logger = logging.getLogger(__name__)

# An event for a group: its "type" names the consumers' handler, the rest is sent as JSON.
Event = dict[str, object]


class GroupSender(Protocol):
    """What is used of a channel layer (channels ships no type information)."""

    async def group_send(self, group: str, message: Event) -> None: ...


@dataclass(frozen=True)
class Server:
    """How events reach the server's event loop, as the server that runs the site tells it.

    `loop` returns the serving loop once a request has arrived (None before, and outside a
    server); `after_response` hands it a coroutine to run once the current request's answer
    is sent, and says False outside a request it serves.
    """

    loop: Callable[[], asyncio.AbstractEventLoop | None]
    after_response: Callable[[Coroutine[Any, Any, None]], bool]


_NO_SERVER = Server(loop=lambda: None, after_response=lambda coroutine: False)
_server = _NO_SERVER


def install_server(server: Server) -> None:
    """Let events go through the server's loop (called by the ASGI application at startup)."""
    global _server
    _server = server


def server_loop() -> asyncio.AbstractEventLoop | None:
    """Return the loop that serves requests in this process, if there is one."""
    return _server.loop()


def match_group(match_id: int) -> str:
    """Name the group of connections following a match."""
    return f"match-{match_id}"


# The lobby pages that asked to hear when the lobby's lists change.
LOBBY_GROUP = "lobby"


def user_group(user_id: int) -> str:
    """Name the group of one user's connections, on whatever page they are."""
    return f"user-{user_id}"


async def _send_all(layer: GroupSender, messages: list[tuple[str, Event]], about: str) -> None:
    try:
        for group, message in messages:
            await layer.group_send(group, message)
    except Exception:
        # The change is already committed; a lost event only delays a page, which catches up
        # by comparing versions when its socket reconnects (or when it next polls).
        logger.exception("Could not relay %s", about)


def _send(messages: list[tuple[str, Event]], about: str) -> None:
    """Send group events: handed to the server's event loop if there is one, else sent now.

    In a server the request goes on without waiting for them (with Redis, that wait is several
    round trips): during a request, the loop sends them once the request's answer is sent;
    elsewhere (tests, the shell, the worker) they are sent before returning, or, in a worker
    whose layer reaches no socket, written for the relay.
    """
    if through_database():
        _store(messages, about)
        return
    layer = get_channel_layer()
    if layer is None:
        return
    loop = server_loop()
    if loop is not None:
        sending = _send_all(layer, messages, about)
        if not _server.after_response(sending):
            asyncio.run_coroutine_threadsafe(sending, loop)
        return
    try:
        async_to_sync(_send_all)(layer, messages, about)
    except RuntimeError:
        # Called from a thread that runs an event loop of its own: nothing can wait here.
        logger.exception("Could not relay %s", about)


# ----- the relay: a worker's events to the serving process, through the database -----

# The serving process's relay, once started.
_relay_task: asyncio.Task[None] | None = None
# How many events the relay reads at once, and how long it keeps them in the table.
RELAY_BATCH = 200
RELAY_KEEP_SECONDS = 300


def through_database() -> bool:
    """Say whether this process's events go to the serving process through the database: a
    worker's, when its channel layer reaches no other process."""
    return is_worker() and not settings.LIVE_LAYER_SHARED


def _store(messages: list[tuple[str, Event]], about: str) -> None:
    try:
        RelayedEvent.objects.bulk_create(
            RelayedEvent(group=group, message=message) for group, message in messages
        )
    except Exception:
        # As with a layer: the change is committed, and pages catch up by their versions.
        logger.exception("Could not store %s for the relay", about)


def start_relay(from_a_server: bool = False) -> None:
    """Start the relay in the serving process (once), if its layer needs one.

    Called on the serving loop (a socket connecting): only the serving process has sockets to
    send the workers' events to. `from_a_server` says the socket came through a server (its
    ASGI scope names one): a restarted server's first connections are the pages' sockets
    coming back, before any HTTP request has shown it its loop. Events written before it
    starts are not sent: a page compares versions when its socket connects, and so catches up
    with them.
    """
    global _relay_task
    if settings.LIVE_LAYER_SHARED or _relay_task is not None and not _relay_task.done():
        return
    loop = asyncio.get_running_loop()
    if not from_a_server and loop is not server_loop():
        return  # not a server's loop (a test's): no worker writes for it
    _relay_task = loop.create_task(_relay())


def stop_relay() -> None:
    """Stop this process's relay, if it runs (a server shutting down; tests)."""
    global _relay_task
    if _relay_task is not None:
        _relay_task.cancel()
        _relay_task = None


@in_db_thread
def _newest_event() -> int:
    return RelayedEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0


@in_db_thread
def _events_after(last: int) -> list[tuple[int, str, Event]]:
    rows = RelayedEvent.objects.filter(id__gt=last).order_by("id")[:RELAY_BATCH]
    return list(rows.values_list("id", "group", "message"))


@in_db_thread
def forget_events(upto: int) -> None:
    """Remove the events the relay has sent (up to `upto`) once they are RELAY_KEEP_SECONDS old
    (several serving processes on one database may each still be reading them until then)."""
    old = clock.now() - timedelta(seconds=RELAY_KEEP_SECONDS)
    RelayedEvent.objects.filter(id__lte=upto, created_at__lt=old).delete()


async def _relay() -> None:
    """Send the events workers wrote, in order, to this process's layer, for ever."""
    layer = get_channel_layer()
    if layer is None:
        return
    last = await _newest_event()
    forgotten_at = time.monotonic()
    while True:
        try:
            rows = await _events_after(last)
            for row_id, group, message in rows:
                await _send_all(layer, [(group, message)], f"relayed event {row_id}")
                last = row_id
            if time.monotonic() - forgotten_at > RELAY_KEEP_SECONDS / 5:
                await forget_events(last)
                forgotten_at = time.monotonic()
        except Exception:
            # The database away for a moment: read again later, from where it stopped.
            logger.exception("The relay could not read the workers' events")
            rows = []
        if len(rows) < RELAY_BATCH:
            await asyncio.sleep(settings.RELAY_POLL_SECONDS)


@receiver(match_changed, dispatch_uid="games.live.relay")
def relay(
    sender: object,
    *,
    match_id: int,
    version: int,
    to_act_user_ids: list[int],
    status: str,
    became_to_act_user_ids: list[int],
    **kwargs: object,
) -> None:
    """Tell the match's followers it changed, and each person whose turn it became."""
    sent = time.time()  # on_commit runs this right after the commit: the move's moment
    update = {
        "type": "match.updated",
        "match": match_id,
        "version": version,
        "status": status,
        "to_act": sorted(set(to_act_user_ids)),
        "sent": sent,
    }
    messages = [(match_group(match_id), update)]
    for user_id in sorted(set(became_to_act_user_ids)):
        notice = {"type": "turn.notify", "match": match_id, "version": version, "sent": sent}
        messages.append((user_group(user_id), notice))
    _send(messages, f"the change to match {match_id}")


@receiver(tournament_seated, dispatch_uid="games.live.seated")
def relay_seated(
    sender: object,
    *,
    user_id: int,
    tournament: str,
    round: int,
    table: int,
    url: str,
    **kwargs: object,
) -> None:
    """Tell a player where they sit in a tournament's round, with a link to go there."""
    event = {
        "type": "tournament.seated",
        "tournament": tournament,
        "round": round,
        "table": table,
        "url": url,
    }
    _send([(user_group(user_id), event)], f"the seat of user {user_id}")


@receiver(match_notice, dispatch_uid="games.live.notice")
def relay_notice(
    sender: object,
    *,
    match_id: int,
    user_ids: list[int],
    kind: str,
    text: str,
    by: str = "",
    **kwargs: object,
) -> None:
    """Tell each player concerned of a notice about a match (a nudge, a match given up), each
    in their own language (the change was made in someone else's)."""
    ids = sorted(set(user_ids))
    chosen = dict(Profile.objects.filter(user_id__in=ids).values_list("user_id", "language"))
    messages = []
    for user_id in ids:
        words = text
        if kind in WORDED_KINDS:
            with override(supported(chosen.get(user_id)) or settings.LANGUAGE_CODE):
                words = str(notice_words(kind, by, match_id)[1])
        event: Event = {"type": "match.notice", "match": match_id, "kind": kind, "text": words}
        if kind in CHALLENGE_KINDS:
            event["url"] = reverse("challenges")  # the invitee answers there, not at the match
            # What the navigation's count of challenges to answer now says, for this person.
            event["challenges"] = Challenge.waiting_for(user_id, clock.now()).count()
        messages.append((user_group(user_id), event))
    _send(messages, f"a notice of match {match_id}")


@receiver(lobby_changed, dispatch_uid="games.live.lobby")
def relay_lobby(sender: object, **kwargs: object) -> None:
    """Tell the lobby pages that their lists changed; they fetch them anew."""
    _send([(LOBBY_GROUP, {"type": "lobby.changed"})], "a change of the lobby")


@receiver(chat_posted, dispatch_uid="games.live.chat")
def relay_chat(
    sender: object, *, match_id: int, room: str, message_id: int, **kwargs: object
) -> None:
    """Tell the match's pages that a room of its chat has a new message: its id, no words, no
    author.

    Each page fetches over HTTP the messages newer than those it shows, as its viewer may read
    them; the page that already shows this one (its sender's) fetches nothing.
    """
    event = {"type": "chat.updated", "match": match_id, "room": room, "message": message_id}
    _send([(match_group(match_id), event)], f"a chat message in match {match_id}")


@receiver(rematch_answered, dispatch_uid="games.live.rematch")
def relay_rematch(
    sender: object, *, match_id: int, rematch_id: int | None, seated: list[int], **kwargs: object
) -> None:
    """Tell a finished match's pages that its "Play again" was answered: they draw the answers
    anew, and once the rematch has started, the people seated there go to it."""
    event = {
        "type": "rematch.updated",
        "match": match_id,
        "rematch": rematch_id,
        "seated": sorted(set(seated)),
    }
    _send([(match_group(match_id), event)], f"an answer to play match {match_id} again")
