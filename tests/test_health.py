"""Health and metrics for operators: readiness (/readyz), the workers' heartbeats, and the
Prometheus metrics, refused to strangers and exposing the site's own figures."""

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import DatabaseError, connection
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from games import services
from games.background import heartbeat as heartbeats
from games.background.deadlines import time_out_seat
from games.background.heartbeat import Heartbeat, live_kinds
from games.lib import clock
from games.management.commands.serve import METRICS_DIR_VARIABLE, metrics_directory
from games.management.commands.worker import drop_connections
from games.models import Seat, WorkerHeartbeat
from games.services import timeouts
from games.services.lobby import MatchOptions
from hearts_site import health
from tests.async_helpers import run_async
from tests.factories import HTMX, client_for, next_move
from tests.live_helpers import connect
from tests.live_setup import mid_trick

ROOT = Path(__file__).resolve().parent.parent
STRANGER = "203.0.113.9"


# ----- readiness -----


def beat(name: str, queues: str, seconds_ago: float = 0.0) -> WorkerHeartbeat:
    """A worker's row, as its heartbeat thread leaves it, last heard of `seconds_ago`."""
    at = clock.now() - timedelta(seconds=seconds_ago)
    return WorkerHeartbeat.objects.create(name=name, queues=queues, started_at=at, last_beat=at)


def stale_seconds(settings) -> float:
    return settings.WORKER_HEARTBEAT_SECONDS * settings.WORKER_HEARTBEAT_LIVE_BEATS + 1


def readyz(client):
    response = client.get(reverse("readyz"))
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    return response


@pytest.fixture
def no_redis(settings):
    settings.REDIS_URL = ""


def test_liveness_stays_a_plain_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok"


@pytest.mark.django_db
def test_ready_with_a_fresh_heartbeat_of_each_kind(client, no_redis):
    beat("host-a:11", "now")
    beat("host-b:12", "long")
    response = readyz(client)
    assert response.status_code == 200
    assert response.json() == {
        "status": "ready",
        "checks": {"database": "ok", "redis": "skipped", "workers": {"now": "ok", "long": "ok"}},
    }
    # The body names no worker's host, nor anything else of the machines.
    assert b"host-" not in response.content


@pytest.mark.django_db
def test_readiness_is_cheap(client, no_redis, django_assert_max_num_queries):
    beat("host-a:11", "all")
    with django_assert_max_num_queries(2):  # SELECT 1, and the recent heartbeats
        assert readyz(client).status_code == 200


@pytest.mark.django_db
def test_a_worker_of_every_queue_counts_for_both_kinds(client, no_redis):
    beat("host-a:11", "all")
    assert readyz(client).status_code == 200


@pytest.mark.django_db
def test_unready_without_a_worker(client, no_redis):
    response = readyz(client)
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unready"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["workers"] == {"now": "fail", "long": "fail"}


@pytest.mark.django_db
def test_unready_when_the_only_worker_of_a_kind_is_stale(client, settings, no_redis):
    beat("host-a:11", "now")
    beat("host-b:12", "long", seconds_ago=stale_seconds(settings))
    response = readyz(client)
    assert response.status_code == 503
    assert response.json()["checks"]["workers"] == {"now": "ok", "long": "fail"}


@pytest.mark.django_db
def test_the_live_window_follows_the_heartbeat_setting(client, settings, no_redis):
    beat("host-a:11", "all", seconds_ago=100)
    settings.WORKER_HEARTBEAT_SECONDS = 10
    assert readyz(client).status_code == 503
    settings.WORKER_HEARTBEAT_SECONDS = 40
    assert readyz(client).status_code == 200


@pytest.mark.django_db
def test_unready_when_the_database_fails(client, monkeypatch, no_redis):
    beat("host-a:11", "all")

    def down() -> bool:
        raise DatabaseError("connection to server at db.internal failed")

    monkeypatch.setattr(health, "check_database", down)
    response = readyz(client)
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["database"] == "fail"
    assert checks["workers"] == {"now": "fail", "long": "fail"}
    assert b"db.internal" not in response.content  # the reason goes to the log, not the body


