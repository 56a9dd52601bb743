"""Relay committed match changes to the channel layer, for live tables and turn notices.

Events carry no cards, only the match, its version, its status and who must act: each page
then fetches its own regions over HTTP, rendered for its own viewer.
"""

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.dispatch import receiver

from games.services.events import match_changed
from hearts_site.http import server_loop

logger = logging.getLogger(__name__)


def match_group(match_id: int) -> str:
    """Name the group of connections following a match."""
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    """Name the group of one user's connections, on whatever page they are."""
    return f"user-{user_id}"


async def _send_all(layer, messages: list[tuple[str, dict]], match_id: int) -> None:
    try:
        for group, message in messages:
            await layer.group_send(group, message)
    except Exception:
        # The move is already committed; a lost event only delays a page, which catches up
        # by comparing versions when its socket reconnects (or when it next polls).
        logger.exception("Could not relay the change to match %s", match_id)


@receiver(match_changed, dispatch_uid="games.live.relay")
def relay(
    sender,
    *,
    match_id: int,
    version: int,
    to_act_user_ids: list[int],
    status: str,
    became_to_act_user_ids: list[int],
    **kwargs,
) -> None:
    """Tell the match's followers it changed, and each person whose turn it became.

    In a server the events are handed to its event loop and the request goes on without
    waiting for them (with Redis, that wait is several round trips); elsewhere (tests, the
    shell, the worker) they are sent before returning.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    update = {
        "type": "match.updated",
        "match": match_id,
        "version": version,
        "status": status,
        "to_act": sorted(set(to_act_user_ids)),
    }
    messages = [(match_group(match_id), update)]
    for user_id in sorted(set(became_to_act_user_ids)):
        notice = {"type": "turn.notify", "match": match_id, "version": version}
        messages.append((user_group(user_id), notice))
    loop = server_loop()
    if loop is not None:
        asyncio.run_coroutine_threadsafe(_send_all(layer, messages, match_id), loop)
        return
    try:
        async_to_sync(_send_all)(layer, messages, match_id)
    except RuntimeError:
        # Called from a thread that runs an event loop of its own: nothing can wait here.
        logger.exception("Could not relay the change to match %s", match_id)
