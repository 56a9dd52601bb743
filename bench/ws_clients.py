"""The pages of the WebSocket benchmark: HTTP as a page's forms send it, sockets as live.js
opens them, and players making moves while every delivery is timed (used by ws_bench.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
import urllib.parse
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect

PASSWORD = "bench-password-1"
WAIT_FOR_EVENTS = 5.0  # seconds after the POST's answer before an event counts as missed

VERSION_RE = re.compile(r'name="version" value="(\d+)"')
PASS_RE = re.compile(r'name="cards" value="([2-9TJQKA][CDHS])"')
PLAY_RE = re.compile(r'<button type="submit" name="card" value="([2-9TJQKA][CDHS])"([^>]*)>')
MOON_RE = re.compile(r'name="option" value="(subtract|add)"')


# ----- HTTP, as a page's forms send it ---------------------------------------------------------


class Browser:
    """One signed-in browser's cookies; each request on a fresh loopback connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    async def request(
        self, method: str, path: str, form: list | None = None, htmx: bool = False
    ) -> tuple[int, dict[str, str], str]:
        origin = f"http://127.0.0.1:{self.port}"
        headers = {"Host": f"127.0.0.1:{self.port}", "Origin": origin}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        body = b""
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        headers["Content-Length"] = str(len(body))
        # HTTP/1.0: the server answers without chunks and closes, so the body ends at EOF.
        header_lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        head = f"{method} {path} HTTP/1.0\r\n{header_lines}\r\n"
        async with asyncio.timeout(60):
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                writer.write(head.encode() + body)
                raw = await reader.read()
            finally:
                writer.close()
        top, _, content = raw.partition(b"\r\n\r\n")
        lines = top.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        answer: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
            answer[name] = value
        return status, answer, content.decode()

    async def log_in(self, username: str) -> None:
        await self.request("GET", "/accounts/login/")  # for the CSRF cookie
        form = [("username", username), ("password", PASSWORD)]
        status, _, _ = await self.request("POST", "/accounts/login/", form)
        if status != 302 or "sessionid" not in self.cookies:
            raise RuntimeError(f"{username} could not log in (answered {status})")


# ----- the sockets ------------------------------------------------------------------------------


@dataclass
class Tab:
    """One open page: its user, the match it follows, its socket."""

    number: int
    user: str
    match: int
    socket: ClientConnection | None = None


@dataclass
class Delivery:
    """An event one page heard: when it arrived, and when the server said it sent it."""

    arrived: float
    sent: float | None
    event: dict


@dataclass
class Run:
    """Everything heard and measured in one run."""

    heard: dict[tuple, Delivery] = field(default_factory=dict)
    unexpected: list[str] = field(default_factory=list)
    expected: set[tuple] = field(default_factory=set)
    from_commit_ms: list[float] = field(default_factory=list)
    from_post_ms: list[float] = field(default_factory=list)
    last_seat_ms: list[float] = field(default_factory=list)
    post_ms: list[float] = field(default_factory=list)
    moves: dict[str, int] = field(default_factory=lambda: {"play": 0, "pass": 0, "moon": 0})
    missed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)


async def listen(tab: Tab, run: Run) -> None:
    """Note every event a page hears, stamped the moment it is received."""
    assert tab.socket is not None
    try:
        async for raw in tab.socket:
            arrived = time.time()
            event = json.loads(raw)
            key = (tab.number, event.get("type"), event.get("match"), event.get("version"))
            run.heard[key] = Delivery(arrived, event.get("sent"), event)
            async with run.changed:
                run.changed.notify_all()
    except Exception as error:  # a dropped socket is a finding, not a crash of the bench
        run.errors.append(f"tab {tab.number} stopped listening: {error!r}")


async def open_tab(tab: Tab, browser: Browser, run: Run) -> None:
    """Open the page's socket with its session cookie and follow its match, as live.js does."""
    base = f"127.0.0.1:{browser.port}"
    tab.socket = await connect(
        f"ws://{base}/ws/live/",
        origin=f"http://{base}",
        additional_headers={"Cookie": f"sessionid={browser.cookies['sessionid']}"},
        ping_interval=None,  # a browser's script sends no pings; it only answers them
        open_timeout=60,
    )
    await tab.socket.send(json.dumps({"follow": tab.match}))
    answer = json.loads(await asyncio.wait_for(tab.socket.recv(), 60))
    if answer.get("type") != "following":
        raise RuntimeError(f"tab {tab.number} could not follow match {tab.match}: {answer}")
    run.heard[(tab.number, "following", tab.match, answer["version"])] = Delivery(
        time.time(), None, answer
    )


