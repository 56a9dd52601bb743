"""Where the background bots run (see `services/bot_turns.py`).

In a server, the bots' cards are searched and played on one thread of the server's own
process, once the change that left a bot to play has committed (and its request is already
answered): their live updates then reach this process's sockets (on the in-memory channel
layer, only this process has them). One thread, so that searches never take more than one
core from the requests. Anywhere else (the worker, a management command, tests) they are
played at once, before `bots_due`'s sender goes on.

If the process stops with a table waiting, the worker's periodic sweep (`deadlines.py`)
moves it after BOT_STUCK_SECONDS.
"""

import logging
from concurrent.futures import ThreadPoolExecutor

from django.db import close_old_connections
from django.dispatch import receiver

from games.live import server_loop
from games.services import bot_turns
from games.services.events import bots_due

logger = logging.getLogger(__name__)

_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bots")


def _play(match_id: int) -> None:
    try:
        bot_turns.play_bots(match_id)
    except Exception:
        # The table waits; the sweep moves it later.
        logger.exception("The bots of match %s could not play", match_id)


def _play_on_the_bots_thread(match_id: int) -> None:
    # This thread keeps its own database connection between tasks, as a request's thread
    # does: drop it when it has gone stale or broken.
    close_old_connections()
    try:
        _play(match_id)
    finally:
        close_old_connections()


@receiver(bots_due, dispatch_uid="games.bot_runner.play")
def play_bots_soon(sender: object, *, match_id: int, **kwargs: object) -> None:
    """Let the searching bots of a match play, without holding up whoever sent the signal."""
    if server_loop() is not None:
        _executor.submit(_play_on_the_bots_thread, match_id)
    else:
        _play(match_id)
