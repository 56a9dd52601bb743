"""`manage.py serve` serves the site as a club runs it: debug mode off, so the site's own error
pages, a secret key kept from one start to the next, and e-mails linking where it is served."""

import os
import re
import signal
import stat
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from games.management.commands.serve import kept_secret_key, served_env
from tests.servers import ROOT, free_port, site_env, wait_until_up


def test_the_servers_run_without_debug_mode_on_a_kept_secret_key(tmp_path):
    secret = tmp_path / "key"
    env = served_env("127.0.0.1", 8123, debug=False, secret_file=secret, base={})
    assert env["DEBUG"] == "0"
    assert env["SITE_URL"] == "http://127.0.0.1:8123"
    assert "127.0.0.1" in env["ALLOWED_HOSTS"].split(",")
    assert env["SECURE_SSL_REDIRECT"] == env["SESSION_COOKIE_SECURE"] == "0"  # plain HTTP
    assert len(env["SECRET_KEY"]) >= 50
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    again = served_env("127.0.0.1", 8123, debug=False, secret_file=secret, base={})
    assert again["SECRET_KEY"] == env["SECRET_KEY"] == kept_secret_key(secret)


def test_what_the_environment_sets_wins(tmp_path):
    base = {"SITE_URL": "https://hearts.example.org", "SECRET_KEY": "k" * 60, "DEBUG": "0"}
    env = served_env("0.0.0.0", 8000, debug=False, secret_file=tmp_path / "key", base=base)
    assert env["SITE_URL"] == "https://hearts.example.org"
    assert env["SECRET_KEY"] == "k" * 60 and not (tmp_path / "key").exists()
    assert "hearts.example.org" in env["ALLOWED_HOSTS"].split(",")
    assert served_env("::1", 9, debug=True, secret_file=tmp_path / "k", base={})["DEBUG"] == "1"


def test_on_every_interface_e_mails_link_to_the_machine_s_address(tmp_path):
    env = served_env("0.0.0.0", 8000, debug=False, secret_file=tmp_path / "key", base={})
    assert re.fullmatch(r"http://[\w.\-]+:8000", env["SITE_URL"])
    assert "0.0.0.0" not in env["SITE_URL"]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.skipif(sys.platform == "win32", reason="stops the server with SIGTERM")
def test_serve_answers_with_the_site_s_own_error_pages(tmp_path):
    env = site_env(tmp_path / "site.sqlite3")
    del env["DEBUG"]  # as a newcomer runs it
    env["SECRET_KEY_FILE"] = str(tmp_path / "secret")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--no-demo", "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, server, seconds=90)
        status, page = get(f"{base}/no/such/page/")
        assert status == 404
        assert "Page not found" in page
        assert "URLconf" not in page and "DEBUG = True" not in page  # not Django's debug page
        status, page = get(f"{base}/")
        assert status == 200
        # Static files by their hashed names, as with debug mode off.
        stylesheet = re.search(r'href="(/static/games/site\.[0-9a-f]+\.css)"', page)
        assert stylesheet, "the stylesheet is not served under a hashed name"
        assert get(base + stylesheet.group(1))[0] == 200
        assert stat.S_IMODE(os.stat(tmp_path / "secret").st_mode) == 0o600
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
