"""The site's own Prometheus metrics, counted where things happen.

Counters and gauges live in the process that counts them: the web server (cards played by
people, live sockets) and each worker (timeouts, bots' cards). When the processes share a
`PROMETHEUS_MULTIPROC_DIR` (`manage.py serve` sets one up for its children), prometheus_client
keeps each process's values in a file there and the scrape adds them up; without it each
process counts for itself, and only the serving process's figures are exported.

Figures read from the database (matches in play, the task queues) are not counted here: the
scrape computes them (`hearts_site/metrics.py`).
"""

from prometheus_client import Counter, Gauge

CARDS_PLAYED = Counter(
    "hearts_cards_played",
    "Cards played, committed, by who played them (person, bot, forced, timeout, playout).",
    ["actor"],
)
TIMEOUTS_APPLIED = Counter(
    "hearts_timeouts_applied",
    "Decisions made by a bot because a seat's clock ran out, committed.",
)
# Summed over the live processes only: a socket dies with its process.
LIVE_SOCKETS = Gauge(
    "hearts_live_sockets",
    "Live sockets open (one per open page).",
    multiprocess_mode="livesum",
)


def count_cards(by_actor: dict[str, int]) -> None:
    """Count the cards a committed change played, by actor."""
    for actor, count in by_actor.items():
        CARDS_PLAYED.labels(actor=actor).inc(count)


def count_timeout() -> None:
    """Count one committed timeout."""
    TIMEOUTS_APPLIED.inc()
