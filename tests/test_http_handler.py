"""The ASGI handler for HTTP: the whole middleware chain in one worker thread per request."""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import iscoroutinefunction, sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.core.cache import caches

from games import live
from games.live import match_group, relay, user_group
from hearts_site import http
from hearts_site.http import HttpHandler
from hearts_site.live_events import send_through_the_handler
from tests.async_helpers import run_async

TIMEOUT = 5


@pytest.fixture(autouse=True)
def events_through_the_handler(monkeypatch):
    """Send live events through the handler's loop, as the ASGI application sets it up."""
    monkeypatch.setattr(live, "_server", live._server)  # put back as it was after the test
    send_through_the_handler()


def http_scope(method: str, path: str) -> dict:
    """Return the ASGI scope of a plain HTTP/1.1 request to this path."""
    return {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1")],
    }


async def fetch(app, method: str, path: str, body: bytes = b"") -> dict:
    """Send one request through the ASGI app; return its status, headers and whole body."""
    communicator = ApplicationCommunicator(app, http_scope(method, path))
    await communicator.send_input({"type": "http.request", "body": body})
    start = await communicator.receive_output(TIMEOUT)
    response = {"status": start["status"], "headers": start["headers"], "body": b""}
    while True:
        # The last message of a streamed body may carry no body at all (ASGI allows it).
        message = await communicator.receive_output(TIMEOUT)
        response["body"] += message.get("body", b"")
        if not message.get("more_body"):
            return response


def headers_of(response: dict) -> dict[str, str]:
    return {name.decode().lower(): value.decode() for name, value in response["headers"]}


def test_the_middleware_chain_is_built_synchronous_end_to_end():
    handler = HttpHandler()
    assert not iscoroutinefunction(handler._middleware_chain)
    assert all(not iscoroutinefunction(method) for method in handler._view_middleware)


def test_a_request_goes_through_every_middleware_and_the_view():
    async def scenario():
        return await fetch(HttpHandler(), "GET", "/healthz")

    response = run_async(scenario)
    assert response["status"] == 200
    assert response["body"] == b"ok"
    headers = headers_of(response)
    assert headers["x-frame-options"] == "DENY"  # the clickjacking middleware ran
    assert "no-cache" in headers["cache-control"]  # and so did the view's decorator


# WhiteNoise answers with a file's synchronous iterator, which Django's ASGI code reads in a
# thread and says so.
@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators")
def test_a_static_file_is_streamed_whole(settings):
    # From the app's static folder, as in development: a fresh checkout has no collectstatic.
    settings.WHITENOISE_USE_FINDERS = True

    async def scenario():
        return await fetch(HttpHandler(), "GET", "/static/games/site.css")

    response = run_async(scenario)
    assert response["status"] == 200
    assert headers_of(response)["content-type"].startswith("text/css")
    assert b".playing-card" in response["body"]


def test_a_refused_post_is_answered_by_the_chain_not_the_server():
    async def scenario():
        return await fetch(HttpHandler(), "POST", "/matches/1/play/", b"card=QS")

    response = run_async(scenario)
    assert response["status"] == 403  # no CSRF token: refused before the view


def test_it_runs_each_request_in_its_pool_not_the_event_loop():
    handler = HttpHandler()
    seen = []
    chain = handler._middleware_chain

    def spy(request):
        seen.append(threading.current_thread().name)
        return chain(request)

    handler._middleware_chain = spy

    async def scenario():
        for _ in range(3):
            await fetch(handler, "GET", "/healthz")

    run_async(scenario)
    assert len(seen) == 3 and all(name.startswith("http") for name in seen), seen


def test_a_worker_thread_keeps_its_cache_client_from_one_request_to_the_next():
    """As in a WSGI server's thread: a Redis cache would otherwise reconnect for every request."""
    handler = HttpHandler()
    handler.executor = ThreadPoolExecutor(max_workers=1)
    clients = []
    chain = handler._middleware_chain

    def spy(request):
        clients.append(caches["default"])
        return chain(request)

    handler._middleware_chain = spy

    async def scenario():
        for _ in range(2):
            await fetch(handler, "GET", "/healthz")

    run_async(scenario)
    assert len(clients) == 2 and clients[0] is clients[1]


