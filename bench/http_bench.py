"""Whole matches over HTTP against a real daphne server, on SQLite and on PostgreSQL.

K simulated players each log in, create a match against three bots and play it to the end the
way the browser does with htmx: every action is a POST whose response carries the partials
that changed, which the player reads to choose the next move. Meanwhile a probe requests a
trivial view (`/healthz`) through the same server, so the play request's latency can be
compared with the server's floor under the same load, and a second probe times the cheapest
signed-in request (the table's poll for news, answered 204): the floor of a signed-in page.

    python bench/http_bench.py                      # both profiles, 50 matches each
    python bench/http_bench.py --profile sqlite --matches 20 --target 50
    python bench/http_bench.py --stages             # also where the server's time goes
    python bench/http_bench.py --profile postgres --servers 1   # one daphne process only

Prints moves per second, p50/p99 of the play request (and the p50 of the plays that ended a
hand, a rarer and dearer request), of the trivial view and of the signed-in poll, the play
request's ratio to each, and every error. With `--stages`, the server also times each
request's stages inside it (`server_stages.py`) and the run prints their medians.
The PostgreSQL profile needs a server at 127.0.0.1:5432 (user postgres) and uses Redis at
127.0.0.1:6379 for the channel layer and cache, as the scaled-out site does; like it, it runs
several daphne processes (one per core unless `--servers` says otherwise), each player keeping
to one of them as behind a proxy, and the probes taking turns between them. The SQLite profile
is one process: its channel layer lives in that process's memory.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from benchlib import free_port, percentile, production_env, reset_postgres  # beside this script
from server_stages import report as report_stages

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PASSWORD = "bench-password-1"

VERSION_RE = re.compile(r'name="version" value="(\d+)"')
PASS_RE = re.compile(r'name="cards" value="([2-9TJQKA][CDHS])"')
PLAY_RE = re.compile(r'<button type="submit" name="card" value="([2-9TJQKA][CDHS])"([^>]*)>')
MOON_RE = re.compile(r'name="option" value="(subtract|add)"')
SCORES_REGION = 'id="scores"'
# The bots play at the easy level, which answers within the person's request: the benchmark
# measures a card's path, not the background bots' searches (see `bench/arena.py` for those).
EASY_BOTS = {f"bot_levels_{n}": "easy" for n in range(3)}


@dataclass
class Figures:
    """What one profile's run measured."""

    play_ms: list[float] = field(default_factory=list)
    hand_end_ms: list[float] = field(default_factory=list)  # plays that ended a hand too
    other_ms: list[float] = field(default_factory=list)
    trivial_ms: list[float] = field(default_factory=list)
    signed_in_ms: list[float] = field(default_factory=list)
    idle_trivial_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    finished: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


# Chromium writes a request's headers and its body in one go when the body is this small.
MERGED_BODY_LIMIT = 1400


class BrowserConnection(http.client.HTTPConnection):
    """A keep-alive connection that sends a small request in one write, as a browser does.

    `http.client` writes the headers, then the body, in two writes: the server would see a
    form POST arrive in two parts, and wake for each, which no browser makes it do.
    """

    def _send_output(self, message_body=None, encode_chunked=False):
        small = isinstance(message_body, bytes) and len(message_body) < MERGED_BODY_LIMIT
        if small and not encode_chunked:
            # The headers end with an empty line; the body follows it at once.
            self._buffer.extend((b"", message_body))
            message = b"\r\n".join(self._buffer)
            del self._buffer[:]
            self.send(message)
            return
        super()._send_output(message_body, encode_chunked)


