"""The site as daphne serves it: a real server process on a free port."""

import urllib.request

from tests.servers import daphne, manage, site_env
from tests.test_settings import run_python


def test_daphne_serves_pages_and_static_files(tmp_path):
    env = site_env(tmp_path / "site.sqlite3")
    manage(env, "migrate", "-v0")
    with daphne(env) as base:
        page = urllib.request.urlopen(f"{base}/", timeout=10)
        assert page.status == 200
        assert "Hearts, at your own pace" in page.read().decode()
        stylesheet = urllib.request.urlopen(f"{base}/static/games/site.css", timeout=10)
        assert stylesheet.status == 200
        htmx = urllib.request.urlopen(f"{base}/static/django_htmx/htmx-2.min.js", timeout=10)
        assert b"htmx" in htmx.read()


def test_the_server_lets_its_event_loop_take_the_gil_back_within_a_millisecond(tmp_path):
    # Measured with bench/ws_bench.py: the loop waiting 5 ms for threads rendering pages
    # stretched the tail of live deliveries.
    code = "import sys, hearts_site.asgi; print(sys.getswitchinterval())"
    result = run_python(code, DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}")
    assert result.returncode == 0, result.stderr
    assert float(result.stdout) <= 0.001
