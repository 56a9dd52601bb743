"""Real daphne processes for tests that need WebSocket: a SQLite file, migrated, and players."""

import atexit
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import pytest

ROOT = Path(__file__).resolve().parent.parent


def redis_answers() -> bool:
    """Say whether a Redis server answers PING at 127.0.0.1:6379."""
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def missing(message: str) -> None:
    """Skip for want of something on a developer's machine; in CI it is a failure."""
    if in_ci():
        pytest.fail(message)
    pytest.skip(message)


def require_redis() -> None:
    """Skip without Redis on a developer's machine; in CI a missing Redis is a failure."""
    if not redis_answers():
        missing("No Redis answers at 127.0.0.1:6379")


def require_program(name: str, why: str) -> str:
    """Return the path of the program `name`; skip without it (in CI, fail)."""
    path = shutil.which(name)
    if path is None:
        missing(f"{name} is not installed: {why}")
    return str(path)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def site_env(database: Path, redis_url: str = "") -> dict[str, str]:
    """Return the environment of a site on this SQLite file (and this Redis, if any)."""
    drop = {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(DATABASE_URL=f"sqlite:///{database}", DEBUG="1", LOG_LEVEL="WARNING")
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


def env_file(path: Path) -> dict[str, str]:
    """Read a KEY=VALUE file as systemd's EnvironmentFile does (comments, blank lines, and
    values in double quotes; the example uses nothing more)."""
    variables = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            variables[name.strip()] = value.strip().removeprefix('"').removesuffix('"')
    return variables


def manage(env: dict[str, str], *args: str) -> str:
    """Run a management command against the site; return what it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=env, check=True, timeout=120, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout


# One SQLite file migrated per test process; each site starts as a copy of it (`migrate`).
_migrated: list[Path] = []


def migrate(env: dict[str, str]) -> None:
    """Give the site's SQLite file every migration: a copy of one this process migrated once
    (`manage.py migrate` takes seconds; the schema is the same for every site)."""
    if not _migrated:
        folder = tempfile.mkdtemp(prefix="hearts-migrated-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        template = Path(folder) / "migrated.sqlite3"
        manage(site_env(template), "migrate", "-v0")
        _migrated.append(template)
    database = env["DATABASE_URL"].removeprefix("sqlite:///")
    shutil.copy(_migrated[0], database)


def seated_match(env: dict[str, str], stage: str = "mid-trick") -> dict:
    """Migrate, then create alice and bob and a match in which alice plays and bob is next."""
    migrate(env)
    script = f"from tests.live_setup import main; main({stage!r})"
    return json.loads(manage(env, "shell", "-c", script).strip().splitlines()[-1])


def wait_until_up(
    base: str,
    server: subprocess.Popen,
    seconds: float = 30,
    log: Path | None = None,
    http: bool = True,
) -> None:
    """Wait until the server answers HTTP (or, with `http` False, only accepts connections:
    a server that has served no request yet)."""
    deadline = time.monotonic() + seconds
    host, port = base.removeprefix("http://").split(":")
    while True:
        try:
            if http:
                with urllib.request.urlopen(f"{base}/healthz", timeout=5):
                    return
            else:
                with socket.create_connection((host, int(port)), timeout=5):
                    return
        except OSError:
            if server.poll() is not None:
                said = log.read_text() if log else server.stderr.read().decode()
                raise RuntimeError(said) from None
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@contextmanager
def daphne(
    env: dict[str, str],
    port: int | None = None,
    log: Path | None = None,
    probe: bool = True,
    proxy_headers: bool = False,
) -> Iterator[str]:
    """Serve the site with daphne on the port (a free one by default); yield its base URL.

    What the server logs is kept in memory, or written to `log` when given: a test that
    makes a server log a lot (faults, each with its traceback) must give one, since nothing
    reads the pipe while the server runs and a full pipe would stop it. Without `probe`, no
    request is made to see that it is up: it has served none when the block begins.
    `proxy_headers` runs it as behind nginx (deploy/systemd/hearts-daphne@.service).
    """
    port = port or free_port()
    options = ["--proxy-headers"] if proxy_headers else []
    with ExitStack() as files:
        errors = files.enter_context(log.open("wb")) if log else subprocess.PIPE
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", *options, "-b", "127.0.0.1", "-p", str(port),
             "hearts_site.asgi:application"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=errors,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, server, log=log, http=probe)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            # daphne gives a WebSocket's consumer up to 10 s to close: stop it outright, so that
            # no server outlives its test (a later test waiting on any child would reap it).
            server.kill()
            server.wait()


@contextmanager
def worker(
    env: dict[str, str], queues: str, log: Path, clock_offset: float = 0
) -> Iterator[subprocess.Popen]:
    """Run `manage.py worker --queues <queues>` (now, long) on the site until the block ends.

    Its output goes to `log`; `clock_offset` moves its clock forward (games/lib/clock.py, with
    DEBUG on as `site_env` sets it), so that deadlines pass for it at once.
    """
    env = {**env, "HEARTS_CLOCK_OFFSET_SECONDS": str(clock_offset)}
    command = [sys.executable, "manage.py", "worker", "--queues", queues]
    with log.open("a") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            yield process
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class Visitor:
    """A person using the site over HTTP, with their own cookies (over HTTPS, trusting the
    certificates of `tls`)."""

    def __init__(self, base: str, tls: ssl.SSLContext | None = None) -> None:
        self.base = base
        self.tls = tls
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies),
            urllib.request.HTTPSHandler(context=tls),
        )

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.cookies if c.name == name)

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=10) as response:
            return response.read().decode()

    def form_request(self, path: str, data: dict) -> urllib.request.Request:
        """Return a form's POST with the CSRF token, as the page's own form sends it: from the
        site's own origin (which Django's CSRF check wants over HTTPS)."""
        form = urlencode({**data, "csrfmiddlewaretoken": self.cookie("csrftoken")}, doseq=True)
        headers = {"Origin": self.base, "Referer": self.base + "/"}
        return urllib.request.Request(self.base + path, data=form.encode(), headers=headers)

    def post(self, path: str, data: dict) -> int:
        """Send a form, with the CSRF token, as the page's own form would; return the status."""
        request = self.form_request(path, data)
        with self.opener.open(request, timeout=10) as response:
            return response.status

    def log_in(self, username: str, password: str) -> "Visitor":
        self.get("/accounts/login/")  # for the CSRF cookie
        self.post("/accounts/login/", {"username": username, "password": password})
        assert "Log out" in self.get("/"), f"{username} could not log in"
        return self

    def socket_headers(self) -> dict[str, str]:
        """Return what a page's WebSocket handshake sends: its origin and the session cookie."""
        return {"Cookie": f"sessionid={self.cookie('sessionid')}"}

    @property
    def socket_url(self) -> str:
        return self.base.replace("http", "ws", 1) + "/ws/live/"

    def socket_options(self) -> dict:
        """Return what `websockets`' connect needs to open the page's socket as a browser would."""
        options: dict = {"origin": self.base, "additional_headers": self.socket_headers()}
        if self.tls is not None:
            options["ssl"] = self.tls
        return options