class Browser:
    """One player's connection: cookies, CSRF token, keep-alive."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = BrowserConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: dict | list | None = None, htmx: bool = False
    ) -> tuple[int, dict[str, str], str]:
        headers = {"Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                text = response.read().decode()
                break
            except (http.client.HTTPException, ConnectionError):
                # The server closed an idle keep-alive connection: open a new one once.
                self.connection.close()
                self.connection = BrowserConnection("127.0.0.1", self.port, timeout=60)
                if attempt:
                    raise
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text

    def login(self, username: str) -> None:
        self.request("GET", "/accounts/login/")
        status, _, _ = self.request(
            "POST", "/accounts/login/", {"username": username, "password": PASSWORD}
        )
        if status != 302:
            raise RuntimeError(f"login of {username} answered {status}")


def play_match(
    browser: Browser, target: int, think: float, figures: Figures, start: threading.Barrier,
    until: float | None = None,
) -> None:  # fmt: skip
    """Create a match against three bots and play it through to the end (or `until`).

    `until` is a `time.monotonic()` reading after which the player stops, mid-match.
    """
    form = {
        "players": 4, "target": target, "moon": "ask", "bots": 3,
        "auto_play_forced": "on", "auto_finish": "on", **EASY_BOTS,
    }  # fmt: skip
    status, headers, _ = browser.request("POST", "/matches/new/", form)
    if status != 302:
        figures.error(f"create answered {status}")
        start.wait()
        return
    path = headers["location"]
    rng = random.Random(path)
    start.wait()
    _, _, page = browser.request("GET", path)
    for _ in range(2000):
        if until is not None and time.monotonic() > until:
            return
        version = VERSION_RE.search(page)
        passable = PASS_RE.findall(page)
        playable = [card for card, attrs in PLAY_RE.findall(page) if "disabled" not in attrs]
        moon = MOON_RE.findall(page)
        if version is None:
            break  # no action form: the match is over
        if passable:
            action, data, bucket = "pass", [("cards", c) for c in rng.sample(passable, 3)], "other"
        elif playable:
            action, data, bucket = "play", [("card", rng.choice(playable))], "play"
        elif moon:
            action, data, bucket = "moon", [("option", rng.choice(moon))], "other"
        else:
            # The player waits for nobody (bots answer at once), so refresh and look again.
            _, _, page = browser.request("GET", path, htmx=True)
            continue
        data.append(("version", version.group(1)))
        if think:
            # A person looks at the table before moving: between half and one and a half
            # times the mean thinking time.
            time.sleep(think * rng.uniform(0.5, 1.5))
        began = time.perf_counter()
        status, _, page = browser.request("POST", f"{path}{action}/", data, htmx=True)
        elapsed = (time.perf_counter() - began) * 1000
        if status != 200:
            figures.error(f"{action} on {path} answered {status}")
            _, _, page = browser.request("GET", path)
            continue
        with figures.lock:
            (figures.play_ms if bucket == "play" else figures.other_ms).append(elapsed)
            # Only a changed score sheet (a hand or the match ended) comes with its region.
            if bucket == "play" and SCORES_REGION in page:
                figures.hand_end_ms.append(elapsed)
    with figures.lock:
        figures.finished += 1


def time_requests(
    browsers: list[Browser], path: str, expected: int, samples: list[float], pause: float,
    figures: Figures, stop: threading.Event, htmx: bool = False,
) -> None:  # fmt: skip
    """GET `path` until `stop` is set, noting each answer's time in `samples`.

    With several servers, one browser each, the requests take turns between them.
    """
    turns = itertools.cycle(browsers)
    while not stop.is_set():
        browser = next(turns)
        began = time.perf_counter()
        status, _, _ = browser.request("GET", path, htmx=htmx)
        elapsed = (time.perf_counter() - began) * 1000
        if status != expected:
            figures.error(f"{path} answered {status}")
        with figures.lock:
            samples.append(elapsed)
        time.sleep(pause)


def probe_trivial(ports: list[int], figures: Figures, stop: threading.Event) -> None:
    """Time /healthz through the same servers while the players play."""
    browsers = [Browser(port) for port in ports]
    time_requests(browsers, "/healthz", 200, figures.trivial_ms, 0.02, figures, stop)


def probe_signed_in(
    browser: Browser, ports: list[int], figures: Figures, stop: threading.Event
) -> None:
    """Time the table's own "anything new?" poll: signed in, one match read, answered 204.

    The probe's player opened a match and never moves in it, so its version stays put. This
    is the cheapest request a signed-in page makes (the session, the user, the match's row),
    shown beside `/healthz` to tell what signing in costs from what a move costs.
    """
    form = {"players": 4, "target": 50, "moon": "ask", "bots": 3, **EASY_BOTS}
    status, headers, _ = browser.request("POST", "/matches/new/", form)
    if status != 302:
        figures.error(f"the signed-in probe's match answered {status}")
        return
    path = headers["location"]
    _, _, page = browser.request("GET", path)
    version = VERSION_RE.search(page)
    if version is None:
        figures.error("the signed-in probe's match shows no version")
        return
    poll = f"{path}?since={version.group(1)}"
    browsers = [browser]
    for port in ports[1:]:  # the same session, kept in the shared cache, on the other servers
        other = Browser(port)
        other.cookies = dict(browser.cookies)
        browsers.append(other)
    time_requests(browsers, poll, 204, figures.signed_in_ms, 0.1, figures, stop, htmx=True)


@dataclass(frozen=True)
class Checkout:
    """A checkout of the site to serve: its top folder and the Python that runs it."""

    root: Path = ROOT
    python: str = sys.executable


THIS = Checkout()


def manage(env: dict[str, str], *args: str, checkout: Checkout = THIS) -> None:
    subprocess.run([checkout.python, "manage.py", *args], cwd=checkout.root, env=env, check=True)


def create_players(
    env: dict[str, str], count: int, checkout: Checkout = THIS, prefix: str = "bench"
) -> list[str]:
    names = [f"{prefix}{i:03d}" for i in range(count)]
    code = (
        "from django.contrib.auth import get_user_model\n"
        "from django.contrib.auth.hashers import make_password\n"
        f"hashed = make_password({PASSWORD!r})\n"
        "User = get_user_model()\n"
        f"for name in {names!r}:\n"
        "    user, _ = User.objects.get_or_create(username=name)\n"
        "    user.password = hashed\n"
        "    user.save()\n"
    )
    manage(env, "shell", "-c", code, checkout=checkout)
    return names


@dataclass
class Options:
    """How a run is set up: its size and where the PostgreSQL profile keeps its data."""

    matches: int
    target: int
    think: float
    database: str
    redis_url: str
    stages: bool = False
    servers: int | None = None  # daphne processes for the PostgreSQL profile; None: one a core


@dataclass
class Server:
    """One daphne process of a run, and the file its log goes to."""

    port: int
    process: subprocess.Popen
    log: Path
    stages: Path | None  # where it writes its requests' stages, with --stages


def start_servers(
    count: int, application: str, env: dict[str, str], workdir: Path, profile: str,
    stages: bool, checkout: Checkout = THIS,
) -> list[Server]:  # fmt: skip
    """Start `count` daphne processes on ports of their own; return once all of them answer.

    With `stages`, each writes the stages of its requests to a file of its own.
    """
    ports: list[int] = []
    while len(ports) < count:
        if (port := free_port()) not in ports:
            ports.append(port)
    servers = []
    for number, port in enumerate(ports):
        server_env = dict(env)
        stages_file = workdir / f"{profile}-stages-{number}.json" if stages else None
        if stages_file:
            server_env["HEARTS_BENCH_STAGES"] = str(stages_file)
        # The server's log goes to a file: a pipe nobody reads until the end would fill up
        # and stop the server mid-run if it logged much.
        log = workdir / f"{profile}-server-{number}.log"
        with log.open("wb") as log_file:
            process = subprocess.Popen(
                [checkout.python, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), application],
                cwd=checkout.root, env=server_env, stdout=subprocess.DEVNULL, stderr=log_file,
            )  # fmt: skip
        servers.append(Server(port, process, log, stages_file))
    deadline = time.monotonic() + 30
    for server in servers:
        while True:
            try:
                Browser(server.port).request("GET", "/healthz")
                break
            except OSError:
                if time.monotonic() > deadline:
                    stop_servers(servers)
                    raise
                time.sleep(0.2)
    return servers


def stop_servers(servers: list[Server]) -> None:
    for server in servers:
        server.process.terminate()
    for server in servers:
        server.process.wait(timeout=20)


def run_profile(profile: str, options: Options, workdir: Path) -> Figures:
    """Serve one profile with daphne and play `matches` matches against it at once."""
    env = production_env(os.environ)
    if profile == "sqlite":
        env["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
        count = 1  # the in-memory channel layer reaches only its own process
    else:
        env["DATABASE_URL"] = reset_postgres(options.database)
        env["REDIS_URL"] = options.redis_url
        count = options.servers or os.cpu_count() or 1
    application = "hearts_site.asgi:application"
    if options.stages:
        # The same site, with its requests' stages timed (server_stages.py, beside this file).
        application = "stages_asgi:application"
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(BENCH), env.get("PYTHONPATH")]))
    manage(env, "migrate", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    matches, target, think = options.matches, options.target, options.think
    names = create_players(env, matches + 1)  # the last one is the signed-in probe
    servers = start_servers(count, application, env, workdir, profile, options.stages)
    ports = [server.port for server in servers]
    figures = Figures()
    try:
        idle = Figures()
        stop_idle = threading.Event()
        threading.Timer(3.0, stop_idle.set).start()
        probe_trivial(ports, idle, stop_idle)
        figures.idle_trivial_ms = idle.trivial_ms
        browsers = []
        for number, name in enumerate(names):
            # Each player keeps to one server, as a browser's connection through a proxy does.
            browser = Browser(ports[number % len(ports)])
            browser.login(name)
            browsers.append(browser)
        signed_in = browsers.pop()
        start = threading.Barrier(len(browsers) + 1)
        players = [
            threading.Thread(target=play_match, args=(b, target, think, figures, start))
            for b in browsers
        ]
        stop = threading.Event()
        probes = [
            threading.Thread(target=probe_trivial, args=(ports, figures, stop)),
            threading.Thread(target=probe_signed_in, args=(signed_in, ports, figures, stop)),
        ]
        for thread in players:
            thread.start()
        start.wait()
        began = time.perf_counter()
        for probe in probes:
            probe.start()
        for thread in players:
            thread.join()
        wall = time.perf_counter() - began
        stop.set()
        for probe in probes:
            probe.join()
    finally:
        stop_servers(servers)
    logged = b"".join(server.log.read_bytes() for server in servers)
    if b"Traceback" in logged:
        kept = Path(tempfile.gettempdir()) / f"hearts-bench-{profile}-server.log"
        kept.write_bytes(logged)  # the work folder is deleted when the run ends
        figures.error(f"the servers logged {logged.count(b'Traceback')} traceback(s); see {kept}")
    report(profile, matches, target, think, wall, figures, len(servers))
    if options.stages:
        report_stages([str(server.stages) for server in servers])
    return figures


def report(
    profile: str, matches: int, target: int, think: float, wall: float, figures: Figures,
    servers: int,
) -> None:  # fmt: skip
    if not figures.play_ms or not figures.trivial_ms or not figures.signed_in_ms:
        print(f"\n== {profile}: nothing to report; errors:")
        for error in figures.errors[:10]:
            print(f"  {error}")
        return
    moves = len(figures.play_ms) + len(figures.other_ms)
    play50, play99 = percentile(figures.play_ms, 0.5), percentile(figures.play_ms, 0.99)
    triv50, triv99 = percentile(figures.trivial_ms, 0.5), percentile(figures.trivial_ms, 0.99)
    print(
        f"\n== {profile}: {matches} matches at once, 1 person + 3 bots each, target {target}, "
        f"thinking {think:g} s on average between moves; "
        f"{servers} daphne process{'es' if servers > 1 else ''}"
    )
    print(f"matches finished      {figures.finished}/{matches} in {wall:.1f} s")
    print(f"moves by people       {moves} ({moves / wall:.1f} per second)")
    print(
        f"play request          p50 {play50:.1f} ms   p99 {play99:.1f} ms   "
        f"n={len(figures.play_ms)}"
    )
    if figures.hand_end_ms:
        print(
            f"  of which ending a hand  p50 {percentile(figures.hand_end_ms, 0.5):.1f} ms   "
            f"n={len(figures.hand_end_ms)}"
        )
    print(f"pass/moon request     p50 {statistics.median(figures.other_ms):.1f} ms")
    print(
        f"trivial view /healthz p50 {triv50:.1f} ms   p99 {triv99:.1f} ms   "
        f"n={len(figures.trivial_ms)}"
    )
    idle50 = percentile(figures.idle_trivial_ms, 0.5)
    print(f"trivial view, idle    p50 {idle50:.1f} ms (before the players start)")
    signed50 = percentile(figures.signed_in_ms, 0.5)
    print(
        f"signed-in poll (204)  p50 {signed50:.1f} ms   "
        f"p99 {percentile(figures.signed_in_ms, 0.99):.1f} ms   n={len(figures.signed_in_ms)}"
    )
    print(f"play p50 / trivial p50  {play50 / triv50:.2f}x   (target: within 3x)")
    print(f"play p50 / signed-in poll p50  {play50 / signed50:.2f}x")
    print(f"errors                {len(figures.errors)}")
    for error in figures.errors[:10]:
        print(f"  {error}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--target", type=int, default=50)
    parser.add_argument(
        "--think",
        type=float,
        default=2.0,
        help="mean seconds a player looks at the table before each move (0: no pause at all)",
    )
    parser.add_argument(
        "--database",
        default="hearts_bench",
        help="PostgreSQL database the run drops and creates afresh (default: hearts_bench)",
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/2")
    parser.add_argument(
        "--stages", action="store_true", help="time each request's stages inside the server too"
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=None,
        help="daphne processes for the PostgreSQL profile (default: one per core)",
    )
    args = parser.parse_args()
    if args.servers is not None and args.servers < 1:
        parser.error("--servers needs at least one process")
    options = Options(
        args.matches, args.target, args.think, args.database, args.redis_url, args.stages,
        args.servers,
    )  # fmt: skip
    profiles = ["sqlite", "postgres"] if args.profile == "both" else [args.profile]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; server and players share them")
    workdir = Path(tempfile.mkdtemp(prefix="hearts-bench-"))
    failed = False
    try:
        for profile in profiles:
            figures = run_profile(profile, options, workdir)
            failed |= bool(figures.errors) or figures.finished != args.matches
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
