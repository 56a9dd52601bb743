"""The deployment of deploy/ works: nginx (Debian's package) in front of two daphne processes.

nginx runs deploy/nginx/hearts.conf itself, with only its ports, names and paths replaced
(`site_conf`), in front of two daphne processes started as deploy/systemd/ starts them
(`--proxy-headers`) in the environment of deploy/hearts.env.example (`production_env`: this
test's database, Redis, name and paths put in), on this test's PostgreSQL database and Redis,
with a self-signed certificate. Through nginx, over HTTPS:

- plain HTTP is sent to HTTPS; static files are nginx's, cached for a year when hashed;
- the site knows it is served over HTTPS: secure cookies, HSTS, and forms pass the CSRF check
  from the https origin;
- four people play a whole match (one hand), their moves spread by nginx over both processes,
  while a page's live socket (wss://, through nginx, held by one process) hears every move;
- nginx names the client to daphne: /metrics refuses a client that claims another address.

It runs only on the scaled-out profile (`DATABASE_URL` and `REDIS_URL`, as CI's second run)
and where nginx and openssl are installed; with CI set, a missing one is a failure.
"""

from __future__ import annotations

import getpass
import http.client
import json
import os
import re
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management.utils import get_random_secret_key

from games import services
from tests.scaled_out import (
    WAIT,
    Table,
    assert_logged,
    follow,
    hears_a_version_after,
    seat_everyone,
    this_database_url,
)
from tests.servers import ROOT, daphne, env_file, free_port, manage, require_program

DEPLOY = ROOT / "deploy"
NAME = "localhost"  # the site's name here, for hearts.example.com: clients send it by SNI
# A client address that is not this machine's: only it may read the metrics here.
OUTSIDER = "192.0.2.1"


@dataclass
class Proxy:
    """nginx serving the site: its addresses, and its access log (which daphne took what)."""

    http_port: int
    https_port: int
    access_log: Path

    @property
    def base(self) -> str:
        return f"https://{NAME}:{self.https_port}"

    def upstreams(self, method: str, path_pattern: str) -> list[str]:
        """The daphne (host:port) that answered each logged request of this method and path."""
        logged = (line.split() for line in self.access_log.read_text().splitlines())
        return [u for m, p, _, u in logged if m == method and re.fullmatch(path_pattern, p)]


def certificate(directory: Path) -> tuple[Path, Path]:
    """Make a self-signed certificate for NAME; return its file and its key's."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={NAME}", "-addext", f"subjectAltName=DNS:{NAME}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


def trusting(cert: Path) -> ssl.SSLContext:
    """A client's TLS settings that trust this certificate alone, checking the name as usual."""
    return ssl.create_default_context(cafile=str(cert))


def site_conf(
    proxy: Proxy, daphne_ports: list[int], static_root: Path, cert: Path, key: Path
) -> str:
    """Return deploy/nginx/hearts.conf with this test's ports, name and paths in it: nothing
    else changes. Each value replaced must be in the file, or the test would run another."""
    text = (DEPLOY / "nginx" / "hearts.conf").read_text()
    text, listened = re.subn(r"(listen (?:\[::\]:)?)80\b", rf"\g<1>{proxy.http_port}", text)
    text, listened_tls = re.subn(r"(listen (?:\[::\]:)?)443\b", rf"\g<1>{proxy.https_port}", text)
    assert listened == listened_tls == 4, "two servers listen on each port, over IPv4 and IPv6"
    assert static_root.name == "static", "nginx finds /static/x at <root>/static/x"
    replacements = {
        "/etc/letsencrypt/live/hearts.example.com/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/hearts.example.com/privkey.pem": str(key),
        "server_name hearts.example.com;": f"server_name {NAME};",
        "server 127.0.0.1:8001;": f"server 127.0.0.1:{daphne_ports[0]};",
        "server 127.0.0.1:8002;": f"server 127.0.0.1:{daphne_ports[1]};",
        "root /srv/hearts;": f"root {static_root.parent};",
    }
    for old, new in replacements.items():
        assert old in text, f"deploy/nginx/hearts.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


