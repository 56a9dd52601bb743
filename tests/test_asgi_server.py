"""The site as daphne serves it: a real server process on a free port."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, deadline: float) -> urllib.request.addinfourl:
    while True:
        try:
            return urllib.request.urlopen(url, timeout=5)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.fixture
def daphne_server(tmp_path):
    """Migrate a fresh SQLite file and serve it with daphne; yield the base URL."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}", DEBUG="1")
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=120)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "hearts_site.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_daphne_serves_pages_and_static_files(daphne_server):
    deadline = time.monotonic() + 30
    page = wait_for(f"{daphne_server}/", deadline)
    assert page.status == 200
    assert "Hearts, at your own pace" in page.read().decode()
    stylesheet = wait_for(f"{daphne_server}/static/games/site.css", deadline)
    assert stylesheet.status == 200
    htmx = wait_for(f"{daphne_server}/static/django_htmx/htmx-2.min.js", deadline)
    assert b"htmx" in htmx.read()
