"""Where the searching bots play (see `services/bot_turns.py`): one queued task a card.

Once a change that leaves a searching bot to play has committed, `play_bot_turn` is queued on
the NOW queue. Any worker process, on this machine or another, takes it: the bot searches the
committed table and plays one card under the match's lock, and that change, if another bot
is then to play, queues the next card. So a table never waits behind another table's long
search, its cards are played in order (each checks the version it searched), and the serving
processes only answer requests. The bots' live updates reach the pages through the channel
layer, or through the relay on the default profile (`games/live.py`).

Anywhere else (tests, the shell, a management command) the bots play at once, before
`bots_due`'s sender goes on. A table whose task was lost (a worker killed mid-search, a
database restored) is queued again by the sweep after BOT_STUCK_SECONDS.
"""

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.dispatch import receiver
from django_tasks import task

from games.lib import clock
from games.lib.process_role import is_worker
from games.lib.queues import NOW
from games.live import server_loop
from games.services import bot_turns
from games.services.events import bots_due

logger = logging.getLogger(__name__)


def bots_play_as_tasks() -> bool:
    """Say whether this process queues the bots' cards (a server or a worker) or plays them."""
    return is_worker() or server_loop() is not None


@task(queue_name=NOW)
def play_bot_turn(match_id: int) -> bool:
    """Play the card a searching bot owes in the match, if it still owes one; say if a bot
    played (or the table changed while it searched: the change queued what follows)."""
    return bot_turns.play_bot_card(match_id)


def _play_now(match_id: int) -> None:
    try:
        bot_turns.play_bots(match_id)
    except Exception:
        # The table waits; the sweep moves it later.
        logger.exception("The bots of match %s could not play", match_id)


@receiver(bots_due, dispatch_uid="games.bot_runner.play")
def play_bots_soon(sender: object, *, match_id: int, **kwargs: object) -> None:
    """Let the searching bots of a match play, without holding up whoever sent the signal."""
    if not bots_play_as_tasks():
        _play_now(match_id)
        return
    try:
        play_bot_turn.enqueue(match_id)
    except Exception:
        # The change is committed and the match marked: the sweep queues its bots later.
        logger.exception("Could not queue the bots of match %s", match_id)


def queue_stuck_bots(now: datetime | None = None, limit: int = 100) -> int:
    """Queue the card of every table that has waited on a bot longer than BOT_STUCK_SECONDS
    (its task lost); return how many. A task queued twice plays once: each checks the
    version it searched."""
    now = now or clock.now()
    before = now - timedelta(seconds=settings.BOT_STUCK_SECONDS)
    stuck = bot_turns.waiting(before, limit)
    for match_id in stuck:
        play_bot_turn.enqueue(match_id)
    return len(stuck)