def main_conf(directory: Path, site: Path, access_log: Path) -> str:
    """Return the rest of an nginx.conf, as Debian's includes a site: with every file nginx
    writes kept in `directory`, so that it needs no root (the site's own file sets no path)."""
    temp = "\n".join(
        f"    {kind}_temp_path {directory / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # Run as root (as in CI), nginx's workers would drop to `nobody`, who cannot read this
    # test's files: keep them as the user running the test.
    user = f"user {getpass.getuser()};\n" if os.geteuid() == 0 else ""
    return f"""{user}worker_processes 1;
pid {directory / "nginx.pid"};
error_log {directory / "error.log"};
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
{temp}
    log_format upstreams '$request_method $uri $status $upstream_addr';
    access_log {access_log} upstreams;
    include {site};
}}
"""


@contextmanager
def nginx(directory: Path, site_text: str, proxy: Proxy, tls: ssl.SSLContext) -> Iterator[None]:
    """Run nginx in the foreground with the site's file until the block ends."""
    site = directory / "hearts.conf"
    site.write_text(site_text)
    conf = directory / "nginx.conf"
    conf.write_text(main_conf(directory, site, proxy.access_log))
    log = directory / "error.log"
    command = ["nginx", "-p", str(directory), "-e", str(log), "-c", str(conf), "-g", "daemon off;"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        wait_for_tls(proxy, tls, server, log)
        yield
    finally:
        server.terminate()
        server.wait(timeout=WAIT)


def wait_for_tls(proxy: Proxy, tls: ssl.SSLContext, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + WAIT
    while True:
        try:
            connection = http.client.HTTPSConnection(NAME, proxy.https_port, context=tls)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        assert server.poll() is None, log.read_text() if log.exists() else "nginx ended"
        assert time.monotonic() < deadline, "the site did not answer through nginx"
        time.sleep(0.2)


def production_env(proxy: Proxy, static_root: Path) -> dict[str, str]:
    """deploy/hearts.env.example, with this test's database, Redis, name and paths."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(env_file(DEPLOY / "hearts.env.example"))
    env.update(
        SECRET_KEY=get_random_secret_key(),
        ALLOWED_HOSTS=NAME,
        CSRF_TRUSTED_ORIGINS=proxy.base,
        SITE_URL=proxy.base,
        STATIC_ROOT=str(static_root),
        DATABASE_URL=this_database_url(),
        REDIS_URL=os.environ["REDIS_URL"],
        EMAIL_HOST="",  # e-mail to the console: no SMTP server here
        METRICS_ALLOWED_IPS=OUTSIDER,
        LOG_LEVEL="WARNING",
    )
    return env


@contextmanager
def deployed(tmp_path: Path) -> Iterator[tuple[Proxy, ssl.SSLContext, list[int]]]:
    """The site as deploy/ sets it up; yield nginx, a client's TLS settings, daphne's ports."""
    proxy = Proxy(free_port(), free_port(), tmp_path / "access.log")
    static_root = tmp_path / "static"
    env = production_env(proxy, static_root)
    manage(env, "collectstatic", "--noinput", "-v0")
    cert, key = certificate(tmp_path)
    tls = trusting(cert)
    ports = [free_port(), free_port()]
    with ExitStack() as stack:
        for n, port in enumerate(ports):
            log = tmp_path / f"daphne-{n}.log"
            # Not probed directly: it answers only to NAME, over HTTPS, as behind nginx.
            stack.enter_context(daphne(env, port, log=log, probe=False, proxy_headers=True))
        conf = site_conf(proxy, ports, static_root, cert, key)
        stack.enter_context(nginx(tmp_path, conf, proxy, tls))
        yield proxy, tls, ports


def request(
    proxy: Proxy, tls: ssl.SSLContext | None, path: str, headers: dict[str, str] | None = None
) -> http.client.HTTPResponse:
    """Send a GET to nginx (HTTPS with `tls`, else plain HTTP), following no redirect."""
    if tls is None:
        connection = http.client.HTTPConnection("127.0.0.1", proxy.http_port, timeout=WAIT)
    else:
        connection = http.client.HTTPSConnection(NAME, proxy.https_port, context=tls, timeout=WAIT)
    connection.request("GET", path, headers={"Host": NAME, **(headers or {})})
    response = connection.getresponse()
    response.read()
    return response


def assert_https_everywhere(proxy: Proxy, tls: ssl.SSLContext) -> None:
    redirect = request(proxy, None, "/accounts/login/?next=/")
    assert redirect.status == 301
    assert redirect.headers["Location"] == f"https://{NAME}/accounts/login/?next=/"
    page = request(proxy, tls, "/accounts/login/")
    # Served, not redirected: the site sees the request as HTTPS, from nginx's header.
    assert page.status == 200
    assert page.headers["Strict-Transport-Security"].startswith("max-age=31536000")


def assert_static_files_served_by_nginx(
    proxy: Proxy, tls: ssl.SSLContext, static_root: Path
) -> None:
    manifest = json.loads((static_root / "staticfiles.json").read_text())
    hashed = manifest["paths"]["games/site.css"]
    styles = request(proxy, tls, f"/static/{hashed}", {"Accept-Encoding": "gzip"})
    assert styles.status == 200
    assert styles.headers["Server"].startswith("nginx")  # daphne's would say daphne
    assert styles.headers["Content-Encoding"] == "gzip"  # whitenoise's .gz, sent as it is
    assert "immutable" in styles.headers["Cache-Control"]
    plain = request(proxy, tls, "/static/games/site.css")
    assert plain.status == 200
    assert plain.headers["Cache-Control"] == "public, max-age=60"


def assert_cookies_secure(table: Table) -> None:
    for player in table.players:
        cookies = {cookie.name: cookie for cookie in player.cookies}
        assert cookies["sessionid"].secure and cookies["csrftoken"].secure


def play_the_match_heard_live(table: Table, proxy: Proxy) -> None:
    """Play the match to its end through nginx; a page's socket hears each move at once."""
    with follow(table.players[0], proxy.base, table.match.pk) as (live, _):
        while (move := table.move()) is not None:
            assert 200 <= move.status < 300, move
            sent_at = table.match.version  # as the mover's page showed it
            assert hears_a_version_after(live, sent_at) is True, f"not heard: {move}"
    assert not table.state().to_act(), "the match is not over"


def assert_spread_over_both(proxy: Proxy, ports: list[int]) -> None:
    """The socket was held by one process and moves it heard were sent to the other (their
    news crossed Redis): nginx's least_conn gives each request to the process holding fewer
    connections, which the open socket makes the other one."""
    daphnes = {f"127.0.0.1:{port}" for port in ports}
    moves = proxy.upstreams("POST", r"/matches/\d+/(pass|play|moon)/")
    deadline = time.monotonic() + WAIT
    while not (socket := proxy.upstreams("GET", "/ws/live/")):  # logged once closed
        assert time.monotonic() < deadline, "nginx logged no live socket"
        time.sleep(0.1)
    assert set(moves) - set(socket), "every move went to the process holding the socket"
    assert set(moves) | set(socket) == daphnes


def assert_metrics_see_the_real_client(proxy: Proxy, tls: ssl.SSLContext, port: int) -> None:
    """nginx tells daphne who the client is, whatever the client claims: claiming to be the
    one address allowed to read the metrics opens them only when talking to daphne itself,
    which is why daphne listens on 127.0.0.1 alone."""
    claim = {"X-Forwarded-For": OUTSIDER, "X-Forwarded-Proto": "https", "Host": NAME}
    assert request(proxy, tls, "/metrics", claim).status == 404
    direct = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    direct.request("GET", "/metrics", headers=claim)
    assert direct.getresponse().status == 200


@pytest.fixture
def nginx_installed(scaled_out_profile) -> None:
    require_program("nginx", "the test runs Debian's nginx in front of the site")
    require_program("openssl", "the test makes a self-signed certificate with it")


@pytest.mark.usefixtures("nginx_installed", "real_password_hashing")
def test_a_match_played_through_nginx_in_front_of_two_daphne_processes(tmp_path):
    with deployed(tmp_path) as (proxy, tls, ports):
        assert_https_everywhere(proxy, tls)
        assert_static_files_served_by_nginx(proxy, tls, tmp_path / "static")
        # Signing in posts a form: the CSRF check passes from the https origin.
        one_hand = services.MatchOptions(hands=1, auto_finish=False)
        table = seat_everyone([proxy.base], one_hand, tls=tls)
        assert_cookies_secure(table)
        play_the_match_heard_live(table, proxy)
        assert_logged(table)
        assert_spread_over_both(proxy, ports)
        assert_metrics_see_the_real_client(proxy, tls, ports[0])