@pytest.mark.django_db
def test_redis_is_pinged_when_the_site_uses_it(client, settings, monkeypatch):
    beat("host-a:11", "all")
    settings.REDIS_URL = "redis://redis.internal:6379/0"
    monkeypatch.setattr(health, "check_redis", lambda: True)
    response = readyz(client)
    assert response.status_code == 200 and response.json()["checks"]["redis"] == "ok"

    def down() -> bool:
        raise ConnectionError("Error connecting to redis.internal:6379")

    monkeypatch.setattr(health, "check_redis", down)
    response = readyz(client)
    assert response.status_code == 503 and response.json()["checks"]["redis"] == "fail"
    assert b"redis.internal" not in response.content


@pytest.mark.django_db
def test_the_redis_check_pings_the_configured_redis(settings):
    if not settings.REDIS_URL:
        pytest.skip("the site is not using Redis here (REDIS_URL unset)")
    assert health.check_redis() is True


# ----- heartbeats -----


@pytest.mark.django_db
def test_a_beat_writes_one_row_and_prunes_the_day_old(settings):
    beat("host-gone:1", "now", seconds_ago=2 * 86400)
    worker = Heartbeat("long", name="host-a:11")
    worker.beat()
    worker.beat()
    (row,) = WorkerHeartbeat.objects.all()
    assert (row.name, row.queues) == ("host-a:11", "long")
    assert row.started_at <= row.last_beat
    assert live_kinds() == {"long"}


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_thread_writes_its_row_and_removes_it_when_stopped():
    worker = Heartbeat(None, interval=0.05, name="host-a:11")
    worker.start()
    try:
        deadline = time.monotonic() + 10
        while not WorkerHeartbeat.objects.filter(name="host-a:11").exists():
            assert time.monotonic() < deadline, "no heartbeat was written"
            time.sleep(0.02)
        first = WorkerHeartbeat.objects.get(name="host-a:11")
        assert first.queues == "all"
        while WorkerHeartbeat.objects.get(name="host-a:11").last_beat == first.last_beat:
            assert time.monotonic() < deadline, "the heartbeat did not beat again"
            time.sleep(0.02)
    finally:
        worker.stop()
    assert not WorkerHeartbeat.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_stop_landing_mid_begin_still_removes_the_workers_row(caplog):
    # What a stop signal can leave on SQLite: the transaction begun on the connection, but
    # never noted by Django (django-tasks' worker exits from its signal handler).
    worker = Heartbeat("now", name="host-a:11")
    worker.beat()
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        connection.connection.execute("BEGIN")
    drop_connections()
    worker.stop()
    assert not WorkerHeartbeat.objects.exists()
    assert "Could not remove the heartbeat" not in caplog.text


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_thread_outlives_a_database_outage(monkeypatch, caplog):
    worker = Heartbeat("now", interval=0.02, name="host-a:11")
    real_beat, failures = worker.beat, []

    def flaky() -> None:
        if len(failures) < 3:
            failures.append(1)
            raise DatabaseError("the database went away")
        real_beat()

    monkeypatch.setattr(worker, "beat", flaky)
    worker.start()
    try:
        deadline = time.monotonic() + 10
        while not WorkerHeartbeat.objects.filter(name="host-a:11").exists():
            assert time.monotonic() < deadline, "the heartbeat never came back"
            time.sleep(0.02)
    finally:
        worker.stop()
    assert len(failures) == 3
    assert "could not write its heartbeat" in caplog.text
    assert worker._thread is not None and not worker._thread.is_alive()


def test_worker_names_are_unique_per_process():
    assert heartbeats.worker_name().endswith(f":{os.getpid()}")


# ----- metrics -----