def test_a_live_event_is_handed_to_the_serving_loop_without_waiting(monkeypatch):
    """In a server, a committed move's events go to its loop; the request does not wait."""
    returned = threading.Event()
    sent: list[tuple[str, dict, bool]] = []

    class SlowLayer:
        async def group_send(self, group: str, message: dict) -> None:
            # Give the relaying thread a second to come back before this send completes.
            for _ in range(100):
                if returned.is_set():
                    break
                await asyncio.sleep(0.01)
            sent.append((group, message, returned.is_set()))

    monkeypatch.setattr("games.live.get_channel_layer", lambda: SlowLayer())

    def move_committed() -> None:
        relay(None, match_id=41, version=7, to_act_user_ids=[5], status="active",
              became_to_act_user_ids=[5])  # fmt: skip
        returned.set()

    async def scenario():
        await fetch(HttpHandler(), "GET", "/healthz")
        assert http.server_loop() is not None  # this loop now serves HTTP
        await sync_to_async(move_committed, thread_sensitive=False)()
        for _ in range(200):
            if len(sent) == 2:
                break
            await asyncio.sleep(0.01)

    run_async(scenario)
    assert [(group, returned_first) for group, _, returned_first in sent] == [
        (match_group(41), True),
        (user_group(5), True),
    ]
    notice = dict(sent[1][1])
    assert isinstance(notice.pop("sent"), float)  # when it was sent, for timing deliveries
    assert sent[0][1]["version"] == 7 and notice == {
        "type": "turn.notify",
        "match": 41,
        "version": 7,
    }


@pytest.fixture
def layer_sends(monkeypatch) -> list[str]:
    """Replace the channel layer with one that notes the group of each event sent to it."""
    sent: list[str] = []

    class Layer:
        async def group_send(self, group: str, message: dict) -> None:
            sent.append(group)

    monkeypatch.setattr("games.live.get_channel_layer", lambda: Layer())
    return sent


def test_without_a_serving_loop_events_are_sent_before_returning(monkeypatch, layer_sends):
    sent = layer_sends
    monkeypatch.setattr("games.live.server_loop", lambda: None)

    def move_committed() -> None:
        relay(None, match_id=3, version=1, to_act_user_ids=[], status="active",
              became_to_act_user_ids=[])  # fmt: skip
        assert sent == [match_group(3)]  # already sent, before returning

    # On a thread of its own, as a browser test may hold a running loop in this one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(move_committed).result()
    assert sent == [match_group(3)]


async def call_recording(handler: HttpHandler, path: str, events: list[str]) -> None:
    """Serve one GET through the handler, noting each message it sends in `events`."""

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        events.append(message["type"])

    await handler(http_scope("GET", path), receive, send)


def test_what_a_request_defers_runs_once_its_response_is_sent():
    handler = HttpHandler()
    events: list[str] = []
    handed: list[bool] = []
    chain = handler._middleware_chain

    async def deferred():
        events.append("deferred")

    def spy(request):
        handed.append(http.after_response(deferred()))
        response = chain(request)
        events.append("view returned")
        return response

    handler._middleware_chain = spy

    async def scenario():
        await call_recording(handler, "/healthz", events)
        for _ in range(100):
            if "deferred" in events:
                break
            await asyncio.sleep(0.01)

    run_async(scenario)
    assert handed == [True]
    assert events == ["view returned", "http.response.start", "http.response.body", "deferred"]


def test_deferred_work_leaves_the_answer_its_reader_a_moment_first():
    # A reader on this machine, woken by the answer, may be queued on the loop's core: the
    # loop idles for DEFERRED_WORK_DELAY before the deferred work, so the reader runs first.
    handler = HttpHandler()
    times: dict[str, float] = {}
    chain = handler._middleware_chain

    async def deferred():
        times["deferred"] = asyncio.get_running_loop().time()

    def spy(request):
        http.after_response(deferred())
        return chain(request)

    handler._middleware_chain = spy

    async def scenario():
        loop = asyncio.get_running_loop()

        async def receive():
            return {"type": "http.request", "body": b""}

        async def send(message):
            if message["type"] == "http.response.body":
                times["answered"] = loop.time()

        await handler(http_scope("GET", "/healthz"), receive, send)
        for _ in range(100):
            if "deferred" in times:
                break
            await asyncio.sleep(0.01)

    run_async(scenario)
    assert http.DEFERRED_WORK_DELAY >= 0.001  # a whole pass of the loop: it blocks meanwhile
    assert times["deferred"] - times["answered"] >= http.DEFERRED_WORK_DELAY * 0.9


def test_outside_a_request_nothing_is_deferred():
    async def never():
        pass

    coroutine = never()
    assert http.after_response(coroutine) is False
    coroutine.close()


def test_a_move_committed_in_a_request_is_relayed_after_its_answer(layer_sends):
    events = layer_sends  # the handler's messages and the layer's sends, in one order
    handler = HttpHandler()
    chain = handler._middleware_chain

    def spy(request):
        relay(None, match_id=9, version=2, to_act_user_ids=[4], status="active",
              became_to_act_user_ids=[4])  # fmt: skip
        return chain(request)

    handler._middleware_chain = spy

    async def scenario():
        await call_recording(handler, "/healthz", events)
        for _ in range(100):
            if len(events) == 4:
                break
            await asyncio.sleep(0.01)

    run_async(scenario)
    assert events == [
        "http.response.start", "http.response.body", match_group(9), user_group(4),
    ]  # fmt: skip
