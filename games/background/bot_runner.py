"""Where the searching bots play (see `services/bot_turns.py`): queued tasks on the NOW queue.

Once a change that leaves a searching bot to play has committed, `play_bot_turn` is queued on
the NOW queue. Any worker process, on this machine or another, takes it: the bot searches the
committed table and plays one card under the match's lock, each card its own change (its own
commit and version), and goes on with the next bot's card for up to BOT_TASK_SECONDS; what is
still owed then is queued behind the other tables' tasks. The task's cards are announced to the
pages once, as the table stands after the last (`events.one_update_per_match`): each page
fetches the table once for them, not once a card. So a table never waits long
behind another table's search, a person's turn comes back without a trip through the queue
for every bot card (on SQLite each trip is three more writes, database-wide), its cards are
played in order (each checks the version it searched), and the serving processes only answer
requests. The bots' live updates reach the pages through the channel
layer, or through the relay on the default profile (`games/live.py`).

Anywhere else (tests, the shell, a management command) the bots play at once, before
`bots_due`'s sender goes on. A table whose task was lost (a worker killed mid-search, a
database restored) is queued again by the sweep after BOT_STUCK_SECONDS.
"""

import logging
import time
from contextvars import ContextVar
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django_tasks import task

from games.lib import clock
from games.lib.process_role import is_worker
from games.lib.queues import NOW
from games.live import server_loop
from games.services import bot_turns
from games.services.events import bots_due, one_update_per_match

logger = logging.getLogger(__name__)


def bots_play_as_tasks() -> bool:
    """Say whether this process queues the bots' cards (a server or a worker) or plays them."""
    return is_worker() or server_loop() is not None


# The match whose bots the running task goes on playing itself: its cards' commits queue
# nothing more for it (`play_bots_soon`).
_playing_on: ContextVar[int | None] = ContextVar("bots_played_by_this_task", default=None)


@task(queue_name=NOW)
def play_bot_turn(match_id: int) -> bool:
    """Play the cards searching bots owe in the match for up to BOT_TASK_SECONDS, then queue
    what is still owed; say whether a bot played (or the table changed while it searched)."""
    if transaction.get_connection().in_atomic_block:
        # Run inside a transaction (a test's), each card's commit is held back until it ends:
        # those commits queue what follows themselves, one card a task.
        return bot_turns.play_bot_card(match_id)
    budget_ends = time.monotonic() + settings.BOT_TASK_SECONDS
    token = _playing_on.set(match_id)
    try:
        with one_update_per_match():
            if not bot_turns.play_bot_card(match_id):
                return False
            while time.monotonic() < budget_ends:
                if not bot_turns.play_bot_card(match_id):
                    return True  # a person is to act, or the match is over
    finally:
        _playing_on.reset(token)
    if bot_turns.owed(match_id):
        play_bot_turn.enqueue(match_id)  # the time is up: other tables' tasks go first
    return True


def _play_now(match_id: int) -> None:
    try:
        bot_turns.play_bots(match_id)
    except Exception:
        # The table waits; the sweep moves it later.
        logger.exception("The bots of match %s could not play", match_id)


@receiver(bots_due, dispatch_uid="games.bot_runner.play")
def play_bots_soon(sender: object, *, match_id: int, **kwargs: object) -> None:
    """Let the searching bots of a match play, without holding up whoever sent the signal."""
    if _playing_on.get() == match_id:
        return  # the task that played this card goes on with the next (`play_bot_turn`)
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