def scrape(client, **extra) -> dict[tuple[str, tuple], float]:
    """Read the metrics page as Prometheus would: {(sample name, labels): value}."""
    response = client.get(reverse("prometheus-django-metrics"), **extra)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def cards(samples, actor: str) -> float:
    return samples.get(("hearts_cards_played_total", (("actor", actor),)), 0.0)


def test_the_metrics_are_refused_to_a_stranger(client, settings):
    settings.METRICS_ALLOWED_IPS = ["127.0.0.1", "::1"]
    url = reverse("prometheus-django-metrics")
    assert client.get(url, REMOTE_ADDR=STRANGER).status_code == 404
    # A header anybody can send names no client unless a trusted proxy sent it.
    forged = {"REMOTE_ADDR": STRANGER, "HTTP_X_FORWARDED_FOR": "127.0.0.1"}
    assert client.get(url, **forged).status_code == 404
    assert client.get(url, REMOTE_ADDR=STRANGER, HTTP_AUTHORIZATION="Bearer x").status_code == 404


@pytest.mark.django_db
def test_the_metrics_are_served_to_an_allowed_address(client, settings):
    settings.METRICS_ALLOWED_IPS = ["10.0.0.0/8"]
    url = reverse("prometheus-django-metrics")
    assert client.get(url).status_code == 404  # loopback is no longer listed
    samples = scrape(client, REMOTE_ADDR="10.1.2.3")
    names = {name for name, _ in samples}
    assert "hearts_matches_in_play" in names
    assert any(
        name.startswith("django_http_requests_latency_seconds_by_view_method") for name in names
    )


@pytest.mark.django_db
def test_the_metrics_are_served_with_the_bearer_token(client, settings):
    settings.METRICS_ALLOWED_IPS = []
    settings.METRICS_TOKEN = "a-long-random-token"
    url = reverse("prometheus-django-metrics")
    assert client.get(url).status_code == 404
    bad = client.get(url, HTTP_AUTHORIZATION="Bearer a-long-random-toke")
    assert bad.status_code == 404
    scrape(client, HTTP_AUTHORIZATION="Bearer a-long-random-token")


@pytest.mark.django_db
def test_the_request_latency_is_labelled_by_view(client):
    client.get("/healthz")
    samples = scrape(client)
    key = ("django_http_requests_latency_seconds_by_view_method_count",
           (("method", "GET"), ("view", "healthz")))  # fmt: skip
    assert samples[key] >= 1


@pytest.mark.django_db
def test_a_card_played_is_counted_once_committed(
    client, alice, bob, django_capture_on_commit_callbacks
):
    match, card = mid_trick(alice, bob)
    before = scrape(client)
    move = next_move(match, 0)
    assert move is not None and move.data["card"] == card
    with django_capture_on_commit_callbacks(execute=True):
        assert client_for(alice).post(move.url, move.data, **HTMX).status_code == 200
    after = scrape(client)
    assert cards(after, "person") - cards(before, "person") == 1
    assert cards(after, "bot") == cards(before, "bot")  # bob plays next: no bot moved
    assert after[("hearts_matches_in_play", ())] == 1


@pytest.mark.django_db
def test_a_refused_card_is_not_counted(client, alice, bob, django_capture_on_commit_callbacks):
    match, card = mid_trick(alice, bob)
    before = scrape(client)
    stale = {"version": match.version - 1, "card": card}
    with django_capture_on_commit_callbacks(execute=True):
        client_for(alice).post(reverse("play_card", args=[match.pk]), stale, **HTMX)
    assert cards(scrape(client), "person") == cards(before, "person")