async def open_tabs(tabs: list[Tab], browsers: dict[str, Browser], run: Run) -> None:
    gate = asyncio.Semaphore(50)

    async def one(tab: Tab) -> None:
        async with gate:
            await open_tab(tab, browsers[tab.user], run)

    await asyncio.gather(*(one(tab) for tab in tabs))


async def close_tabs(tabs: list[Tab]) -> None:
    await asyncio.gather(*(tab.socket.close() for tab in tabs if tab.socket))


# ----- playing ---------------------------------------------------------------------------------


def choose(page: str, rng: random.Random) -> tuple[str, list] | None:
    """Choose a legal action from a page's hand region, as a player clicking would."""
    version = VERSION_RE.search(page)
    if version is None:
        return None
    passable = PASS_RE.findall(page)
    playable = [card for card, attrs in PLAY_RE.findall(page) if "disabled" not in attrs]
    moon = MOON_RE.findall(page)
    if passable:
        action, form = "pass", [("cards", card) for card in rng.sample(passable, 3)]
    elif playable:
        action, form = "play", [("card", rng.choice(playable))]
    elif moon:
        action, form = "moon", [("option", rng.choice(moon))]
    else:
        return None
    return action, [*form, ("version", version.group(1))]


async def wait_for(run: Run, keys: set[tuple], deadline: float) -> set[tuple]:
    """Wait until every key has been heard or the deadline passes; return the ones missing."""
    async with run.changed:
        while True:
            missing = {key for key in keys if key not in run.heard}
            left = deadline - time.monotonic()
            if not missing or left <= 0:
                return missing
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(run.changed.wait(), left)


async def play_match(
    match: dict, tabs: list[Tab], browsers: dict[str, Browser], ids: dict[str, int],
    moves: int, think: float, run: Run,
) -> None:  # fmt: skip
    """Make `moves` moves in one match, each by whoever must act, and time every event."""
    mine = [tab for tab in tabs if tab.match == match["id"]]
    by_user = {ids[name]: name for name in match["players"]}
    first = next(d for k, d in run.heard.items() if k[0] == mine[0].number and k[1] == "following")
    version, to_act = first.event["version"], first.event["to_act"]
    rng = random.Random(match["id"])
    for _ in range(moves):
        if not to_act:
            run.errors.append(f"match {match['id']}: nobody is to act at version {version}")
            return
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        mover = browsers[by_user[to_act[0]]]
        path = f"/matches/{match['id']}/"
        # What the mover's page does on the event: fetch its own regions, then choose.
        status, _, page = await mover.request("GET", path, htmx=True)
        chosen = choose(page, rng) if status == 200 else None
        if chosen is None:
            run.errors.append(f"match {match['id']}: no action for the player to act ({status})")
            return
        action, form = chosen
        posted = time.time()
        status, headers, _ = await mover.request("POST", f"{path}{action}/", form, htmx=True)
        run.post_ms.append((time.time() - posted) * 1000)
        if status != 200:
            run.errors.append(f"match {match['id']}: {action} answered {status}")
            return
        run.moves[action] += 1
        version = int(headers["x-match-version"])
        deadline = time.monotonic() + WAIT_FOR_EVENTS
        updates = {(tab.number, "match.updated", match["id"], version) for tab in mine}
        if await wait_for(run, updates, deadline) == updates:
            run.missed += [f"match {match['id']} v{version}: no page heard it"] * len(updates)
            return
        news = next(run.heard[key].event for key in updates if key in run.heard)
        # Those whose turn it became (not who was already to act) hear it on every page.
        became = set(news["to_act"]) - set(to_act)
        notices = {
            (tab.number, "turn.notify", match["id"], version)
            for tab in tabs
            if ids[tab.user] in became
        }
        expected = updates | notices
        missing = await wait_for(run, expected, deadline)
        run.missed += [f"{key} never arrived" for key in sorted(missing)]
        run.expected |= expected
        arrived = [run.heard[key] for key in expected - missing]
        for delivery in arrived:
            if delivery.sent is not None:
                run.from_commit_ms.append((delivery.arrived - delivery.sent) * 1000)
            run.from_post_ms.append((delivery.arrived - posted) * 1000)
        if arrived and arrived[0].sent is not None:
            run.last_seat_ms.append((max(d.arrived for d in arrived) - arrived[0].sent) * 1000)
        to_act = news["to_act"]


async def watch_loop(run: Run, stop: asyncio.Event) -> None:
    """Measure how late this process's loop wakes up: its lag shows a saturated client."""
    while not stop.is_set():
        began = time.perf_counter()
        await asyncio.sleep(0.005)
        run.lag_ms.append((time.perf_counter() - began - 0.005) * 1000)
