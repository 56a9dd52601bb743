"""Relay committed match changes to the channel layer, for live tables and turn notices.

Events carry no cards, only the match, its version, its status and who must act: each page
then fetches its own regions over HTTP, rendered for its own viewer. Each also says when it was
sent (`sent`, seconds since the epoch, taken once the change is committed), so a client on the
same clock can time its delivery (`bench/ws_bench.py` does).
"""

import logging
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.dispatch import receiver

from games.services.events import match_changed, tournament_seated

logger = logging.getLogger(__name__)


def match_group(match_id: int) -> str:
    """Name the group of connections following a match."""
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    """Name the group of one user's connections, on whatever page they are."""
    return f"user-{user_id}"


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
    """Tell the match's followers it changed, and each person whose turn it became."""
    sent = time.time()  # on_commit runs this right after the commit: the move's moment
    layer = get_channel_layer()
    if layer is None:
        return
    send = async_to_sync(layer.group_send)
    to_act = sorted(set(to_act_user_ids))
    try:
        send(
            match_group(match_id),
            {
                "type": "match.updated",
                "match": match_id,
                "version": version,
                "status": status,
                "to_act": to_act,
                "sent": sent,
            },
        )
        for user_id in sorted(set(became_to_act_user_ids)):
            send(
                user_group(user_id),
                {"type": "turn.notify", "match": match_id, "version": version, "sent": sent},
            )
    except Exception:
        # The move is already committed; a lost event only delays a page, which catches up
        # by comparing versions when its socket reconnects (or when it next polls).
        logger.exception("Could not relay the change to match %s", match_id)


@receiver(tournament_seated, dispatch_uid="games.live.seated")
def relay_seated(
    sender, *, user_id: int, tournament: str, round: int, table: int, url: str, **kwargs
) -> None:
    """Tell a player where they sit in a tournament's round, with a link to go there."""
    layer = get_channel_layer()
    if layer is None:
        return
    event = {
        "type": "tournament.seated",
        "tournament": tournament,
        "round": round,
        "table": table,
        "url": url,
    }
    try:
        async_to_sync(layer.group_send)(user_group(user_id), event)
    except Exception:
        # Committed already; the player also finds the table on their pages.
        logger.exception("Could not tell user %s where they are seated", user_id)