@pytest.mark.django_db
def test_a_timeout_is_counted(client, alice, monkeypatch, django_capture_on_commit_callbacks):
    match = services.create_match(
        alice, MatchOptions(bots=3, target=100, decision_seconds=3600, bank_seconds=0)
    )
    seat = Seat.objects.get(match=match, position=0)
    before = scrape(client)
    monkeypatch.setattr(clock, "now", lambda: seat.deadline + timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        timeouts.time_out(match.pk, 0, seat.deadline)
    after = scrape(client)
    assert (
        after[("hearts_timeouts_applied_total", ())]
        - before.get(("hearts_timeouts_applied_total", ()), 0)
        == 1
    )


@pytest.mark.django_db
def test_matches_in_play_and_the_queues_are_read_at_scrape_time(
    client, alice, django_assert_num_queries
):
    DBTaskResult.objects.all().delete()
    services.create_match(alice, MatchOptions(bots=3))  # starts at once: in play
    services.create_match(alice, MatchOptions())  # waits for players: open
    waiting = time_out_seat.enqueue(match_id=1, position=0, deadline="2000-01-01T00:00:00+00:00")
    DBTaskResult.objects.filter(pk=waiting.id).update(
        enqueued_at=timezone.now() - timedelta(seconds=90)
    )
    # Due later: not counted yet.
    time_out_seat.using(run_after=timezone.now() + timedelta(hours=1)).enqueue(
        match_id=1, position=0, deadline="2000-01-01T00:00:00+00:00"
    )
    with django_assert_num_queries(2):  # one count, one grouped read of the queues
        samples = scrape(client)
    assert samples[("hearts_matches_in_play", ())] == 1
    assert samples[("hearts_task_queue_depth", (("queue", "now"),))] == 1
    assert samples[("hearts_task_queue_depth", (("queue", "long"),))] == 0
    age = samples[("hearts_task_queue_oldest_due_age_seconds", (("queue", "now"),))]
    assert 90 <= age < 150
    assert samples[("hearts_task_queue_oldest_due_age_seconds", (("queue", "long"),))] == 0


@pytest.mark.django_db(transaction=True)
def test_open_live_sockets_are_a_gauge(alice):
    def open_sockets() -> float:
        return REGISTRY.get_sample_value("hearts_live_sockets") or 0.0

    async def scenario():
        before = open_sockets()
        communicator, connected = await connect(alice)
        assert connected
        assert open_sockets() == before + 1
        await communicator.disconnect()
        assert open_sockets() == before
        refused, connected = await connect()  # signed out: refused, never counted
        assert not connected
        await refused.disconnect()
        assert open_sockets() == before

    run_async(scenario)


# ----- several processes -----


def test_serve_gives_its_processes_an_empty_metrics_directory(tmp_path):
    env: dict[str, str] = {}
    made = metrics_directory(env)
    try:
        assert made is not None and env[METRICS_DIR_VARIABLE] == str(made)
        assert made.is_dir() and not any(made.iterdir())
    finally:
        made.rmdir()
    named = tmp_path / "metrics"
    named.mkdir()
    (named / "counter_123.db").write_bytes(b"old")
    (named / "keep.txt").write_text("not ours")
    env = {METRICS_DIR_VARIABLE: str(named)}
    assert metrics_directory(env) is None
    assert [p.name for p in named.iterdir()] == ["keep.txt"]


def test_counts_from_several_processes_add_up_in_multiprocess_mode(tmp_path):
    env = {
        **os.environ,
        METRICS_DIR_VARIABLE: str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "hearts_site.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'none.sqlite3'}",
    }
    count = (
        "import django; django.setup(); from games.lib import metrics; "
        "metrics.count_cards({'bot': 2}); metrics.count_timeout()"
    )
    for _ in range(2):  # two worker processes, say
        subprocess.run(
            [sys.executable, "-c", count], cwd=ROOT, env=env, check=True, capture_output=True
        )
    read = (
        "import django; django.setup(); from django.test import RequestFactory; "
        "from hearts_site.metrics import metrics; "
        "print(metrics(RequestFactory().get('/metrics')).content.decode())"
    )
    page = subprocess.run(
        [sys.executable, "-c", read], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout
    assert 'hearts_cards_played_total{actor="bot"} 4.0' in page
    assert "hearts_timeouts_applied_total 2.0" in page
