"""The site as daphne serves it: a real server process on a free port."""

import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.servers import daphne, migrate, site_env
from tests.test_settings import run_python


def test_daphne_serves_pages_and_static_files(tmp_path):
    env = site_env(tmp_path / "site.sqlite3")
    migrate(env)
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


def test_the_server_freezes_what_it_loaded_and_collects_young_objects_less_often(tmp_path):
    # Measured in process: with Python's default threshold a collection ran in about one
    # played card of three; frozen at startup, the loaded site is never traced again.
    code = "import gc, hearts_site.asgi; print(gc.get_freeze_count(), gc.get_threshold()[0])"
    result = run_python(code, DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}")
    assert result.returncode == 0, result.stderr
    frozen, young_threshold = result.stdout.split()
    assert int(frozen) > 10_000  # the modules, settings and apps Django set up
    assert int(young_threshold) == 10_000


def test_a_form_posted_through_daphne_reaches_the_view(tmp_path):
    env = site_env(tmp_path / "site.sqlite3")
    migrate(env)
    with daphne(env) as base:
        login = urllib.request.urlopen(f"{base}/accounts/login/", timeout=10)
        cookie = login.headers["Set-Cookie"].split(";", 1)[0]
        token = cookie.split("=", 1)[1]
        form = urllib.parse.urlencode({"username": "nobody", "password": "wrong"}).encode()
        request = urllib.request.Request(
            f"{base}/accounts/login/",
            data=form,
            headers={"Cookie": cookie, "X-CSRFToken": token},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        # The form was read: refused for its password, the page keeps the name that was sent.
        assert refused.value.code == 400
        assert 'value="nobody"' in refused.value.read().decode()


STOCK_APPLICATION = """
import gc, sys
import hearts_site.asgi as asgi
from django.core.handlers.asgi import ASGIHandler
from hearts_site.http import HttpHandler
print(type(asgi.http_application) is ASGIHandler, isinstance(asgi.http_application, HttpHandler))
print(sys.getswitchinterval() == 0.005, gc.get_threshold()[0])
"""


def test_stock_serving_turns_the_serving_shortcuts_off(tmp_path):
    database = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    result = run_python(STOCK_APPLICATION, DATABASE_URL=database, STOCK_SERVING="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "False", "True", "700"]
    tuned = run_python(STOCK_APPLICATION, DATABASE_URL=database)
    assert tuned.stdout.split() == ["False", "True", "False", "10000"]
