"""Prometheus metrics for operators, at `METRICS_PATH`, for the addresses allowed only.

What is exported:
- django-prometheus's request metrics (its two middlewares, `settings.MIDDLEWARE`): requests,
  responses by status, latency by view and method;
- the site's counters and gauges (`games/lib/metrics.py`): cards played by actor, timeouts
  applied, live sockets open;
- figures read from the database at each scrape (`SiteCollector`): matches in play, and per
  task queue the tasks due now and how long the oldest of them has waited.

The page does what django-prometheus's own export view (`ExportToDjangoView`, which its
documented `django_prometheus.urls` serves to everyone) does, with two changes: it is refused
(404, as for a page that does not exist) to anyone but the addresses in `METRICS_ALLOWED_IPS`
or a request bearing `METRICS_TOKEN`; and in multiprocess mode (`PROMETHEUS_MULTIPROC_DIR`:
the processes of `manage.py serve` add up their counters there), where the scrape reads a
registry made for it, the figures read at scrape time are added to that registry too.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
from collections.abc import Iterator

from django.conf import settings
from django.db.models import Case, Count, F, Min, When
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django_tasks_db.models import DBTaskResult, get_date_max
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector

from games.accounts.addresses import client_address
from games.models import Match, MatchStatus

logger = logging.getLogger(__name__)


class SiteCollector:
    """The figures read from the database when Prometheus scrapes: two queries, both indexed."""

    def describe(self) -> list[Metric]:
        """The metrics' names, for the registry to check at registration: no query then."""
        return list(_families({}, 0))

    def collect(self) -> Iterator[Metric]:
        try:
            in_play = Match.objects.filter(status=MatchStatus.ACTIVE).count()
            queues = queue_figures()
        except Exception:
            # A scrape without these is better than none: the request metrics still tell.
            logger.exception("Could not read the site's figures for the metrics")
            return
        yield from _families(queues, in_play)


def _families(queues: dict[str, tuple[int, float]], in_play: int) -> Iterator[Metric]:
    yield GaugeMetricFamily("hearts_matches_in_play", "Matches in play.", value=in_play)
    depth = GaugeMetricFamily(
        "hearts_task_queue_depth", "Tasks due now and not yet taken, per queue.", labels=["queue"]
    )
    age = GaugeMetricFamily(
        "hearts_task_queue_oldest_due_age_seconds",
        "How long the oldest task due now has waited, per queue (0 when none is).",
        labels=["queue"],
    )
    for queue, (count, waited) in queues.items():
        depth.add_metric([queue], count)
        age.add_metric([queue], waited)
    yield depth
    yield age


def queue_figures() -> dict[str, tuple[int, float]]:
    """Return, for each task queue, the tasks due now and how long (seconds) the oldest of them
    has waited since it fell due: one query grouped by queue."""
    now = timezone.now()
    # A task queued to run as soon as possible has the far-future mark in run_after: it fell
    # due when it was queued.
    due_at = Case(When(run_after=get_date_max(), then=F("enqueued_at")), default=F("run_after"))
    rows = DBTaskResult.objects.ready()  # READY, and due: run_after passed or unset
    grouped = (
        rows.order_by()
        .values("queue_name")
        .annotate(depth=Count("pk"), oldest=Min(due_at))
        .values_list("queue_name", "depth", "oldest")
    )
    figures = {str(queue): (0, 0.0) for queue in settings.TASKS["default"]["QUEUES"]}
    for queue, depth, oldest in grouped:
        waited = max(0.0, (now - oldest).total_seconds()) if oldest else 0.0
        figures[queue] = (depth, waited)
    return figures


SITE_COLLECTOR = SiteCollector()
# In one process the default registry is exported: the site's figures join it once.
REGISTRY.register(SITE_COLLECTOR)


def multiprocess() -> bool:
    """Whether the processes add up their metrics in a shared directory (prometheus_client's
    multiprocess mode, set by `PROMETHEUS_MULTIPROC_DIR` before any of them started)."""
    return bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))


def _address_allowed(address: str | None) -> bool:
    if address is None:
        return False
    ip = ipaddress.ip_address(address)
    for entry in settings.METRICS_ALLOWED_IPS:
        try:
            if ip in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            logger.warning("METRICS_ALLOWED_IPS: %r is no address or network", entry)
    return False


def _token_given(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if not token or scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())


def may_read_metrics(request: HttpRequest) -> bool:
    """Whether this request may read the metrics: from an allowed address, or with the token."""
    return _token_given(request) or _address_allowed(client_address(request))


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """Export the metrics in Prometheus's text format to those allowed; 404 to anyone else."""
    if not may_read_metrics(request):
        raise Http404
    if multiprocess():
        # As prometheus_client documents for several processes: a registry made for the scrape,
        # reading every process's files; the figures read at scrape time join it.
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]  # (untyped __init__)
        registry.register(SITE_COLLECTOR)
    else:
        registry = REGISTRY
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
