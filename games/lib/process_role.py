"""What this process is: one of the workers that take queued tasks (`manage.py worker` says
so when it starts), or anything else (a web server, a test, the shell).

One fact, read where it matters: a worker queues the bots' cards its changes leave
(`games/background/bot_runner.py`) and, on a channel layer of its own, sends its live events
through the database (`games/live.py`).
"""

_worker = False


def become_worker() -> None:
    """Mark this process as a worker, for the rest of its life."""
    global _worker
    _worker = True


def is_worker() -> bool:
    return _worker
